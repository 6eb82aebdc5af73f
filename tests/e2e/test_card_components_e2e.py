"""Every card component carries its suit as an emoji, and no label carries emoji markup
(issue 31: ♠ and ♣ vanished on dark buttons; Discord draws custom emojis only in a component's
``emoji`` field).

Whole games of every landed game are played through the players' DMs, every decision a seeded
choice among what the hand offers (card buttons, card menus, multi-card choices, bids,
bargaining, declarations), and every hand message the bot sends is read as Discord stores it:

* no button label, option label or placeholder holds emoji markup (``<:spades:…>``);
* a component naming a suited card (a one-tap button, a menu option, a called King, a named
  trump suit) carries that suit's application emoji — the Italian pack's (swords, cups, coins,
  batons) at Queen of Tarot, the French one's elsewhere — and its label no suit sign; the Fool
  or Excuse carries 🃏, trumps nothing;
* Queen of Tarot's messages never show a French suit (sign, emoji or English word).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import TrionfiBot
from bot.ui.delivery.suit_emojis import ITALIAN_EMOJI_NAMES, SUIT_EMOJI_NAMES
from bot.ui.text.cards import ITALIAN_SYMBOL, SUIT_SYMBOL
from tests.e2e.helpers import components, embed_text
from tests.e2e.test_suit_emojis_e2e import emoji_bot, made
from tests.resilience.drive import Table, landed_games, make_world, seat_counts

__all__ = ["made"]  # the bots' fixture, shared with the suit emoji tests

pytestmark = pytest.mark.heavy

MARKUP = re.compile(r"<a?:\w+:\d+>")
CARD = re.compile(r"^(?:[SHDC](?:\d+|[AJCQK])|T\d+|EX)$")
SIGNS = set(SUIT_SYMBOL.values()) | set(ITALIAN_SYMBOL.values())


@pytest.fixture
def simcord_bot(tmp_path: Path, made: list[TrionfiBot]) -> TrionfiBot:
    bot = emoji_bot(tmp_path / "trionfi.sqlite3", suit_emojis=True, seed=5)
    made.append(bot)
    return bot


#: A toggle of a multi-card choice (``bot.ui.components.toggles``): table, kind, card, deal.
TOGGLE = re.compile(r"tp:\d+:\w+:([A-Z0-9]+)(?:@\d+)?")


def _named(c: Any) -> list[tuple[str, str, Any]]:
    """(card or ``suit=X``, label, emoji) of every card or suit a component names."""
    custom_id = getattr(c, "custom_id", None) or ""
    out: list[tuple[str, str, Any]] = []
    if isinstance(c, discord.Button):
        m = re.search(r":(?:card|suit)=([A-Z0-9]+)", custom_id)
        if m is not None and ":act:" in custom_id:
            kind = "suit=" if ":suit=" in custom_id else ""
            out.append((kind + m[1], c.label or "", c.emoji))
        toggle = TOGGLE.fullmatch(custom_id)  # a multi-card choice's card: "✓ " once picked
        if toggle is not None:
            out.append((toggle[1], (c.label or "").removeprefix("✓ "), c.emoji))
    elif isinstance(c, discord.SelectMenu):
        out += [(o.value, o.label, o.emoji) for o in c.options if CARD.match(o.value)]
    return out


def check_components(message: discord.Message, game_id: str, emojis: dict[str, int]) -> int:
    """Assert the rules above on ``message``; returns the number of card components seen."""
    names = ITALIAN_EMOJI_NAMES if game_id == "queen_of_tarot" else SUIT_EMOJI_NAMES
    seen = 0
    for c in components(message):
        shown = [getattr(c, "label", None) or "", getattr(c, "placeholder", None) or ""]
        shown += [o.label for o in getattr(c, "options", [])]
        shown += [o.description or "" for o in getattr(c, "options", [])]
        for text in shown:
            assert not MARKUP.search(text), (game_id, text)
        for card, text, emoji in _named(c):
            seen += 1
            assert not any(s in text for s in SIGNS), (game_id, card, text)
            suit = card.removeprefix("suit=")[0] if card[0] in "SHDC" or "=" in card else None
            if card == "EX":
                assert emoji is not None and emoji.name == "🃏", (game_id, text, emoji)
            elif suit is not None:
                assert emoji is not None and emoji.id == emojis[names[suit]], (card, emoji)
            else:  # a trump: no suit, no emoji (La Morte's Bagatto is the highest club)
                assert emoji is None or emoji.id == emojis[names["C"]], (card, emoji)
    return seen


@pytest.mark.parametrize("game_id", landed_games())
async def test_every_card_component_carries_its_suit_emoji(
    simcord_env: simcord.Env, game_id: str
) -> None:
    env = simcord_env
    emojis = {e.name: e.id for e in env.backend.application_emojis.values()}
    assert set(emojis) == {*SUIT_EMOJI_NAMES.values(), *ITALIAN_EMOJI_NAMES.values()}
    world = make_world(env, 2, pictures=False)
    seats = max(seat_counts(game_id).start, 3)
    table = Table(world, game_id, world.members[:2], seed=11)
    await table.open(seats)
    counted = 0

    async def look() -> None:
        nonlocal counted
        for member in world.members:
            hand = await table.hand(member)
            if hand is not None:
                counted += check_components(hand, game_id, emojis)

    await table.play(after_step=look, max_steps=400)
    assert counted > 20, (game_id, counted)
    # Queen of Tarot speaks of its Italian suits only, everywhere the bot wrote.
    if game_id == "queen_of_tarot":
        everything = [m for member in world.members for m in member.user.dm_channel.history()]
        everything += world.channel.history()
        text = "\n".join(embed_text(m) for m in everything)
        assert not any(s in text for s in SUIT_SYMBOL.values())
        assert not re.search(r"<:(spades|hearts|diamonds|clubs):", text)
        assert not re.search(r"\b(Spades|Hearts|Diamonds|Clubs)\b", text)
        assert re.search(r"<:(swords|cups|coins|batons):\d+>", text)


async def test_without_the_emojis_card_components_carry_unicode_suits(
    simcord_env: simcord.Env, tmp_path: Path, made: list[TrionfiBot]
) -> None:
    """Discord refusing the upload: buttons and menus carry the Unicode suit (and the Italian
    stand-ins at Queen of Tarot), labels still no sign."""
    env = simcord_env
    for emoji_id in [e.id for e in env.backend.application_emojis.values()]:
        env.backend.delete_application_emoji(emoji_id)
    env.inject_error("POST", "/applications/*/emojis", status=403, code=50013, times=None)
    bot = emoji_bot(tmp_path / "refused.sqlite3", suit_emojis=True, seed=5)
    made.append(bot)
    await make_world(env, 0, server="Restart").restart(bot)
    for game_id, signs in (("la_morte", SUIT_SYMBOL), ("queen_of_tarot", ITALIAN_SYMBOL)):
        world = make_world(env, 1, pictures=False, server=game_id)
        table = Table(world, game_id, world.members[:1], seed=4)
        await table.open(3)
        found = await table.mover()
        while found is not None and not any(_named(c) for c in components(found[1])):
            await table.step(found=found)
            found = await table.mover()
        assert found is not None
        named = [n for c in components(found[1]) for n in _named(c)]
        for card, text, emoji in named:
            assert not MARKUP.search(text) and not any(s in text for s in SIGNS), text
            if card[0] in "SHDC":
                assert emoji is not None and emoji.id is None, (card, emoji)
                assert emoji.name.removesuffix("\ufe0f") == signs[card[0]].removesuffix("\ufe0f")
