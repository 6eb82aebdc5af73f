"""Guidance at a bidding decision (issue 31) is a function of the deciding seat's observation
only: dealing the cards it cannot see otherwise gives the same guidance, word for word.

Seeded deals of every bidding game are played by the casual computers up to each bidding-type
decision (a bid, Accept or Drop, a bargaining call); there the other seats' hidden cards (and
the French Tarot dog, the Queen of Tarot stock) are shuffled among themselves, sizes kept, and
the guidance lines and button labels of the seat to act must not change. A check that the
shuffle did move cards keeps the test honest.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.policies import policy_for
from bot.engine.cards import TAROT_PACK
from bot.engine.registry import get_rules
from bot.engine.views import SeatView
from bot.i18n import using
from bot.services import guidance
from bot.services.models import SeatInfo, TableInfo
from bot.ui.games import french_tarot, la_morte, losers_game, queen_of_tarot

GAMES = {"french_tarot": 4, "losers_game": 4, "la_morte": 4, "queen_of_tarot": 3}
#: The hidden piles besides the other hands, by game (state field names).
EXTRA = {"french_tarot": ("dog",), "queen_of_tarot": ("stock",), "la_morte": ("set_aside",)}


def _table(game_id: str, players: int) -> TableInfo:
    seats = tuple(
        SeatInfo(seat=s, user_id=100 + s, name=f"p{s}", is_bot=False) for s in range(players)
    )
    return TableInfo(
        id=1,
        guild_id=1,
        channel_id=1,
        game_id=game_id,
        status="playing",
        owner_id=100,
        players=players,
        options={},
        seats=seats,
    )


def words(game_id: str, table: TableInfo, view: SeatView) -> list[str]:
    """Everything the guidance shows the seat: the lines and the decision buttons' labels."""
    with using("en"):
        if game_id == "french_tarot":
            out = [french_tarot.bid_guidance(view)]
            controls = french_tarot.decision_view(1, view)
        elif game_id == "losers_game":
            out = [losers_game.bid_guidance(view)]
            controls = losers_game.decision_view(1, view)
        elif game_id == "la_morte":
            out = [la_morte.stakes_line(table, view) or ""]
            controls = la_morte.decision_view(1, view)
        else:
            out = [queen_of_tarot.bargain_guidance(view)]
            controls = queen_of_tarot.decision_view(1, view)
    assert controls is not None
    # A restart-proof button is a DynamicItem around the discord.py Button with the label.
    out += [str(getattr(getattr(item, "item", item), "label", "")) for item in controls.children]
    return out


def reshuffled(game_id: str, state: Any, seat: int, rng: random.Random) -> Any:
    """``state`` with every card ``seat`` cannot see dealt again at random, sizes kept."""
    others = [s for s in range(len(state.hands)) if s != seat]
    piles: list[tuple[str, ...]] = [state.hands[s] for s in others]
    piles += [getattr(state, name) for name in EXTRA.get(game_id, ())]
    hidden = [c for pile in piles for c in pile]
    rng.shuffle(hidden)
    dealt: list[tuple[str, ...]] = []
    for pile in piles:
        dealt.append(tuple(hidden[: len(pile)]))
        hidden = hidden[len(pile) :]
    hands = list(state.hands)
    for s, pile in zip(others, dealt, strict=False):
        hands[s] = pile
    changes: dict[str, Any] = {"hands": tuple(hands)}
    for name, pile in zip(EXTRA.get(game_id, ()), dealt[len(others) :], strict=True):
        changes[name] = pile
    return state._replace(**changes)


def decisions(game_id: str, seed: int) -> list[tuple[Any, int]]:
    """(state, seat) at each bidding-type decision of one seeded deal."""
    rules = get_rules(game_id)
    players = GAMES[game_id]
    rng = random.Random(seed)
    deck = list(rules.pack(players))
    rng.shuffle(deck)
    state = rules.new_deal(players, rules.normalize_options({}), deck, seed % players)
    out: list[tuple[Any, int]] = []
    choose = policy_for(game_id)
    for _ in range(40):
        seat = rules.to_act(state)
        if seat is None:
            break
        view = rules.observe(state, seat)
        if guidance.bids_now(view):  # La Morte's also in trick 1, after an Accept
            out.append((state, seat))
        state, _events = rules.apply(state, choose(view, rng))
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_guidance_is_a_function_of_the_seats_observation(game_id: str) -> None:
    rules = get_rules(game_id)
    table = _table(game_id, GAMES[game_id])
    checked = moved = 0
    for seed in range(12):
        for state, seat in decisions(game_id, seed):
            view = rules.observe(state, seat)
            seen = words(game_id, table, view)
            for k in range(3):
                other = reshuffled(game_id, state, seat, random.Random(seed * 10 + k))
                moved += other.hands != state.hands
                again = rules.observe(other, seat)
                assert again.hand == view.hand and again.legal == view.legal
                assert words(game_id, table, again) == seen
            checked += 1
    assert checked >= 12 and moved >= checked  # decisions were met, and hidden cards moved


def test_losers_quick_bids_surround_the_estimate() -> None:
    """Every legal amount within ±3 of the estimate is a quick bid, and nothing else is."""
    rules = get_rules("losers_game")
    seen = 0
    for seed in range(20):
        for state, seat in decisions("losers_game", seed):
            view = rules.observe(state, seat)
            g = guidance.losers_bid(view)
            legal = {a.amount for a in view.legal}
            want = {x for x in range(g.estimate - 3, g.estimate + 4) if x in legal}
            assert set(g.quick) == want and g.estimate in legal
            assert (g.low, g.high) == (0, state.b_max)
            seen += 1
    assert seen >= 20


def test_french_tarot_hand_counts() -> None:
    """The counts of the bid line, on a hand built for it."""
    view = SeatView(
        seat=0,
        hand=("T21", "T1", "EX", "T5", "T9", "SK", "HK", "HQ", "S2"),
        legal=(),
        public=get_rules("french_tarot").observe_public(
            get_rules("french_tarot").new_deal(4, {}, list(TAROT_PACK), 0)
        ),
    )
    g = guidance.french_tarot_hand(view)
    assert (g.bouts, g.trumps, g.kings) == (3, 4, 2)
    # 3 bouts and 2 Kings at 4.5, a Queen 3.5, four ½-point cards: 27.5 points.
    assert g.points_hp == 55 and g.target_hp == 72  # 36 with 3 bouts
