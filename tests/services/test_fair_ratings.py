"""Fair ratings (issue 28, defect 5), on both backends with a settable clock.

- ``replace`` takes only a seat that is away: its turn clock ran out, or the game has waited on
  it for five minutes (or its turn clock, if longer); never one's own seat.
- A replaced player is not ranked: the game counts neither for nor against them.
- Ending a rated game one plays in, while another human still plays, is one's resignation: the
  game is recorded and rated, the ender last, the others by their totals so far. A server
  admin without a seat still ends a table unrated.
"""

from __future__ import annotations

import random

import pytest

from bot.db.ratings import rating
from bot.services import ratings
from bot.services.errors import Forbidden, WrongState
from bot.services.models import Outcome
from bot.services.tables import TableService
from tests.services.conftest import ANA, BEN, CAL, CHANNEL, EVE, GUILD, Clock, user_to_act
from tests.services.test_stats import SHORT, _payload, play_out

GAME = "la_morte"
FIVE_MINUTES = 300.0  # bot.services.life.REPLACE_AFTER
STEP_LIMIT = 400


async def _three_humans(svc: TableService, clock: str = "off", seed: int = 5) -> Outcome:
    """ANA (host), BEN and CAL at a short rated La Morte table."""
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, SHORT[GAME], clock=clock)
    await svc.join(t.id, BEN, "Ben")
    await svc.join(t.id, CAL, "Cal")
    return await svc.start(t.id, ANA, seed=seed)


async def _act(svc: TableService, out: Outcome, rng: random.Random) -> Outcome:
    user = user_to_act(out)
    seat = out.table.seat_of(user)
    assert seat is not None
    return await svc.act(out.table.id, user, _payload(GAME, out.seat_views[seat], rng))


async def _until_to_act(svc: TableService, out: Outcome, user: int) -> Outcome:
    """The others play until ``user`` must decide."""
    rng = random.Random(1)
    for _ in range(STEP_LIMIT):
        if user_to_act(out) == user:
            return out
        out = await _act(svc, out, rng)
    raise AssertionError("the player never had to decide")


async def _until_not_to_act(svc: TableService, out: Outcome, user: int) -> Outcome:
    rng = random.Random(2)
    for _ in range(STEP_LIMIT):
        if user_to_act(out) != user:
            return out
        out = await _act(svc, out, rng)
    raise AssertionError("the player kept deciding")


def _seat(out: Outcome, user: int) -> int:
    return next(s.seat for s in out.table.seats if s.user_id == user)


# ---- replace: only an away seat ---------------------------------------------------------


async def test_a_present_player_cannot_be_replaced(svc: TableService, clock: Clock) -> None:
    out = await _until_to_act(svc, await _three_humans(svc), BEN)
    for who, admin in ((ANA, False), (EVE, True)):  # neither the host nor an admin
        with pytest.raises(WrongState) as refused:
            await svc.replace_player(out.table.id, who, BEN, admin=admin)
        assert refused.value.code == "replace_not_away"
        assert refused.value.params["minutes"] == 5
    clock.now += FIVE_MINUTES - 1
    with pytest.raises(WrongState):
        await svc.replace_player(out.table.id, ANA, BEN)
    # The game has waited on Ben for five minutes: he counts as away.
    clock.now += 1
    out = await svc.replace_player(out.table.id, ANA, BEN)
    assert out.table.seats[_seat(out, BEN)].resigned and out.table.status == "playing"


async def test_waiting_counts_only_while_the_game_waits_on_them(
    svc: TableService, clock: Clock
) -> None:
    out = await _until_not_to_act(svc, await _three_humans(svc), BEN)
    clock.now += 10 * FIVE_MINUTES  # a long wait, but on someone else
    with pytest.raises(WrongState) as refused:
        await svc.replace_player(out.table.id, ANA, BEN)
    assert refused.value.code == "replace_not_away"


async def test_a_relaxed_clock_is_waited_out_in_full(svc: TableService, clock: Clock) -> None:
    out = await _until_to_act(svc, await _three_humans(svc, clock="relaxed"), BEN)
    clock.now += FIVE_MINUTES + 1  # within Ben's ten minutes
    with pytest.raises(WrongState):
        await svc.replace_player(out.table.id, ANA, BEN)


async def test_a_player_whose_clock_ran_out_can_be_replaced(
    svc: TableService, clock: Clock
) -> None:
    out = await _until_to_act(svc, await _three_humans(svc, clock="normal"), BEN)
    assert out.table.turn_deadline is not None
    clock.now = out.table.turn_deadline + 1
    [out] = (await svc.sweep()).expired
    assert out.table.seats[_seat(out, BEN)].away
    out = await _until_not_to_act(svc, out, BEN)  # away, even when it is not his turn
    out = await svc.replace_player(out.table.id, ANA, BEN)
    assert out.table.seats[_seat(out, BEN)].resigned


async def test_nobody_replaces_themselves(svc: TableService, clock: Clock) -> None:
    out = await _until_to_act(svc, await _three_humans(svc), ANA)
    clock.now += FIVE_MINUTES
    for admin in (False, True):
        with pytest.raises(Forbidden) as refused:
            await svc.replace_player(out.table.id, ANA, ANA, admin=admin)
        assert refused.value.code == "replace_self"


