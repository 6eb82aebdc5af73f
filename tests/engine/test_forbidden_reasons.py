"""Why a held card is forbidden: ``Rules.play_restriction`` and ``info["play_restriction"]``.

Seeded random deals of every game: whenever the seat to play holds a card that is not legal,
the engine names a reason consistent with the legal cards; when every held card is legal (or
it is not that seat's card play) there is none. Then a few hand-built positions per game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.cards import TAROT_PACK
from bot.engine.deck import shuffle
from bot.engine.games import early_french_tarot as eft
from bot.engine.games import french_tarot_cards as ftc
from bot.engine.games import queen_of_tarot_cards as qtc
from bot.engine.games.early_french_tarot import EarlyFrenchTarotState
from bot.engine.games.french_tarot_state import FrenchTarotState
from bot.engine.games.french_tarot_state import Phase as FTPhase
from bot.engine.games.la_morte import LA_MORTE, RANK, SUIT, LaMorteState, Status
from bot.engine.games.la_morte import Phase as LMPhase
from bot.engine.games.losers_game import LosersGameState
from bot.engine.games.losers_game import Phase as LGPhase
from bot.engine.games.queen_of_tarot_state import Phase as QTPhase
from bot.engine.games.queen_of_tarot_state import QueenOfTarotState
from bot.engine.registry import get_rules, implemented
from bot.engine.restriction import CODES, PlayRestriction
from bot.engine.rules import Rules

DEALS = 25  # per game and player count


def _suit_la_morte(card: str) -> str:
    return "LM" if card == LA_MORTE else SUIT[card]


#: Per game: the suit a card follows as (S/H/D/C, T for tarot trumps), and the cards always
#: allowed besides the suit (the Excuse/Fool; La Morte on a trump lead).
SUIT_OF: dict[str, Callable[[str], str]] = {
    "la_morte": _suit_la_morte,
    "early_french_tarot": eft.suit_of,
    "french_tarot": ftc.suit_of,
    "losers_game": lambda c: c[0],
    "queen_of_tarot": lambda c: qtc.SUIT[c],
}


def _counts(game_id: str) -> list[int]:
    rules = get_rules(game_id)
    return list(range(rules.min_players, rules.max_players + 1))


CASES = [(g, n) for g in implemented() for n in _counts(g)]


def _trick(state: Any) -> tuple[tuple[int, str], ...]:
    return tuple(state.trick)


def _played_cards(rules: Rules, state: Any, seat: int) -> list[str]:
    return [a.card for a in rules.legal_actions(state) if a.type == "play" and a.card is not None]


def check_consistent(game_id: str, state: Any, seat: int, r: PlayRestriction) -> None:
    """The reason matches the legal cards of ``seat`` (the seat to play)."""
    rules = get_rules(game_id)
    suit = SUIT_OF[game_id]
    hand = list(state.hands[seat])
    legal = set(_played_cards(rules, state, seat))
    forbidden = [c for c in hand if c not in legal]
    trick = _trick(state)
    assert forbidden and r.code in CODES, r
    if r.code == "follow":
        led = r.data["suit"]
        extras = {"EX"}
        if game_id == "la_morte":
            extras = {LA_MORTE} if led == state.trump else set()
        assert trick, "follow needs a trick"
        assert any(suit(c) == led or (c == LA_MORTE and c in extras) for c in hand)
        assert legal == {c for c in hand if suit(c) == led or c in extras}, (legal, hand, led)
    elif r.code == "trump":
        led = r.data["led"]
        assert trick and led != "T" and not any(suit(c) == led for c in hand)
        trumps = {c for c in hand if suit(c) == "T"}
        assert trumps and legal == trumps | ({"EX"} & set(hand))
    elif r.code == "overtrump":
        assert game_id == "french_tarot"
        led = r.data["led"]
        high = max(ftc.rank(c) for _, c in trick if ftc.is_trump(c))
        trumps = [c for c in hand if ftc.is_trump(c)]
        assert led == "T" or not any(suit(c) == led for c in hand)
        assert {c for c in legal if c != "EX"} == {c for c in trumps if ftc.rank(c) > high}
        assert any(ftc.rank(c) < high for c in trumps)
    elif r.code == "called_suit_first_trick":
        assert game_id == "french_tarot" and state.players == 5
        assert not trick and not state.tricks and state.called is not None
        assert r.data["suit"] == ftc.suit_of(state.called)
        assert all(suit(c) == r.data["suit"] and c != state.called for c in forbidden)
    elif r.code == "lowest_lead":
        assert game_id == "la_morte" and not trick and state.lowest_lead
        low = min(RANK[c] for c in hand if c != LA_MORTE)
        assert legal == {c for c in hand if c != LA_MORTE and RANK[c] == low}
    else:
        assert r.code == "morte_lead"
        assert game_id == "la_morte" and not trick
        assert forbidden == [LA_MORTE] and len(hand) > 1


def check_state(game_id: str, state: Any) -> tuple[int, int]:
    """Check every seat's restriction in ``state``; returns (restricted, free) card plays."""
    rules = get_rules(game_id)
    turn = rules.to_act(state)
    restricted = free = 0
    for seat in range(len(state.hands)):
        r = rules.play_restriction(state, seat)
        info = rules.observe(state, seat).info
        assert info.get("play_restriction") == (None if r is None else r.to_json())
        plays = _played_cards(rules, state, seat) if seat == turn else []
        if not plays:
            assert r is None, (seat, r)
            continue
        if all(c in plays for c in state.hands[seat]):
            assert r is None, (seat, r, plays)
            free += 1
            continue
        assert r is not None, (seat, state.hands[seat], plays)
        check_consistent(game_id, state, seat, r)
        restricted += 1
    return restricted, free


