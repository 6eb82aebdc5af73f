"""Computer levels, hints and deal reviews in the services (issue 18): a table's level and hints
are stored and rated as they should be; the review replays exactly the player's own decisions;
hints and reviews are refused where they must be; the expert thinks in the worker processes."""

from __future__ import annotations

import random

import pytest

from bot.db.database import Database
from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules
from bot.services import analysis, coach, ratings, step
from bot.services.errors import Busy, Forbidden, InvalidRequest, NotSeated, WrongState
from bot.services.models import Outcome
from bot.services.stats import StatsService
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, GUILD, passive_payload, user_to_act

GAME = "la_morte"
#: The cheapest game the expert plays: two-player Early French Tarot to 10.
EXPERT_GAME, EXPERT_OPTIONS = "early_french_tarot", {"target": 10}


@pytest.fixture(autouse=True)
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(step, "EXPERT_EFFORT", 0.02)


async def _play_out(svc: TableService, out: Outcome, max_steps: int = 300) -> Outcome:
    """The humans drop and play their first card until the game ends."""
    for _ in range(max_steps):
        if out.finished:
            return out
        assert out.public is not None and out.public.to_act is not None
        view = out.seat_views[out.public.to_act]
        out = await svc.act(out.table.id, user_to_act(out), passive_payload(view))
    raise AssertionError("the game did not finish")


def test_each_level_is_its_own_rated_computer() -> None:
    assert ratings.player_id(None, True) == ratings.COMPUTER_LEVELS["casual"] == -1
    assert ratings.player_id(None, True, "expert") == ratings.COMPUTER_LEVELS["expert"] == -2
    assert ratings.player_id(42, False, "expert") == 42  # a human stays themself
    assert set(step.LEVELS) <= set(ratings.COMPUTER_LEVELS)


def test_a_casual_computer_plays_the_rule_policy() -> None:
    from bot.ai import choose_action

    rules = get_rules(GAME)
    m = match.start_deal(match.new_match(GAME, 3, {}, 0), shuffle(rules.pack(3), 7))
    assert m.deal is not None
    seat = match.to_act(m)
    assert seat is not None
    view = rules.observe(m.deal, seat)
    mine = step.computer_action(rules, view, random.Random(5), "casual", 0.1)
    assert mine == choose_action(rules, view, random.Random(5))


async def test_a_table_is_casual_and_rated_unless_asked(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {}, computers=2)
    assert (t.level, t.hints) == ("casual", False)
    assert ((await svc.get_table(t.id)).level, (await svc.get_table(t.id)).hints) == (
        "casual",
        False,
    )
    with pytest.raises(InvalidRequest, match="bad_level") as info:
        await svc.open_lobby(GUILD, CHANNEL + 1, ANA, "Ana", GAME, 3, {}, level="wizard")
    assert info.value.params == {"level": "wizard", "levels": ["casual", "expert"]}


async def test_the_review_replays_only_the_players_own_choices(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {"round_limit": 1}, computers=1)
    await svc.join(t.id, BEN, "Ben")
    out = await _play_out(svc, await svc.start(t.id, ANA, seed=11))
    assert out.finished
    rec = await svc.store.get(t.id)
    assert rec is not None
    log = await svc.store.log(t.id)
    ana = next(s.seat for s in rec.seats if s.user_id == ANA)
    found, faced = analysis.decisions(rec, log, 1, ana)
    own = [e for e in log if e.kind == "act" and e.seat == ana and "by" not in e.payload]
    assert faced == len(own) > 0
    assert 0 < len(found) <= faced
    by_seq = {e.seq: e for e in own}
    for d in found:
        assert (d.view.seat == ana and d.played in d.view.legal) or d.played.type == "discard"
        assert by_seq[d.seq].payload == d.played.to_json()
        assert len(d.view.legal) > 1  # a forced move is no decision
    # Contracts and the widest choices first, card play after.
    order = sorted(found, key=analysis.priority)
    kinds = [d.played.type == "play" for d in order]
    assert kinds == sorted(kinds)
    with pytest.raises(NotSeated, match="review_players_only") as info:
        await svc.review(t.id, CAL, 1)
    assert info.value.params["table"] == t.id


async def test_hints_are_refused_at_a_rated_table(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {}, computers=1)
    await svc.join(t.id, BEN, "Ben")
    with pytest.raises(WrongState):
        await svc.hint(t.id, ANA)  # the lobby
    await svc.start(t.id, ANA, seed=3)
    with pytest.raises(Forbidden, match="hints_practice_only"):
        await svc.hint(t.id, ANA)
    with pytest.raises(NotSeated):
        await svc.hint(t.id, CAL)


