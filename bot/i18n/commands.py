"""The slash commands in French and Italian: discord.py's ``Translator`` over the catalogs.

discord.py turns every command, group, option and choice string into a ``locale_str`` and asks
the tree's translator for each Discord locale when it builds the sync payload. The catalogs hold
these strings with a context (``msgctxt``) naming what they are, because Discord's rules differ:
a command or option *name* is lower case without spaces (≤ 32 characters), a description is up
to 100 characters, a choice name up to 100.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, catalog

#: The Discord locales we translate commands for (others see English).
COMMAND_LOCALES = {discord.Locale.french: "fr", discord.Locale.italian: "it"}

#: The catalog context of each kind of command string.
CONTEXT = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}

#: Discord's rule for command and option names (CHAT_INPUT): lower case where the script has
#: case, letters, digits, ``-`` and ``_``, 1 to 32 characters.
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
LIMITS = {"command name": 32, "option name": 32, "command description": 100}
LIMITS |= {"option description": 100, "choice": 100}


class CommandTranslator(app_commands.Translator):
    """Names, descriptions and choices of the command tree from the catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        language = COMMAND_LOCALES.get(locale)
        where = CONTEXT.get(context.location)
        if language is None or language == DEFAULT or where is None:
            return None
        return catalog(language).contextual.get((where, string.message))


def command_strings(tree: app_commands.CommandTree[Any]) -> Iterator[tuple[str, str]]:
    """``(context, English text)`` of every string of ``tree`` that Discord shows, for the
    catalogs (``python -m bot.i18n.extract``) and their checks."""
    for command in tree.walk_commands():
        yield CONTEXT[Where.command_name], command.name
        yield CONTEXT[Where.command_description], command.description
        if not isinstance(command, app_commands.Command):
            continue
        for param in command.parameters:
            yield CONTEXT[Where.parameter_name], param.display_name
            yield CONTEXT[Where.parameter_description], str(param.description)
            for choice in param.choices:
                yield CONTEXT[Where.choice_name], choice.name


def problems(context: str, english: str, translated: str) -> list[str]:
    """What Discord would refuse in ``translated`` (empty when it accepts it)."""
    out: list[str] = []
    limit = LIMITS[context]
    if not translated.strip():
        out.append("empty")
    if len(translated) > limit:
        out.append(f"{len(translated)} characters > {limit}")
    if context in ("command name", "option name") and (
        not NAME_RULE.match(translated) or translated != translated.lower()
    ):
        out.append("a name must be lower case letters, digits, - or _, without spaces")
    return out