def _choose(game_id: str, rules: Rules, state: Any, rng: random.Random) -> Any:
    legal = rules.legal_actions(state)
    kinds = {a.type for a in legal}
    if game_id == "queen_of_tarot" and "continue" in kinds and rng.random() < 0.8:
        return next(a for a in legal if a.type == "continue")  # reach the card play
    action = legal[rng.randrange(len(legal))]
    if action.type in rules.multi_card_types:
        seat = rules.to_act(state)
        assert seat is not None
        action = rules.random_choice(rules.observe(state, seat), action, rng)
    return action


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_deals_explain_every_forbidden_card(game_id: str, players: int) -> None:
    rules = get_rules(game_id)
    rng = random.Random(f"forbidden/{game_id}/{players}")
    options = rules.normalize_options(None)
    restricted = free = 0
    codes: set[str] = set()
    for deal in range(DEALS):
        deck = shuffle(rules.pack(players), rng.randrange(2**63))
        state = rules.new_deal(players, options, deck, deal % players)
        while rules.to_act(state) is not None:
            r, f = check_state(game_id, state)
            restricted, free = restricted + r, free + f
            turn = rules.to_act(state)
            assert turn is not None
            found = rules.play_restriction(state, turn)
            if found is not None:
                codes.add(found.code)
            state, _ = rules.apply(state, _choose(game_id, rules, state, rng))
        check_state(game_id, state)  # over: no restriction for anyone
    assert restricted > 0 and free > 0
    assert "follow" in codes


def test_every_code_is_met_in_random_play() -> None:
    seen: set[str] = set()
    for game_id, players in CASES:
        rules = get_rules(game_id)
        rng = random.Random(f"codes/{game_id}")
        for deal in range(DEALS):
            deck = shuffle(rules.pack(players), rng.randrange(2**63))
            state = rules.new_deal(players, rules.normalize_options(None), deck, deal % players)
            while (turn := rules.to_act(state)) is not None:
                r = rules.play_restriction(state, turn)
                if r is not None:
                    seen.add(r.code)
                state, _ = rules.apply(state, _choose(game_id, rules, state, rng))
    assert seen == CODES


# ---- hand-built positions -----------------------------------------------------------------


def _la_morte(hand: list[str], trick: tuple[tuple[int, str], ...], **kw: Any) -> LaMorteState:
    others = [["S7"], ["S8"], ["S9"]]
    return LaMorteState(
        players=4,
        dealer=3,
        hands=(tuple(hand), *(tuple(h) for h in others)),
        talon="HK",
        set_aside=(),
        trump="H",
        phase=LMPhase.PLAY,
        statuses=(Status.DEFENDER, Status.MAKER, Status.DROPPER, Status.DROPPER),
        turn=0,
        contract=2,
        maker=1,
        trick=trick,
        tricks_won=(0, 0, 0, 0),
        **kw,
    )