# ---- a replaced player is not ranked ------------------------------------------------------


async def test_a_replaced_player_is_neither_ranked_nor_rated(
    svc: TableService, clock: Clock
) -> None:
    out = await _until_to_act(svc, await _three_humans(svc), BEN)
    clock.now += FIVE_MINUTES
    out = await svc.replace_player(out.table.id, ANA, BEN)
    out = await play_out(svc, out, random.Random(3))
    assert out.table.status == "finished"
    results = {g.user_id: g for g in await svc.store.game_results(out.table.id)}
    ben = results[BEN]
    assert (ben.player_id, ben.place, ben.won) == (None, None, False)
    assert sorted(g.place or 0 for u, g in results.items() if u != BEN) in ([1, 2], [1, 1])
    assert await rating(svc.db, GAME, BEN) is None  # no rating, no loss
    for user in (ANA, CAL):
        found = await rating(svc.db, GAME, user)
        assert found is not None and found.games == 1
    # Nor is the computer that finished his seat.
    assert await rating(svc.db, GAME, ratings.COMPUTER_LEVELS["casual"]) is None


# ---- end: the ender's resignation -----------------------------------------------------------


async def _some_deals(svc: TableService, out: Outcome) -> Outcome:
    """Play on until at least one deal is scored (totals that rank)."""
    rng = random.Random(4)
    for _ in range(STEP_LIMIT):
        if out.deals_played >= 1 or out.finished:
            break
        out = await _act(svc, out, rng)
    assert not out.finished
    return out


async def test_the_host_ending_a_game_they_play_resigns(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {"target": 50})
    await svc.join(t.id, BEN, "Ben")
    await svc.join(t.id, CAL, "Cal")
    out = await _some_deals(svc, await svc.start(t.id, ANA, seed=5))
    totals = out.totals
    out = await svc.end_table(t.id, ANA)
    results = {g.user_id: g for g in await svc.store.game_results(t.id)}
    assert ANA in results and results[ANA].place == 3 and not results[ANA].won
    assert out.table.status == "abandoned" and out.rated
    assert out.table.seats[_seat(out, ANA)].resigned
    ben, cal = _seat(out, BEN), _seat(out, CAL)
    expected = {BEN: 1, CAL: 2} if totals[ben] > totals[cal] else {BEN: 2, CAL: 1}
    if totals[ben] == totals[cal]:
        expected = {BEN: 1, CAL: 1}
    assert {u: results[u].place for u in (BEN, CAL)} == expected
    assert all(not g.won for g in results.values())
    assert {u: results[u].score for u in (BEN, CAL)} == {BEN: totals[ben], CAL: totals[cal]}
    for user in (ANA, BEN, CAL):
        found = await rating(svc.db, GAME, user)
        assert found is not None and found.games == 1
    ana, ben_rating = await rating(svc.db, GAME, ANA), await rating(svc.db, GAME, BEN)
    assert ana is not None and ben_rating is not None and ana.display < ben_rating.display


async def test_a_seated_admin_ending_resigns_too(svc: TableService) -> None:
    out = await _three_humans(svc)
    out = await svc.end_table(out.table.id, BEN, admin=True)
    results = {g.user_id: g.place for g in await svc.store.game_results(out.table.id)}
    assert results.get(BEN) == 3 and out.rated


async def test_a_host_replaced_while_away_still_resigns_by_ending(
    svc: TableService, clock: Clock
) -> None:
    out = await _until_to_act(svc, await _three_humans(svc), ANA)
    clock.now += FIVE_MINUTES
    out = await svc.replace_player(out.table.id, CAL, ANA, admin=True)
    out = await svc.end_table(out.table.id, ANA)
    results = {g.user_id: g for g in await svc.store.game_results(out.table.id)}
    assert ANA in results and results[ANA].place == 3 and results[ANA].player_id == ANA
    assert out.rated


async def test_an_admin_without_a_seat_ends_unrated(svc: TableService) -> None:
    out = await _three_humans(svc)
    out = await svc.end_table(out.table.id, EVE, admin=True)
    assert await svc.store.game_results(out.table.id) == []
    assert out.table.status == "abandoned" and not out.rated


async def test_ending_with_no_other_human_playing_is_unrated(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {}, 2)
    out = await svc.end_table((await svc.start(t.id, ANA, seed=5)).table.id, ANA)
    assert not out.rated and await svc.store.game_results(t.id) == []
    # The others resigned: nobody is left to be rated against.
    out = await _three_humans(svc, seed=6)
    tid = out.table.id
    await svc.resign(tid, BEN)
    await svc.resign(tid, CAL)
    assert (await svc.get_table(tid)).status == "playing"  # the host still plays
    out = await svc.end_table(tid, ANA)
    assert not out.rated and await svc.store.game_results(tid) == []


async def test_ending_a_practice_table_is_unrated(svc: TableService) -> None:
    t = await svc.open_lobby(GUILD, CHANNEL, ANA, "Ana", GAME, 3, {}, hints=True)
    await svc.join(t.id, BEN, "Ben")
    await svc.join(t.id, CAL, "Cal")
    await svc.start(t.id, ANA, seed=5)
    out = await svc.end_table(t.id, ANA)
    assert await svc.store.game_results(t.id) == []
    assert out.table.status == "abandoned" and not out.rated