async def test_a_practice_table_hints_its_player_to_act_and_is_never_rated(
    db: Database, svc: TableService
) -> None:
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", EXPERT_GAME, 3, EXPERT_OPTIONS, computers=1, hints=True
    )
    assert t.hints and t.level == "casual"
    await svc.join(t.id, BEN, "Ben")
    out = await svc.start(t.id, ANA, seed=5)
    mover = user_to_act(out)
    other = ANA if mover == BEN else BEN
    hint = await svc.hint(t.id, mover)
    legal = [a.to_json() for a in hint.view.legal]
    assert hint.evaluation.seat == hint.seat == hint.view.seat
    best = hint.evaluation.options[0]
    assert best.action == hint.evaluation.best and best.samples > 0
    # Best first among the candidates valued on as many deals (the others were set aside).
    finalists = [o for o in hint.evaluation.options if o.samples >= best.samples]
    assert all(o.expected <= best.expected for o in finalists)
    assert best.action.to_json() in legal
    assert (await svc.hint(t.id, mover)).evaluation == hint.evaluation  # asked twice: the same
    with pytest.raises(WrongState, match="hint_not_your_turn") as info:
        await svc.hint(t.id, other)
    assert info.value.params["waiting"] == {ANA: "Ana", BEN: "Ben"}[mover]

    out = await _play_out(svc, out)
    assert out.finished and await svc.store.game_results(t.id) == []
    board = await StatsService(db).leaderboard(game_id=EXPERT_GAME, viewer=ANA, guild_id=GUILD)
    assert board.total == 0 and board.computers == ()


async def test_an_expert_table_rates_the_expert_and_its_rematch_keeps_the_level(
    db: Database, svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A complete review is asserted: its wall-clock budget must not depend on the machine's load.
    monkeypatch.setattr(coach, "REVIEW_SECONDS", 600.0)
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", EXPERT_GAME, 2, EXPERT_OPTIONS, computers=1, level="expert"
    )
    out = await _play_out(svc, await svc.start(t.id, ANA, seed=9))
    log = await svc.store.log(t.id)
    assert any(e.payload.get("by") == "ai" for e in log)
    results = await svc.store.game_results(t.id)
    assert {r.player_id for r in results if r.user_id is None} == {-2}
    board = await StatsService(db).leaderboard(game_id=EXPERT_GAME, viewer=ANA, guild_id=GUILD)
    assert [level for level, _ in board.computers] == ["expert"] and board.computer is None

    again = await svc.rematch(out.table.id, ANA)
    assert (again.level, again.hints) == ("expert", False)

    review = await svc.review(t.id, ANA, 1)
    assert review.seat == 0 and review.deal_number == 1 and review.complete
    assert len(review.judged) == review.decisions
    losses = [j.loss for j in review.judged]
    assert losses == sorted(losses, reverse=True) and all(x >= 0 for x in losses)
    assert review.mistakes == tuple(j for j in review.judged if j.loss > 0)[: coach.REVIEW_SHOWN]
    assert await svc.review(t.id, ANA, 1) is review  # cached once complete
    with pytest.raises(WrongState, match="deal_not_over"):
        await svc.review(t.id, ANA, out.deals_played + 1)


async def test_the_experts_queue_is_bounded_and_never_answers_a_gone_token(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, defect 8: a full queue refuses at once; an answer that would come after the
    asker's interaction token (``answer_within``) is dropped while it can still be said so."""
    t = await svc.open_lobby(
        GUILD, CHANNEL, ANA, "Ana", EXPERT_GAME, 3, EXPERT_OPTIONS, computers=1, hints=True
    )
    await svc.join(t.id, BEN, "Ben")
    out = await svc.start(t.id, ANA, seed=5)
    mover = user_to_act(out)
    with pytest.raises(Busy, match="expert_late"):
        await svc.hint(t.id, mover, answer_within=0.0)
    monkeypatch.setattr(coach, "COACHING_QUEUE", 0)
    with pytest.raises(Busy, match="expert_busy"):
        await svc.hint(t.id, mover, answer_within=60.0)
    monkeypatch.setattr(coach, "COACHING_QUEUE", 8)  # the late one gave its place back
    assert (await svc.hint(t.id, mover, answer_within=600.0)).seat == out.public.to_act  # type: ignore[union-attr]
