"""Trionfi in French and Italian through Discord (issue 19): whole games on a French and an
Italian table, every public message in the table's language, every hand in its player's, and
no English message of the catalogs anywhere; a mixed table (an English-speaking player at a
French table) reads its own DMs in English.

SimCord sends every interaction as ``en-US``; the ``locales`` fixture gives each simulated
user and server the Discord locale a real client would send.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions

from bot.i18n.extract import LOCALES, read
from bot.ui.text.rules import has_full
from tests.e2e.helpers import embed_text, private_answer, said
from tests.resilience.drive import SHORT_OPTIONS, Table, World, group, landed_games

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


class Locales:
    """Discord locales of simulated users and servers (default ``en-US``)."""

    def __init__(self) -> None:
        self.users: dict[int, str] = {}
        self.guilds: dict[int, str] = {}


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[Locales]:
    known = Locales()
    original = sim_interactions.base_payload

    def localized(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        payload["locale"] = known.users.get(kw["user_id"], "en-US")
        if kw.get("guild_id") is not None:
            payload["guild_locale"] = known.guilds.get(kw["guild_id"], "en-US")
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", localized)
    yield known


def world_in(env: simcord.Env, locales: Locales, server: str, people: dict[str, str]) -> World:
    """A server whose Discord language is ``server``, with members speaking ``people``."""
    guild = env.create_guild("Club de tarot", preferred_locale=server)
    locales.guilds[guild.id] = server
    channel = guild.create_text_channel("tarot")
    members = []
    for name, locale in people.items():
        member = guild.add_member(env.create_user(name))
        locales.users[member.id] = locale
        members.append(member)
    return World(env, guild, channel, members)


@cache
def english_fragments(language: str) -> frozenset[str]:
    """Pieces of English that only an untranslated message would show: the catalogs' English
    messages (split at their placeholders) whose translation differs, long enough not to be a
    shared word ("Garde", "Excuse")."""
    out: set[str] = set()
    for po in (LOCALES / language).glob("*.po"):
        for m in read(po, language):
            if not m.id or m.context in ("command name", "option name"):
                continue
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            for english in ids:
                if english in strings:
                    continue
                for piece in _PLACEHOLDER.split(english):
                    piece = piece.strip(" *_`.,:;—-()\n")
                    if len(piece) >= 14 and " " in piece and piece not in " ".join(strings):
                        out.add(piece)
    return frozenset(out)


def leaks(text: str, language: str) -> list[str]:
    return sorted(p for p in english_fragments(language) if p in text)


def message_text(message: Any) -> str:
    parts = [message.content or "", embed_text(message)]
    for row in getattr(message, "components", None) or []:
        for c in getattr(row, "children", None) or [row]:
            parts += [getattr(c, "label", None) or "", getattr(c, "placeholder", None) or ""]
    return "\n".join(parts)


def dm_texts(member: Any) -> list[str]:
    channel = member.user.dm_channel
    return [] if channel is None else [message_text(m) for m in channel.history()]


async def test_a_whole_french_tarot_game_in_french(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "fr", {"amelie": "fr", "bastien": "fr"})
    table = Table(world, "french_tarot", world.members, seed=11)
    seen: list[str] = []

    async def read_hands() -> None:
        for member in world.members:
            seen.extend(dm_texts(member)[-1:])

    await table.open(4, None)
    await table.play(after_step=read_hands)
    public = [message_text(m) for m in world.channel.history()]
    everything = "\n".join(public + seen)
    assert not leaks(everything, "fr"), leaks(everything, "fr")[:10]
    assert "Passe" in everything or "Prise" in everything or "Garde" in everything
    assert "Pli" in everything and "chien" in everything
    assert any("partie terminée" in t for t in public), "the result, in French"


def short_options(world: World, game_id: str, **extra: Any) -> dict[str, Any]:
    """The short game options the game's ``new`` declares, plus ``extra``."""
    root = world.env.backend.find_command(group(game_id), None)
    assert root is not None
    sub = next(o for o in root["options"] if o["name"] == "new")
    declared = {o["name"] for o in sub.get("options") or []}
    return {**{k: v for k, v in SHORT_OPTIONS.items() if k in declared}, **extra}


async def test_a_queen_of_tarot_game_in_italian_on_an_english_server(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "en-US", {"bianca": "it", "carlo": "it"})
    table = Table(world, "queen_of_tarot", world.members, seed=5)
    seen: list[str] = []

    async def read_hands() -> None:
        for member in world.members:
            seen.extend(dm_texts(member)[-1:])

    await table.open(3, short_options(world, "queen_of_tarot", language="it"))
    info = await world.service.get_table(table.table_id)
    assert info.language == "it" and {s.language for s in info.seats if s.user_id} == {"it"}
    await table.play(after_step=read_hands)
    public = [message_text(m) for m in world.channel.history()]
    everything = "\n".join(public + seen)
    assert not leaks(everything, "it"), leaks(everything, "it")[:10]
    assert "Regina dei Tarocchi" in everything and "mano" in everything
    assert any("partita finita" in t for t in public), "the result, in Italian"


async def test_a_mixed_table_speaks_french_in_public_and_english_in_dms(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "fr", {"amelie": "fr", "bob": "en-US"})
    amelie, bob = world.members
    table = Table(world, "la_morte", world.members, seed=3)
    await table.open(4, None)
    for _ in range(6):
        if not await table.step():
            break
    public = "\n".join(message_text(m) for m in world.channel.history())
    assert not leaks(public, "fr"), leaks(public, "fr")[:10]
    bobs = "\n".join(dm_texts(bob))
    amelies = "\n".join(dm_texts(amelie))
    assert "Your hand" in bobs and not leaks(amelies, "fr")
    assert "Your hand" not in amelies
    # /language switches bob's DMs to Italian at once, the table staying French.
    r = await bob.slash(world.channel, "language", choice="it")
    assert r.acknowledged and "Italiano" in (said(r).content or "")
    assert "Your hand" not in dm_texts(bob)[-1]
    assert not leaks(dm_texts(bob)[-1], "it")


async def test_a_french_refusal_for_a_french_player(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "en-US", {"amelie": "fr", "bob": "en-US"})
    amelie, bob = world.members
    r = await amelie.slash(world.channel, "lamorte join")
    text = said(r).content or ""
    assert text.startswith("⚠️") and "Il n’y a pas de table" in text
    r = await bob.slash(world.channel, "lamorte join")
    assert "There is no La Morte table in this channel" in (said(r).content or "")


async def test_rules_in_the_readers_language(simcord_env: simcord.Env, locales: Locales) -> None:
    """``/<game> rules`` is a private answer: in the reader's language, the server's being
    English (issue 28, defect 8)."""
    world = world_in(simcord_env, locales, "en-US", {"amelie": "fr", "bob": "en-US"})
    amelie, bob = world.members
    for game in landed_games():
        # ``full`` is offered only where a longer version exists (issue 31).
        for full in (False, True) if has_full(game) else (False,):
            options = {"full": True} if full else {}
            r = await amelie.slash(world.channel, f"{group(game)} rules", **options)
            french = message_text(private_answer(world.channel, amelie, r))
            assert said(r).ephemeral and not leaks(french, "fr"), (game, leaks(french, "fr")[:5])
            r = await bob.slash(world.channel, f"{group(game)} rules", **options)
            assert message_text(private_answer(world.channel, bob, r)) != french, game
    r = await amelie.slash(world.channel, "lamorte rules")
    assert "Règles — La Morte — La donne (1/4)" in message_text(
        private_answer(world.channel, amelie, r)
    )
