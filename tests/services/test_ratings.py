"""Rating maths: placings (ties shared, resigned last) and openskill Plackett–Luce updates for
3-, 4- and 5-player rankings, computer levels holding several seats, provisional ratings."""

from __future__ import annotations

import itertools

import pytest

from bot.db.ratings import Rating
from bot.services.ratings import (
    COMPUTER_LEVELS,
    MODEL,
    PROVISIONAL_GAMES,
    display,
    is_provisional,
    placings,
    player_id,
    rate,
)

CPU = COMPUTER_LEVELS["standard"]


def test_placings_share_ties_and_put_resigned_players_last() -> None:
    assert placings([10, 30, 30, 5], winners=[1, 2]) == [3, 1, 1, 4]
    assert placings([5, 5, 5, 1, 9], winners=[4]) == [2, 2, 2, 5, 1]
    assert placings([7, 7, 7], winners=[0, 1, 2]) == [1, 1, 1]
    # The top scorer resigned: they rank last and never win; the rest by score.
    assert placings([50, 10, 20], winners=[0], resigned=[0]) == [3, 2, 1]
    # Two players resigned: tied last between themselves, whatever their scores.
    assert placings([50, 10, 20, 40], winners=[0], resigned=[0, 3]) == [3, 2, 1, 3]


def test_seats_map_to_rated_entities() -> None:
    assert player_id(42, is_bot=False) == 42
    assert player_id(None, is_bot=True) == CPU < 0
    assert player_id(None, is_bot=False) is None  # an anonymised seat is not rated


def _after(seats: list[tuple[int, int]], current: dict[int, Rating] | None = None) -> list[float]:
    """Display change of each entity, in seat order."""
    out = rate(seats, current or {})
    return [out[p].after.display - out[p].before for p, _ in seats]


@pytest.mark.parametrize(
    ("places", "tied"),
    [
        ([1, 2, 3], []),
        ([1, 1, 3], [(0, 1)]),
        ([1, 2, 3, 4], []),
        ([1, 2, 2, 4], [(1, 2)]),
        ([2, 2, 1, 4], [(0, 1)]),
        ([1, 2, 3, 4, 5], []),
        ([1, 1, 3, 3, 5], [(0, 1), (2, 3)]),
        ([3, 1, 3, 1, 5], [(0, 2), (1, 3)]),
    ],
)
def test_new_players_move_by_place_and_ties_move_alike(
    places: list[int], tied: list[tuple[int, int]]
) -> None:
    seats = [(100 + i, p) for i, p in enumerate(places)]
    moves = _after(seats)
    by_place = sorted(range(len(places)), key=lambda s: places[s])
    # A better place never moves less; the winner gains, the last loses.
    for better, worse in itertools.pairwise(by_place):
        assert moves[better] >= moves[worse] - 1e-9
        if places[better] < places[worse]:
            assert moves[better] > moves[worse]
    assert moves[by_place[0]] > 0
    for a, b in tied:
        assert moves[a] == pytest.approx(moves[b])
    out = rate(seats, {})
    assert all(u.after.games == 1 and u.before == display(25.0, 25.0 / 3) for u in out.values())
    # Every first game leaves a rating less uncertain than the prior.
    assert all(u.after.sigma < MODEL.sigma for u in out.values())


def test_matches_openskill_plackett_luce_directly() -> None:
    current = {1: Rating(30.0, 5.0, display(30.0, 5.0), 9), 2: Rating(20.0, 7.0, 0.0, 3)}
    out = rate([(1, 2), (2, 1), (3, 3)], current)
    teams = [[MODEL.rating(30.0, 5.0)], [MODEL.rating(20.0, 7.0)], [MODEL.rating()]]
    expected = MODEL.rate(teams, ranks=[2.0, 1.0, 3.0])
    for p, team in zip((1, 2, 3), expected, strict=True):
        assert out[p].after.mu == pytest.approx(team[0].mu)
        assert out[p].after.sigma == pytest.approx(team[0].sigma)
        assert out[p].after.display == pytest.approx(team[0].mu - 3 * team[0].sigma)
    assert [out[p].after.games for p in (1, 2, 3)] == [10, 4, 1]
    assert out[1].before == current[1].display


def test_beating_a_strong_player_is_worth_more() -> None:
    strong = {2: Rating(35.0, 3.0, display(35.0, 3.0), 40)}
    weak = {2: Rating(15.0, 3.0, display(15.0, 3.0), 40)}
    gain_strong = _after([(1, 1), (2, 2)], strong)[0]
    gain_weak = _after([(1, 1), (2, 2)], weak)[0]
    assert gain_strong > gain_weak > 0


def test_a_computer_level_holding_several_seats_is_one_entity() -> None:
    cpu = Rating(24.0, 4.0, display(24.0, 4.0), 12)
    seats = [(7, 1), (CPU, 2), (CPU, 3), (CPU, 4)]
    out = rate(seats, {CPU: cpu})
    assert set(out) == {7, CPU}
    teams = [[MODEL.rating()]] + [[MODEL.rating(cpu.mu, cpu.sigma)] for _ in range(3)]
    seat_results = MODEL.rate(teams, ranks=[1.0, 2.0, 3.0, 4.0])
    mean_mu = sum(t[0].mu for t in seat_results[1:]) / 3
    mean_sigma = sum(t[0].sigma for t in seat_results[1:]) / 3
    assert out[CPU].after.mu == pytest.approx(mean_mu)
    assert out[CPU].after.sigma == pytest.approx(mean_sigma)
    assert out[CPU].after.games == 13  # one game, however many seats
    assert out[7].after.display > out[7].before  # beating the computer counts


def test_one_rated_seat_changes_nothing() -> None:
    assert rate([(1, 1)], {}) == {}


def test_provisional_until_five_rated_games() -> None:
    assert PROVISIONAL_GAMES == 5
    assert [is_provisional(n) for n in range(7)] == [True] * 5 + [False] * 2
