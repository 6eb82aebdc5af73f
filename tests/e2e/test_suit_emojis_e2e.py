"""Four-colour suits in text (issue 16): the bot uploads its suit emojis once (and Queen of
Tarot's Italian ones, issue 31), text shows them, buttons and menus carry them in their emoji
field (never in a label), and a Discord that refuses leaves the text in Unicode with the bot
running."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import TrionfiBot
from bot.ui.delivery.suit_emojis import ITALIAN_EMOJI_NAMES, SUIT_EMOJI_NAMES
from bot.ui.text.cards import set_suit_marks
from tests.e2e.helpers import components, dm_hand, embed_text
from tests.resilience.drive import Table, make_world

MARKUP = re.compile(r"<:(spades|hearts|diamonds|clubs):(\d+)>")


def emoji_bot(path: Path, *, suit_emojis: bool, seed: int = 3) -> TrionfiBot:
    """A bot that uploads its suit emojis (``suit_emojis``), dealt from ``seed``."""
    return TrionfiBot(
        path,
        seed_source=lambda: seed,
        sweep_every=None,
        retry_delays=(0.0, 0.0),
        shard_count=1,
        suit_emojis=suit_emojis,
    )


@pytest.fixture
async def made(tmp_path: Path) -> AsyncIterator[list[TrionfiBot]]:
    bots: list[TrionfiBot] = []
    yield bots
    for bot in bots:
        await bot.close()
    set_suit_marks(None)  # the next test's bots start from Unicode


@pytest.fixture
def simcord_bot(tmp_path: Path, made: list[TrionfiBot]) -> TrionfiBot:
    bot = emoji_bot(tmp_path / "trionfi.sqlite3", suit_emojis=True)
    made.append(bot)
    return bot


def _app_emojis(env: simcord.Env) -> dict[str, int]:
    return {e.name: e.id for e in env.backend.application_emojis.values()}


def _component_texts(message: Any) -> list[str]:
    out: list[str] = []
    for c in components(message):
        out += [getattr(c, "label", None) or "", getattr(c, "placeholder", None) or ""]
        out += [o.label for o in getattr(c, "options", [])]
    return out


async def test_text_shows_the_uploaded_suit_emojis_and_a_restart_reuses_them(
    simcord_env: simcord.Env, tmp_path: Path, made: list[TrionfiBot]
) -> None:
    env = simcord_env
    uploaded = _app_emojis(env)
    assert set(uploaded) == {*SUIT_EMOJI_NAMES.values(), *ITALIAN_EMOJI_NAMES.values()}
    world = make_world(env, 2)
    alice, _bob = world.members
    table = Table(world, "french_tarot", world.members[:2], seed=4)
    await table.open(4, None)
    seen: set[str] = set()

    async def look() -> None:
        hand = dm_hand(alice)
        if hand is None:
            return
        for name, emoji_id in MARKUP.findall(embed_text(hand)):
            assert uploaded[name] == int(emoji_id)  # the application's own emojis
            seen.add(name)
        # Labels show no custom emoji in Discord: the suit is in the emoji field.
        assert not any("<:" in t for t in _component_texts(hand))

    await table.play(after_step=look, max_steps=40)
    assert len(seen) >= 3, seen  # four suits in a 4-player hand, seen in text
    table_text = " ".join(embed_text(m) for m in world.channel.history())
    assert MARKUP.search(table_text), "tricks on the table show the emojis"
    # A restart (or a second process) finds them: nothing is uploaded twice.
    before = len(env.http_requests)
    again = emoji_bot(tmp_path / "trionfi.sqlite3", suit_emojis=True)
    made.append(again)
    await world.restart(again)
    assert _app_emojis(env) == uploaded
    assert not [r for r in env.http_requests[before:] if r.method == "POST" and "emojis" in r.path]


async def test_a_refusing_discord_leaves_unicode_suits_and_a_working_bot(
    simcord_env: simcord.Env, tmp_path: Path, made: list[TrionfiBot]
) -> None:
    env = simcord_env
    for name, emoji_id in _app_emojis(env).items():  # a fresh application, no emojis yet
        env.backend.delete_application_emoji(emoji_id)
        assert name
    env.inject_error("POST", "/applications/*/emojis", status=403, code=50013, times=None)
    bot = emoji_bot(tmp_path / "trionfi.sqlite3", suit_emojis=True)
    made.append(bot)
    world = make_world(env, 2)
    await world.restart(bot)
    assert _app_emojis(env) == {}
    table = Table(world, "la_morte", world.members[:2], seed=4)
    await table.open(4, None)
    await table.step()
    hand = dm_hand(world.members[0])
    assert hand is not None
    text = embed_text(hand)
    assert "<:" not in text and any(s in text for s in "♠♥♦♣")
