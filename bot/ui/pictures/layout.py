"""Where the table picture puts each seat, its trick card and the centre's words.

The table is drawn for the size Discord shows it at: about 400 px wide on a desktop and 270 px
on a phone (issue 30). So the canvas is nearly square (640 × 560), the trick cards are large
(``tiles.LARGE_W``) and every seat is a "stand": a name plate on the rim of the table and, on
the centre's side of it, the card that seat played. The stands are placed by hand for each
number of seats (2 to 6: every game's counts) rather than on an ellipse, because a canvas this
narrow leaves no slack: a computed ring put side plates over the trick.

Seats go clockwise from the bottom, as players sit: the bottom stand is the viewer's seat on a
player's own picture, seat 0 on the public one (``bottom``).
"""

from __future__ import annotations

from typing import NamedTuple

WIDTH, HEIGHT = 640, 560
PLATE_W, PLATE_H = 244, 70
MARGIN = 16

Point = tuple[float, float]


class Stand(NamedTuple):
    """One seat's place: the centres of its name plate and of its trick card."""

    plate: Point
    card: Point


_BOTTOM = Stand((320, 517), (320, 398))
_TOP = Stand((320, 43), (320, 162))

#: Per number of seats: the stands clockwise from the bottom, and the horizontal bands (top,
#: bottom) free of plates across the whole width, where the centre's words and public cards go
#: when no trick lies on the table.
_LAYOUTS: dict[int, tuple[tuple[Stand, ...], tuple[tuple[int, int], ...]]] = {
    2: ((_BOTTOM, _TOP), ((86, 474),)),
    3: (
        (_BOTTOM, Stand((130, 43), (200, 175)), Stand((510, 43), (440, 175))),
        ((86, 474),),
    ),
    4: (
        (_BOTTOM, Stand((130, 215), (130, 335)), _TOP, Stand((510, 215), (510, 335))),
        ((86, 176), (254, 474)),
    ),
    5: (
        (
            _BOTTOM,
            Stand((130, 444), (130, 325)),
            Stand((160, 43), (200, 160)),
            Stand((480, 43), (440, 160)),
            Stand((510, 444), (510, 325)),
        ),
        ((86, 400),),
    ),
    6: (
        (
            _BOTTOM,
            Stand((130, 352), (130, 471)),
            Stand((130, 115), (130, 234)),
            _TOP,
            Stand((510, 115), (510, 234)),
            Stand((510, 352), (510, 471)),
        ),
        ((152, 315), (389, 474)),
    ),
}

#: The led suit's chip, or the "won by" caption of the trick just won.
CENTRE: Point = (320, 280)
#: The widest the centre's caption may be (clear of every layout's trick cards and plates).
CENTRE_W = 250


def _check(players: int) -> None:
    if players not in _LAYOUTS:
        raise ValueError(f"no table layout for {players} seats")  # i18n: code (a bug)


def stand(seat: int, players: int, bottom: int = 0) -> Stand:
    """Where ``seat`` sits when ``bottom`` is the seat at the bottom of the picture."""
    _check(players)
    return _LAYOUTS[players][0][(seat - bottom) % players]


def plate_centre(seat: int, players: int, bottom: int = 0) -> Point:
    return stand(seat, players, bottom).plate


def card_centre(seat: int, players: int, bottom: int = 0) -> Point:
    return stand(seat, players, bottom).card


def free_bands(players: int) -> tuple[tuple[int, int], ...]:
    """The full-width bands (top, bottom) clear of plates, top first."""
    _check(players)
    return _LAYOUTS[players][1]
