"""The slash commands as Discord receives them in a sync: every command, option and choice
carries its French and Italian name and description, within Discord's rules (issue 19)."""

from __future__ import annotations

from typing import Any

from bot.client import TrionfiBot, load_cogs
from bot.i18n.commands import COMMAND_LOCALES, CommandTranslator, problems


async def _payload() -> list[dict[str, Any]]:
    bot = TrionfiBot(":memory:", shard_count=1)  # never logs in: only its tree is read
    await load_cogs(bot)
    translator = CommandTranslator()
    await bot.tree.set_translator(translator)
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


def _walk(items: list[dict[str, Any]], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        where = f"{path}/{item['name']}"
        out.append((where, item))
        out += _walk(item.get("options") or [], where)
    return out


async def test_every_command_option_and_choice_is_localised() -> None:
    payload = await _payload()
    missing: list[str] = []
    for locale in (loc.value for loc in COMMAND_LOCALES):
        for where, item in _walk(payload):
            names = item.get("name_localizations") or {}
            descriptions = item.get("description_localizations") or {}
            if locale not in names:
                missing.append(f"{locale} {where}: no name")
            else:
                bad = problems("option name", "", names[locale])
                missing += [f"{locale} {where}: {p}" for p in bad]
            if "description" in item and locale not in descriptions:
                missing.append(f"{locale} {where}: no description")
            for choice in item.get("choices") or []:
                local = (choice.get("name_localizations") or {}).get(locale)
                if local is None:
                    missing.append(f"{locale} {where}: choice {choice['name']!r}")
                else:
                    bad = problems("choice", "", local)
                    missing += [f"{locale} {where} {choice['name']!r}: {p}" for p in bad]
    assert not missing, "\n".join(missing[:40]) + f"\n({len(missing)} in all)"


async def test_translated_names_stay_distinct_where_discord_needs_them_to() -> None:
    payload = await _payload()
    clashes: list[str] = []
    for locale in (loc.value for loc in COMMAND_LOCALES):
        siblings: list[list[dict[str, Any]]] = [payload]
        siblings += [item.get("options") or [] for _, item in _walk(payload)]
        for group in siblings:
            named = [(i.get("name_localizations") or {}).get(locale, i["name"]) for i in group]
            if len(named) != len(set(named)):
                clashes.append(f"{locale}: {sorted(named)}")
    assert not clashes, "\n".join(clashes)
