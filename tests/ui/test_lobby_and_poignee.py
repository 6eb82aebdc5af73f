"""Issue 16: a full lobby offers no Join, the poignée reads as optional, and French Tarot's
card refusals say which rule refused the card.

Pure renderers and engine calls: nothing touches Discord or a database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
import pytest

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games.french_tarot import RULES, FrenchTarotState, Phase
from bot.engine.match import MatchState
from bot.services.step import illegal_move
from bot.ui.components.choice import add_choice, offers_play
from bot.ui.components.views import lobby_view
from bot.ui.games.french_tarot import decision_view
from bot.ui.text.refusals import refusal

TRUMPS = [f"T{i}" for i in range(1, 22)]


def buttons(view: discord.ui.View) -> list[discord.ui.Button[Any]]:
    out: list[discord.ui.Button[Any]] = []
    for child in view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Button):
            out.append(item)
    return out


def selects(view: discord.ui.View) -> list[discord.ui.Select[Any]]:
    out: list[discord.ui.Select[Any]] = []
    for child in view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Select):
            out.append(item)
    return out


# ---- 1. lobby -----------------------------------------------------------------------------


def test_open_lobby_offers_join_and_computers() -> None:
    labels = [b.label for b in buttons(lobby_view(7, full=False))]
    assert labels == ["Join", "Leave", "Add computer", "Start"]
    start = buttons(lobby_view(7, full=False))[-1]
    assert start.style is discord.ButtonStyle.secondary


def test_full_lobby_hides_join_and_add_computer_and_highlights_start() -> None:
    view = lobby_view(7, full=True)
    labels = [b.label for b in buttons(view)]
    assert labels == ["Leave", "Start"]
    assert "Join" not in labels
    start = buttons(view)[-1]
    assert start.style is discord.ButtonStyle.primary
    assert start.custom_id == "tb:7:start"


# ---- 2. the poignée is optional -----------------------------------------------------------


def _play_state(
    hand: Sequence[str], *, trick: tuple[tuple[int, str], ...] = (), called: str | None = None
) -> FrenchTarotState:
    """Five players, seat 4 to play its first card holding ``hand``."""
    others = [c for c in TAROT_PACK if c not in hand]
    size = len(hand) - (1 if trick else 0)
    hands = tuple(
        tuple(hand) if s == 4 else tuple(others[s * size : (s + 1) * size]) for s in range(5)
    )
    return FrenchTarotState(
        players=5,
        dealer=0,
        chelem_option=False,
        phase=Phase.PLAY,
        hands=hands,
        dog=(),
        turn=4,
        bids=("pass",) * 5,
        taker=1,
        contract="garde",
        called=called,
        leader=trick[0][0] if trick else 4,
        trick=trick,
        tricks_won=(0,) * 5,
    )


POIGNEE_HAND = [*TRUMPS[1:10], "S1", "S2", "H3", "H4", "D5", "C6"]  # 9 trumps, 15 cards


def test_poignee_offered_beside_the_play_is_labelled_optional() -> None:
    s = _play_state(POIGNEE_HAND)
    seat_view = RULES.observe(s, 4)
    assert {a.type for a in seat_view.legal} == {"play", "poignee"}
    view = decision_view(3, seat_view)
    assert view is not None
    # The card plays come first (rows above the poignée), the poignée after them.
    first = view.children[0]
    assert ":act:play:" in (getattr(first, "custom_id", "") or "")
    choice = [m for m in selects(view) if (m.custom_id or "").startswith("tc:")]
    assert choice and all(
        (m.placeholder or "").startswith("Show a poignée (optional): ") for m in choice
    )
    (confirm,) = [b for b in buttons(view) if b.custom_id == "tb:3:hand"]
    assert confirm.label == "Pick 8 to show a poignée — optional (0 picked)"
    assert confirm.disabled and confirm.style is discord.ButtonStyle.secondary
    assert (confirm.label or "").split()[1] == "8"  # the e2e player reads the size here
    play_rows = {b.row for b in buttons(view) if ":act:play:" in (b.custom_id or "")}
    assert max(r for r in play_rows if r is not None) < min(m.row or 0 for m in choice)


def test_poignee_ready_confirms() -> None:
    s = _play_state(POIGNEE_HAND)
    view = decision_view(3, RULES.observe(s, 4), tuple(TRUMPS[1:9]))
    assert view is not None
    (confirm,) = [b for b in buttons(view) if (b.custom_id or "").startswith("tb:3:act:poignee")]
    assert confirm.label == "Confirm poignée (8)"
    assert not confirm.disabled and confirm.style is discord.ButtonStyle.success


def test_required_choice_keeps_its_plain_labels() -> None:
    view = discord.ui.View(timeout=None)
    tmpl = Action("discard", 1, cards=("S1", "S2", "S3", "H1", "H2", "H3", "D4"), amount=6)
    add_choice(view, 5, [tmpl], (), verb="Discard")
    assert not offers_play(view)
    assert [b.label for b in buttons(view)] == ["Pick 6 cards (0 picked)"]
    assert all((m.placeholder or "").startswith("Discard: ") for m in selects(view))


def test_optional_can_be_forced_either_way() -> None:
    tmpl = Action("poignee", 4, cards=tuple(TRUMPS[:9]), amount=8)
    view = discord.ui.View(timeout=None)
    add_choice(view, 5, [tmpl], (), verb="Poignée", optional=False)
    assert [b.label for b in buttons(view)] == ["Pick 8 cards (0 picked)"]
    view = discord.ui.View(timeout=None)
    add_choice(view, 5, [tmpl], (), verb="Poignée", optional=True)
    assert [b.label for b in buttons(view)] == ["Pick 8 to show a poignée — optional (0 picked)"]


# ---- 3. refusals say why ------------------------------------------------------------------


def _refusal(s: FrenchTarotState, card: str) -> str:
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, Action("play", 4, card=card))
    assert e.value.code == "illegal_action"
    return e.value.detail


@pytest.mark.parametrize(
    ("hand", "trick", "called", "card", "why"),
    [
        (["S2", "H4", "T6"], ((3, "S5"),), None, "H4", "you must follow ♠"),
        (["S2", "H4", "T6"], ((3, "S5"),), None, "T6", "you must follow ♠"),
        (
            ["H4", "T6", "D2"],
            ((3, "S5"),),
            None,
            "H4",
            "you can't follow the suit led (♠), so you must trump",
        ),
        (
            ["H4", "T6", "T15"],
            ((2, "S5"), (3, "T10")),
            None,
            "T6",
            "you can't follow the suit led (♠), so you must play a higher trump",
        ),
        (["H4", "T6", "S2"], ((3, "T10"),), None, "H4", "you must follow the suit led (trumps)"),
        (
            ["T6", "T15", "S2"],
            ((3, "T10"),),
            None,
            "T6",
            "you must follow the suit led (trumps) with a higher trump",
        ),
        (
            ["H2", "H7", "S3", "D4"],
            (),
            "HK",
            "H2",
            "the called suit (♥) can't be led on the first trick, except the called card",
        ),
    ],
)
def test_refusal_names_the_rule(
    hand: list[str],
    trick: tuple[tuple[int, str], ...],
    called: str | None,
    card: str,
    why: str,
) -> None:
    s = _play_state(hand, trick=trick, called=called)
    assert _refusal(s, card) == f"{card} cannot be played now: {why}"


def test_refusal_reaches_the_player_in_words() -> None:
    s = _play_state(["S2", "H4", "T6"], trick=((3, "S5"),))
    detail = _refusal(s, "H4")
    m = MatchState("french_tarot", 5, {}, dealer=0, totals=(0,) * 5, deal=s)
    err = illegal_move(IllegalAction("illegal_action", detail), m, Action("play", 4, card="H4"))
    assert err.params == {"game": "french_tarot", "reason": "cannot_play", "card": "H4"}
    view = RULES.observe(s, 4)
    assert refusal(err, view) == "You can't play 4♥ now. You must follow ♠ Spades."


def test_card_not_held_is_still_refused_as_such() -> None:
    s = _play_state(["S2", "H4", "T6"], trick=((3, "S5"),))
    assert _refusal(s, "C9") == "you do not hold C9"