def test_la_morte_positions() -> None:
    rules = get_rules("la_morte")
    s = _la_morte(["S1", "SK", "D7", LA_MORTE], ((3, "S9"),))
    assert rules.play_restriction(s, 0) == ("follow", {"suit": "S"})
    assert rules.observe(s, 0).info["play_restriction"] == {"code": "follow", "suit": "S"}
    assert rules.play_restriction(s, 1) is None  # not that seat's turn
    # A trump lead: La Morte follows as a trump (D-10).
    s = _la_morte(["H7", "D7", LA_MORTE], ((3, "H9"),))
    assert rules.play_restriction(s, 0) == ("follow", {"suit": "H"})
    assert set(rules.legal_cards(s)) == {"H7", LA_MORTE}
    # Void in the suit led: anything goes.
    s = _la_morte(["H7", "D7", LA_MORTE], ((3, "S9"),))
    assert rules.play_restriction(s, 0) is None
    assert "play_restriction" not in rules.observe(s, 0).info
    # Leading: La Morte only as the last card; after an Accept, the lowest rank only.
    s = _la_morte(["S1", "D7", LA_MORTE], ())
    assert rules.play_restriction(s, 0) == ("morte_lead", {})
    s = _la_morte(["S1", "D7", "C7", LA_MORTE], (), lowest_lead=True)
    assert rules.play_restriction(s, 0) == ("lowest_lead", {})
    s = _la_morte(["D7", "C7", LA_MORTE], (), lowest_lead=True)
    assert rules.play_restriction(s, 0) == ("morte_lead", {})
    s = _la_morte([LA_MORTE], ())
    assert rules.play_restriction(s, 0) is None  # Fuori dal Tempo: it must be led
    # The undecided seat first accepts or drops: no card play yet.
    s = _la_morte(["S1", "D7"], ((3, "S9"),))._replace(
        statuses=(Status.UNDECIDED, Status.MAKER, Status.DROPPER, Status.DROPPER)
    )
    assert rules.play_restriction(s, 0) is None


def _eft(hand: list[str], trick: tuple[tuple[int, str], ...]) -> EarlyFrenchTarotState:
    return EarlyFrenchTarotState(
        players=3,
        dealer=2,
        every_card_scores=False,
        hands=(tuple(hand), ("S2",), ("S3",)),
        set_aside=(),
        turn=0,
        trick=trick,
        piles=((), (), ()),
    )


def test_early_french_tarot_positions() -> None:
    rules = get_rules("early_french_tarot")
    assert rules.play_restriction(_eft(["H2", "S5", "EX"], ((2, "H9"),)), 0) == (
        "follow",
        {"suit": "H"},
    )
    assert rules.play_restriction(_eft(["T2", "S5", "EX"], ((2, "H9"),)), 0) == (
        "trump",
        {"led": "H"},
    )
    # After a Fool lead the next card sets the suit (D-6).
    assert rules.play_restriction(_eft(["T2", "S5"], ((1, "EX"), (2, "T9"))), 0) == (
        "follow",
        {"suit": "T"},
    )
    assert rules.play_restriction(_eft(["D2", "S5", "EX"], ((2, "H9"),)), 0) is None
    assert rules.play_restriction(_eft(["D2", "S5"], ()), 0) is None  # a free lead


def _ft(hand: list[str], trick: tuple[tuple[int, str], ...], players: int = 4) -> FrenchTarotState:
    others = [c for c in TAROT_PACK if c not in hand and c not in {c for _, c in trick}]
    hands = tuple(
        tuple(hand) if s == 0 else tuple(others[s * 3 : s * 3 + 3]) for s in range(players)
    )
    return FrenchTarotState(
        players=players,
        dealer=1,
        chelem_option=False,
        phase=FTPhase.PLAY,
        hands=hands,
        dog=(),
        turn=0,
        bids=("pass",) * players,
        taker=1,
        contract="garde",
        called="HK" if players == 5 else None,
        leader=1,
        trick=trick,
        tricks=(((0, "S1"),),),
        tricks_won=(0,) * players,
    )


