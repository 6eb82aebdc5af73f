"""Refusals in words (issue 19): the services refuse with codes and data, ``bot.ui.text.refusals``
words every code in English, French and Italian; the English stays what players knew.

Every code the services raise is known here (read from their source), every code renders in
each language with its params and no placeholder left, and a refused card ends with the line
the hand shows ("You must follow ♠ Spades.").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.errors import IllegalAction
from bot.engine.games.french_tarot import RULES, FrenchTarotState, Phase
from bot.engine.match import MatchState
from bot.i18n import LANGUAGES, using
from bot.services.errors import IllegalMove, InvalidRequest, ServiceError, WrongState
from bot.services.step import illegal_move
from bot.ui.text.refusals import REASONS, REFUSALS, known, refusal

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{\w*\}")

#: Params of every code, as the services give them.
SAMPLES: dict[str, dict[str, Any]] = {
    "table_gone": {},
    "not_started": {},
    "game_over": {},
    "already_started": {},
    "table_closed": {},
    "already_ended": {},
    "not_seated": {},
    "changed_while_acting": {},
    "changed_meanwhile": {},
    "table_busy": {},
    "database_busy": {},
    "expert_busy": {},
    "expert_late": {},
    "out_of_date": {},
    "earlier_deal": {"game": "la_morte"},
    "bad_language": {},
    "channel_not_allowed": {"channels": [111, 222]},
    "computers_off": {},
    "bad_clock": {"clock": "warp", "clocks": ["off", "relaxed", "normal", "fast"]},
    "unknown_game": {"game": "chess", "games": ["la_morte", "french_tarot"]},
    "bad_level": {"level": "wizard", "levels": ["casual", "expert"]},
    "no_expert": {"game": "queen_of_tarot"},
    "bad_players": {"game": "la_morte", "players": 6, "least": 3, "most": 5},
    "unknown_option": {"option": "colour"},
    "bad_option": {"option": "target", "value": 0, "least": 1, "most": 500},
    "too_many_computers": {"players": 4, "most": 3},
    "channel_busy": {"table": 7, "game": "la_morte", "status": "lobby"},
    "not_seated_in_channel": {},
    "already_seated": {},
    "table_full": {},
    "leave_started": {},
    "host_only_start": {"host": "Ana"},
    "table_not_full": {"players": 4, "seated": 3},
    "rematch_unfinished": {},
    "rematch_players_only": {},
    "rematch_daily": {"game": "la_morte"},
    "rematch_replay": {},
    "replay_no_such_decision": {},
    "replay_dm_busy": {},
    "replay_replaced": {},
    "no_human": {},
    "not_here": {},
    "too_many_lobbies": {"most": 3},
    "too_many_seats": {"most": 8},
    "not_away": {},
    "member_not_playing": {},
    "replace_not_away": {"minutes": 5},
    "replace_self": {},
    "other_server": {"table": 7},
    "host_or_admin": {},
    "hints_practice_only": {"table": 7},
    "hint_not_your_turn": {"waiting": "Ben"},
    "review_players_only": {"table": 7, "game": "la_morte"},
    "no_expert_review": {"game": "la_morte"},
    "deal_not_over": {"game": "la_morte"},
    "bad_delay": {"most": 3600},
    "bad_metric": {"metric": "elo", "metrics": ["rating", "wins", "win_rate", "games", "points"]},
    "bad_scope": {"scope": "planet", "scopes": ["server", "global"]},
    "bad_period": {"period": "7d", "periods": ["all", "30d"]},
    "board_needs_server": {},
    "no_such_table": {"table": 7},
    "never_started": {"table": 7},
    "still_playing": {"table": 7},
    "still_seated": {"tables": [7, 9]},
    "daily_unknown_game": {"game": "chess", "games": ["french_tarot", "la_morte"]},
    "daily_played": {"game": "french_tarot", "status": "finished"},
    "daily_played_forgotten": {"game": "french_tarot"},
    "daily_in_progress": {"game": "la_morte", "day": "2026-11-26"},
    "daily_not_playing": {"game": "losers_game"},
    "daily_not_yours": {},
    "daily_reveal_unfinished": {"game": "queen_of_tarot", "status": None},
    "league_unknown_game": {"game": "chess", "games": ["french_tarot", "la_morte"]},
    "league_not_joined": {},
    "league_closed": {
        "starts": 1_764_352_800.0,
        "ends": 1_764_374_400.0,
        "now": 1.0,
        "next": 1_764_957_600.0,
    },
    "league_entered": {"game": "french_tarot"},
    "league_dm_busy": {},
    "league_not_playing": {"game": "la_morte"},
    "league_compare_early": {"ends": 1_764_374_400.0},
    "league_compare_playing": {"game": "losers_game"},
    "league_bad_deal": {"most": 8},
    "league_sees_threads": {},
    "league_in_lobby": {"game": "french_tarot"},
    "league_table_channel": {"channel": 42},
    "league_table_stale": {},
    "league_seat_entered": {"name": "Ana", "game": "la_morte"},
    "league_table_taken": {},
    "league_table_starting": {},
    "league_computers_at_start": {},
    "league_start_button": {},
    "league_no_end": {},
    "not_your_turn": {"game": "la_morte", "waiting": "Ben"},
    "already_played": {},
    "deal_over": {"game": "losers_game"},
    "bad_action": {"game": "la_morte", "reason": "unknown_card", "card": "ZZ9"},
    "illegal_action": {"game": "french_tarot", "reason": "cannot_play", "card": "H4"},
    # tournaments (issue 34)
    "tournament_rounds": {"most": 12},
    "tournament_deals": {"game": "early_french_tarot", "most": 24},
    "tournament_past_start": {},
    "tournament_channel_busy": {},
    "tournament_started": {},
    "tournament_registered": {},
    "tournament_not_registered": {},
    "tournament_host_only": {},
    "tournament_too_few": {},
    "tournament_over": {},
    "tournament_gone": {},
    "tournament_none": {},
    "tournament_which": {},
}

#: Params of every reason of a refused decision (``illegal_action``; ``bad_action`` below).
REASON_SAMPLES: dict[str, dict[str, Any]] = {
    "kind_not_now": {"game": "la_morte", "kind": "play", "allowed": ["bid", "accept", "drop"]},
    "not_held": {"game": "french_tarot", "card": "SC"},
    "cannot_play": {"game": "french_tarot", "card": "H4"},
    "cannot_call": {"game": "french_tarot", "card": "HK"},
    "bid_too_low": {"game": "french_tarot", "contract": "garde"},
    "bad_amount": {"game": "la_morte", "kind": "bid", "amount": 12, "least": 1, "most": 9},
    "bad_suit": {"game": "losers_game", "suit": "N"},
    "cannot_declare": {"game": "queen_of_tarot"},
    "twice": {"game": "french_tarot", "kind": "discard"},
    "wrong_count": {"game": "french_tarot", "kind": "discard", "sizes": [6]},
    "cannot_discard": {"game": "french_tarot", "kind": "discard", "card": "DK"},
    "cannot_show": {"game": "french_tarot", "kind": "poignee", "card": "S2"},
    "poignee_excuse": {"game": "french_tarot"},
    "too_few_trumps": {"game": "french_tarot", "n": 2},
    "too_many_trumps": {"game": "french_tarot"},
    "picked_enough": {"game": "french_tarot", "kind": "discard", "n": 6},
    "other": {"game": "la_morte"},
}
MALFORMED = {
    "unknown_card": {"card": "ZZ9"},
    "unknown_bonus": {"bonus": "luck"},
    "bonus_twice": {},
    "other": {},
}
ERRORS = {
    "ServiceError",
    "NotFound",
    "NotSeated",
    "WrongState",
    "Forbidden",
    "IllegalMove",
    "InvalidRequest",
    "Conflict",
}


def _every_sample() -> list[tuple[str, dict[str, Any]]]:
    out = list(SAMPLES.items())
    out += [("illegal_action", {**p, "reason": r}) for r, p in REASON_SAMPLES.items()]
    out += [
        ("bad_action", {"game": "queen_of_tarot", **p, "reason": r}) for r, p in MALFORMED.items()
    ]
    return out


def words(code: str, language: str = "en", view: Any = None, **params: Any) -> str:
    with using(language):
        return refusal(ServiceError(code, **params), view)


# ---- every code, in every language -------------------------------------------------------


def _raised_codes() -> tuple[set[str], set[str]]:
    """Codes the services raise (``SomeError("code", …)``) and the reasons they give."""
    codes: set[str] = set()
    reasons: set[str] = set()
    for path in (ROOT / "bot" / "services").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else ""
                first = node.args[0] if node.args else None
                if name in ERRORS and isinstance(first, ast.Constant):
                    codes.add(str(first.value))
                for kw in node.keywords:
                    if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                        reasons.add(str(kw.value.value))
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    reason = isinstance(key, ast.Constant) and key.value == "reason"
                    if reason and isinstance(value, ast.Constant):
                        reasons.add(str(value.value))
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "reason" for t in node.targets
            ):
                for inner in ast.walk(node.value):
                    if isinstance(inner, ast.Dict):
                        reasons.update(
                            str(v.value) for v in inner.values if isinstance(v, ast.Constant)
                        )
    return codes, reasons


def test_every_code_the_services_raise_has_words() -> None:
    codes, reasons = _raised_codes()
    assert len(codes) > 40 and len(reasons) > 10  # the scan finds them
    assert codes <= set(REFUSALS), sorted(codes - set(REFUSALS))
    assert reasons <= set(REASONS) | set(MALFORMED), sorted(reasons - set(REASONS))


def test_the_samples_cover_every_code_and_reason() -> None:
    assert set(SAMPLES) == set(REFUSALS)
    assert set(REASON_SAMPLES) == set(REASONS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_renders_with_its_params(language: str) -> None:
    for code, params in _every_sample():
        text = words(code, language, **params)
        assert text and not PLACEHOLDER.search(text), (code, params, text)
        assert text[-1] in ".!?", (code, text)
        if language != "en":
            assert text != words(code, "en", **params), f"{code} {params}: not translated"


def test_params_reach_the_words() -> None:
    assert "<#111>, <#222>" in words("channel_not_allowed", channels=[111, 222])
    assert "#7" in words("other_server", table=7)
    assert "#7, #9" in words("still_seated", tables=[7, 9])
    assert "casual, expert" in words("bad_level", levels=["casual", "expert"])
    assert "La Morte, French Tarot" in words(
        "unknown_game", game="x", games=["la_morte", "french_tarot"]
    )
    assert "Ben" in words("hint_not_your_turn", language="fr", waiting="Ben")
    assert "n°\u00a07" in words("never_started", language="fr", table=7)
    assert "n. 7" in words("never_started", language="it", table=7)


# ---- the English players know ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "params", "english"),
    [
        ("not_your_turn", {"waiting": "Ben"}, "It's not your turn — waiting for Ben."),
        ("not_your_turn", {}, "It's not your turn."),
        ("already_played", {}, "You already played that."),
        ("game_over", {}, "This game is over."),
        ("table_full", {}, "This table is full."),
        ("already_seated", {}, "You are already seated at this table."),
        ("not_seated", {}, "You are not seated at this table."),
        ("table_gone", {}, "That table no longer exists."),
        ("host_only_start", {"host": "Ana"}, "Only the table's host (Ana) can start the game."),
        (
            "host_or_admin",
            {},
            "Only the table's host or someone with the Manage Server permission can do that.",
        ),
        (
            "channel_busy",
            {"table": 7, "game": "la_morte", "status": "lobby"},
            "There is already a La Morte table in this channel (table #7, waiting for players). "
            "Join it, or wait until it ends, or use another channel.",
        ),
        (
            "channel_busy",
            {"table": 7, "game": "french_tarot", "status": "playing"},
            "There is already a French Tarot table in this channel (table #7, in play). "
            "Wait until it ends, or use another channel.",
        ),
        (
            "table_not_full",
            {"players": 4, "seated": 3},
            "The table needs 4 players and has 3. Wait for someone to join, or add a computer "
            "player.",
        ),
        ("table_busy", {}, "The table is busy right now; please try again."),
        (
            "hints_practice_only",
            {"table": 7},
            "Hints are only for practice tables, opened with `hints:True` — those are never rated. "
            "Table #7 is a rated table, so you're on your own here.",
        ),
        (
            "too_many_computers",
            {"players": 4, "most": 3},
            "A 4-player table has room for at most 3 computer players besides you.",
        ),
        (
            "bad_option",
            {"option": "target", "value": 0, "least": 1},
            "Option 'target' must be at least 1.",
        ),
        ("unknown_option", {"option": "colour"}, "Unknown option 'colour'."),
        (
            "bad_players",
            {"game": "la_morte", "least": 3, "most": 5},
            "La Morte is for 3 to 5 players.",
        ),
        ("deal_over", {"game": "la_morte"}, "This deal is already over."),
        ("deal_over", {"game": "losers_game"}, "This hand is already over."),
    ],
)
def test_the_english_stays(code: str, params: dict[str, Any], english: str) -> None:
    assert words(code, **params) == english


@pytest.mark.parametrize(
    ("params", "english"),
    [
        (
            {
                "game": "la_morte",
                "reason": "kind_not_now",
                "kind": "play",
                "allowed": ["bid", "drop"],
            },
            "You can't play a card now. You may bid or drop.",
        ),
        (
            {"game": "french_tarot", "reason": "kind_not_now", "kind": "bid", "allowed": ["play"]},
            "You can't bid now. You may play a card.",
        ),
        ({"game": "french_tarot", "reason": "not_held", "card": "SC"}, "You don't hold Kn♠."),
        (
            {"game": "french_tarot", "reason": "bid_too_low", "contract": "garde"},
            "You can't bid Garde now: bid higher than the last bid, or pass.",
        ),
        (
            {"game": "french_tarot", "reason": "cannot_discard", "kind": "discard", "card": "DK"},
            "You can't discard K♦: no Kings, no bouts.",
        ),
        (
            {
                "game": "losers_game",
                "reason": "bad_amount",
                "kind": "bid",
                "amount": 9,
                "least": 0,
                "most": 4,
            },
            "You can't bid 9 now: bid from 0 to 4.",
        ),
        (
            {"game": "french_tarot", "reason": "wrong_count", "kind": "discard", "sizes": [6]},
            "Discard exactly 6 different cards.",
        ),
        (
            {"game": "la_morte", "reason": "cannot_play", "card": "T13"},
            "You can't play ☠ La Morte now.",
        ),
    ],
)
def test_refused_decisions_in_english(params: dict[str, Any], english: str) -> None:
    assert words("illegal_action", **params) == english


def test_a_sentence_written_by_the_discord_layer_is_shown_as_it_is() -> None:
    sentence = "Il n’y a pas de table de La Morte dans ce salon."
    assert not known(sentence)
    with using("it"):
        assert refusal(ServiceError(sentence)) == sentence
    assert refusal(InvalidRequest("Pick one of the offered choices.")) == (
        "Pick one of the offered choices."
    )


def test_errors_hold_codes_and_data() -> None:
    err = WrongState("channel_busy", table=3, game="la_morte", status="lobby")
    assert str(err) == err.code == "channel_busy"
    assert err.params == {"table": 3, "game": "la_morte", "status": "lobby"}
    assert not hasattr(err, "message")


# ---- a refused card says why, as the hand does ------------------------------------------------


def _play_state(hand: list[str], trick: tuple[tuple[int, str], ...]) -> FrenchTarotState:
    """Five players, seat 4 to play holding ``hand`` (French Tarot)."""
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
        called=None,
        leader=trick[0][0],
        trick=trick,
        tricks_won=(0,) * 5,
    )


def _refused(
    hand: list[str], trick: tuple[tuple[int, str], ...], card: str
) -> tuple[IllegalMove, Any]:
    s = _play_state(hand, trick)
    m = MatchState("french_tarot", 5, {}, dealer=0, totals=(0,) * 5, deal=s)
    action = Action("play", 4, card=card)
    with pytest.raises(IllegalAction) as info:
        RULES.apply(s, action)
    return illegal_move(info.value, m, action), RULES.observe(s, 4)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "You can't play 4♥ now. You must follow ♠ Spades."),
        ("fr", "Vous ne pouvez pas jouer 4♥ maintenant. Vous devez fournir à ♠ Pique."),
        ("it", "Non puoi giocare 4♥ adesso. Devi rispondere a ♠ Picche."),
    ],
)
def test_a_refused_card_says_which_rule_forbids_it(language: str, expected: str) -> None:
    err, view = _refused(["S2", "H4", "T6"], ((3, "S5"),), "H4")
    assert err.code == "illegal_action"
    assert err.params == {"game": "french_tarot", "reason": "cannot_play", "card": "H4"}
    with using(language):
        assert refusal(err, view) == expected
        assert refusal(err) == expected.rsplit(". ", 1)[0] + "."  # without a view: no why


def test_the_structure_gives_the_reason_not_the_engines_english() -> None:
    err, _view = _refused(["S2", "H4", "T6"], ((3, "S5"),), "C9")
    assert err.params == {"game": "french_tarot", "reason": "not_held", "card": "C9"}
    s = _play_state(["S2", "H4", "T6"], ((3, "S5"),))
    m = MatchState("french_tarot", 5, {}, dealer=0, totals=(0,) * 5, deal=s)
    bid = Action("bid", 4, contract="garde")
    with pytest.raises(IllegalAction) as info:
        RULES.apply(s, bid)
    err = illegal_move(info.value, m, bid)
    assert err.params == {
        "game": "french_tarot",
        "reason": "kind_not_now",
        "kind": "bid",
        "allowed": ["play", *(["poignee"] if "poignee" in err.params["allowed"] else [])],
    }
    for params in (err.params, {"game": "french_tarot"}):
        for language in LANGUAGES:
            text = words("illegal_action", language, **params)
            assert "cannot" not in text and "not possible" not in text  # no engine detail
