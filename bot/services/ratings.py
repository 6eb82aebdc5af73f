"""Rating maths: final placings of a finished game, and openskill Plackett–Luce updates.

Every game id has its own rating per player. Computer players are rated too, one entity per
computer level (a table's ``level``: casual or expert), so beating the computer counts for
exactly what it is worth. The shown value is conservative (mu − 3·sigma); fewer than
``PROVISIONAL_GAMES`` rated games make a rating provisional.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.db.ratings import Rating, RatingUpdate

PROVISIONAL_GAMES = 5
#: Rated entity ids of the computer-player levels (negative: Discord ids are positive).
#: "standard" is the casual level's name from before there were levels.
COMPUTER_LEVELS: dict[str, int] = {"casual": -1, "expert": -2, "standard": -1}

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, tau 25/300


def display(mu: float, sigma: float) -> float:
    """The conservative value shown and ranked on."""
    return mu - 3 * sigma


def is_provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


def player_id(user_id: int | None, is_bot: bool, level: str = "casual") -> int | None:
    """The rated entity of a seat: its human, or the computer ``level`` that plays it.

    A human who resigned (a computer finished the game for them) is still that human: they
    rank last. A seat with neither (an anonymised record) is not rated.
    """
    if is_bot:
        return COMPUTER_LEVELS[level]
    return user_id


def placings(
    totals: Sequence[int],
    winners: Sequence[int],
    resigned: Sequence[int] = (),
    unranked: Sequence[int] = (),
) -> list[int | None]:
    """1-based place of every seat: winners first, then by total (higher is better in every
    game); equal keys share a place (1, 1, 3). Resigned players share the last place: a
    computer played their seat on, so its score is not theirs. ``unranked`` seats (a player
    the host replaced while away) get no place and take none from the others."""
    win, gone, out = set(winners) - set(resigned), set(resigned), set(unranked)

    def key(seat: int) -> tuple[bool, bool, int]:
        return (True, True, 0) if seat in gone else (False, seat not in win, -totals[seat])

    keys = {s: key(s) for s in range(len(totals)) if s not in out}
    return [
        1 + sum(other < keys[s] for other in keys.values()) if s in keys else None
        for s in range(len(totals))
    ]


def rate(
    seats: Sequence[tuple[int, int]], current: Mapping[int, Rating]
) -> dict[int, RatingUpdate]:
    """New ratings after one game: ``seats`` are ``(player_id, place)`` in seat order.

    Each seat is one team of one. An entity that held several seats (a computer level playing
    three of them) moves by the mean of its seats' changes and counts one game.
    """
    if len(seats) < 2:
        return {}
    prior = MODEL.rating()
    before = {
        p: current.get(p) or Rating(prior.mu, prior.sigma, display(prior.mu, prior.sigma), 0)
        for p, _ in seats
    }
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma)] for p, _ in seats]
    result = MODEL.rate(teams, ranks=[float(place) for _, place in seats])
    moves: dict[int, list[tuple[float, float]]] = {}
    for (p, _), team in zip(seats, result, strict=True):
        moves.setdefault(p, []).append((team[0].mu, team[0].sigma))
    out: dict[int, RatingUpdate] = {}
    for p, new in moves.items():
        old = before[p]
        mu = old.mu + sum(m - old.mu for m, _ in new) / len(new)
        sigma = sum(s for _, s in new) / len(new)
        out[p] = RatingUpdate(old.display, Rating(mu, sigma, display(mu, sigma), old.games + 1))
    return out