def test_french_tarot_positions() -> None:
    rules = get_rules("french_tarot")
    follow = _ft(["H2", "S5", "T3", "EX"], ((1, "H9"),))
    assert rules.play_restriction(follow, 0) == ("follow", {"suit": "H"})
    # Void: trump, and above the best trump played when able (D-6).
    assert rules.play_restriction(_ft(["S5", "T3", "T12"], ((1, "H9"),)), 0) == (
        "trump",
        {"led": "H"},
    )
    over = _ft(["S5", "T3", "T12"], ((1, "H9"), (2, "T8")))
    assert rules.play_restriction(over, 0) == ("overtrump", {"led": "H"})
    assert set(rules.legal_cards(over)) == {"T12"}
    assert rules.play_restriction(_ft(["S5", "T3", "T4"], ((1, "H9"), (2, "T8"))), 0) == (
        "trump",
        {"led": "H"},
    )
    assert rules.play_restriction(_ft(["S5", "T3", "T12"], ((1, "T8"),)), 0) == (
        "overtrump",
        {"led": "T"},
    )
    assert rules.play_restriction(_ft(["S5", "T12", "EX"], ((1, "T8"),)), 0) == (
        "follow",
        {"suit": "T"},
    )
    assert rules.play_restriction(_ft(["S5", "D2"], ((1, "T8"),)), 0) is None
    # Five players: the called suit may not be led on the first trick (D-14, C-5).
    first = _ft(["H2", "H7", "S3", "T6"], (), players=5)._replace(tricks=())
    assert rules.play_restriction(first, 0) == ("called_suit_first_trick", {"suit": "H"})
    assert rules.observe(first, 0).info["play_restriction"] == {
        "code": "called_suit_first_trick",
        "suit": "H",
    }
    only_hearts = _ft(["H2", "H7"], (), players=5)._replace(tricks=())
    assert rules.play_restriction(only_hearts, 0) is None
    assert rules.play_restriction(first._replace(tricks=(((0, "S1"),),)), 0) is None


def test_losers_game_positions() -> None:
    rules = get_rules("losers_game")
    s = LosersGameState(
        players=3,
        dealer=2,
        totals=(0, 0, 0),
        caller=0,
        hands=(("H2", "S5", "DA"), ("S2",), ("S3",)),
        excess=(),
        phase=LGPhase.PLAY,
        turn=0,
        trump="D",
        bids=(0, 0, 0),
        trick=((2, "HK"),),
        tricks_won=(0, 0, 0),
    )
    assert rules.play_restriction(s, 0) == ("follow", {"suit": "H"})
    assert rules.observe(s, 0).info == {"play_restriction": {"code": "follow", "suit": "H"}}
    # No duty to trump (§4): void in the suit led means anything.
    assert rules.play_restriction(s._replace(trick=((2, "CK"),)), 0) is None
    assert rules.play_restriction(s._replace(trick=()), 0) is None
    assert rules.observe(s._replace(trick=()), 0).info == {}


def _qot(hand: list[str], trick: tuple[tuple[int, str], ...]) -> QueenOfTarotState:
    return QueenOfTarotState(
        dealer=2,
        max_bargain=43,
        phase=QTPhase.PLAY,
        turn=1,
        hands=(("S2",), tuple(hand), ("S3",)),
        stock=(),
        rounds=5,
        session=3,
        trick=trick,
    )


def test_queen_of_tarot_positions() -> None:
    rules = get_rules("queen_of_tarot")
    assert rules.play_restriction(_qot(["H2", "S5", "EX"], ((2, "H9"),)), 1) == (
        "follow",
        {"suit": "H"},
    )
    assert rules.play_restriction(_qot(["T2", "S5", "EX"], ((2, "H9"),)), 1) == (
        "trump",
        {"led": "H"},
    )
    assert rules.play_restriction(_qot(["T2", "S5"], ((2, "T9"),)), 1) == (
        "follow",
        {"suit": "T"},
    )
    assert rules.play_restriction(_qot(["D2", "S5"], ((2, "T9"),)), 1) is None
    assert rules.play_restriction(_qot(["D2", "S5"], ((2, "T9"),)), 0) is None
    bargaining = _qot(["D2", "S5"], ((2, "H9"),))._replace(phase=QTPhase.BARGAIN)
    assert rules.play_restriction(bargaining, 1) is None
