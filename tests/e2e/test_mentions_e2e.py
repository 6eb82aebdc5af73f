"""Commands named in text are mentions (issue 32): ``/help`` in French and Italian names every
command as ``</name sub:id>`` with the id the sync got from Discord, a refusal points at the
game's ``new`` the same way, a process that does not sync reads the ids from the database; and
a whole La Morte game in French keeps to the French glossary and typography in every message
of the channel and of the DMs.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import simcord

from bot.client import TrionfiBot
from bot.ui.text import mention
from tests.e2e import test_languages_e2e as languages
from tests.e2e.helpers import said
from tests.e2e.test_languages_e2e import Locales, dm_texts, message_text, world_in
from tests.i18n.test_glossary import GLOSSARIES, term_pattern
from tests.i18n.test_typography import problems
from tests.resilience.drive import Table

locales = languages.locales  # the fixture giving simulated users their Discord locale

MENTION = re.compile(r"</([-\w]+(?: [-\w]+)*):(\d+)>")


def synced_ids(env: simcord.Env) -> dict[str, int]:
    """Top-level command name → id, as SimCord's Discord holds them."""
    return {c["name"]: int(c["id"]) for c in env.backend.commands.get(None, {}).values()}


def mentions(text: str) -> dict[str, int]:
    return {path: int(i) for path, i in MENTION.findall(text)}


async def test_help_mentions_every_command_in_french_and_italian(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "en-US", {"amelie": "fr", "bianca": "it"})
    ids = synced_ids(simcord_env)
    assert ids and mention.known() == ids  # the sync's ids, in memory
    assert await world.service.command_ids() == ids  # and stored for every process
    for member, words in zip(world.members, ("règles", "regole"), strict=True):
        answer = said(await member.slash(world.channel, "help"))
        # The answer is drawn in the newer layout: read it as the member's channel shows it.
        shown = next(m for m in world.channel.history(viewer=member) if m.id == answer.id)
        text = message_text(shown)
        found = mentions(text)
        assert {"lamorte new", "tarot rules", "daily", "leaderboard", "privacy forget-me"} <= set(
            found
        ), text
        assert all(ids[path.split()[0]] == i for path, i in found.items())
        assert words in text
        # No command typed by its English name any more (only the any-game pattern is typed).
        assert not re.search(r"`/(?!<)", text), text


async def test_a_refusal_points_at_the_command_and_a_second_process_reads_the_ids(
    simcord_env: simcord.Env, locales: Locales, bot_database: str | Path
) -> None:
    world = world_in(simcord_env, locales, "en-US", {"amelie": "fr"})
    (amelie,) = world.members
    ids = synced_ids(simcord_env)
    text = said(await amelie.slash(world.channel, "lamorte join")).content or ""
    assert f"</lamorte new:{ids['lamorte']}>" in text and "Il n’y a pas de table" in text
    # A process of a cluster that does not own the sync: the ids come from the database.
    mention.remember({})
    other = TrionfiBot(bot_database, sweep_every=None, shard_count=1, command_sync=False)
    try:
        await world.restart(other)
        assert mention.known() == ids
        text = said(await amelie.slash(world.channel, "lamorte join")).content or ""
        assert f"</lamorte new:{ids['lamorte']}>" in text
    finally:
        await other.close()


def _avoided(areas: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    glossary = tomllib.loads((GLOSSARIES / "fr.toml").read_text(encoding="utf-8"))
    out = []
    for area in ("common", *areas):
        for key, term in glossary.get(area, {}).items():
            stem = bool(term.get("stem", False))
            out += [(f"[{area}] {key}: {w}", term_pattern(w, stem)) for w in term.get("avoid", [])]
    return out


async def test_a_la_morte_game_in_french_keeps_to_the_glossary(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "fr", {"amelie": "fr", "bastien": "fr"})
    world.pictures = False  # text only: the pictures have their own tests
    table = Table(world, "la_morte", world.members, seed=7)
    seen: list[str] = []

    async def read_hands() -> None:
        for member in world.members:
            seen.extend(dm_texts(member)[-1:])

    await table.open(3, {"target": 3, "round_limit": 1})
    await table.play(after_step=read_hands)
    texts = [message_text(m) for m in world.channel.history()] + seen
    for member in world.members:
        texts += dm_texts(member)
    assert any("partie terminée" in t for t in texts), "the game ended, in French"
    avoided = _avoided(("core", "la_morte"))
    bad: list[str] = []
    for text in texts:
        folded = text.replace("'", "’").casefold()
        bad += [f"{what} in {text[:120]!r}" for what, p in avoided if p.search(folded)]
        bad += [f"{problem} in {text[:120]!r}" for problem in problems(_no_names(text, world))]
    assert not bad, "\n".join(sorted(set(bad))[:20])


def _no_names(text: str, world: Any) -> str:
    """``text`` without the players' names (user data, not the catalogs' typography)."""
    for member in world.members:
        text = text.replace(member.user.name, "X")
    return text
