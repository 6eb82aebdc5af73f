"""Pictures of the table and of a hand: pure functions from the engine's views to PNG bytes.

``render_table`` sees only a ``PublicView`` (plus the seats' names, extra markers and scores,
as plain values); ``render_hand`` sees only one seat's ``SeatView``, and so does
``render_turn`` (the table above that seat's hand: its table half reads the ``PublicView``
inside). As for the text renderers, the argument's type is the privacy boundary
(ARCHITECTURE §5, "Pictures are pure functions").

They are drawn for the size Discord shows them at (issue 30): the table 640 × 560 px, read at
~400 px on a desktop and 270 px on a phone; a turn picture as wide, at most 1.4 times as tall.

Card faces are drawn by this package (``tiles``) with the bundled DejaVu fonts (``fonts/``,
never a system font), once per process; identical pictures are rendered once (an LRU keyed by
everything the picture shows, its language included). Every word drawn is in the current
language (``bot.i18n``: the ``pictures`` catalogs), set by the caller. Rendering holds a lock
and takes a few milliseconds (the first picture of a game also draws its cards, about 0.5 s:
``warm_up`` does that ahead of time); run it off the event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.views import PublicView, SeatView
from bot.i18n import LANGUAGES
from bot.ui.pictures import encode, tiles
from bot.ui.pictures.encode import hand_png, table_png, turn_png
from bot.ui.pictures.hand import hand_scene
from bot.ui.pictures.table import table_scene
from bot.ui.pictures.turn import turn_scene

__all__ = ["clear_caches", "render_hand", "render_table", "render_turn", "warm_up"]

MEDIA_TYPE = "image/png"


def render_table(
    view: PublicView,
    *,
    game_id: str,
    names: tuple[str, ...],
    markers: tuple[str, ...] = (),
    winning: int | None = None,
    scores: tuple[int, ...] = (),
) -> bytes:
    """The public table as PNG bytes.

    Args:
        view: the deal's public view (``rules.observe_public``); nothing else about the deal
            is read.
        game_id: the game (its card style), normally ``view.game_id``.
        names: one display name per seat, in seat order (emoji are dropped: the bundled font
            has none).
        markers: optional extra words per seat, shown after the roles the picture derives
            itself (dealer, maker, taker, eldest…), e.g. ``"computer"`` or ``"away"``; empty
            strings for none.
        winning: the seat whose card wins the current trick so far, framed in gold. The view
            does not carry it: compute it with ``bot.ui.text.winner.winning_seat(view)``
            (the rules' own trick winner) or pass None. Ignored unless that seat has played to
            the trick. (The trick just won frames ``view.last_winner`` by itself.)
        scores: optional running match totals per seat (``Outcome.totals``), shown under the
            names; empty for none.

    Every word the picture draws is in the current language (``bot.i18n.using``); the
    picture is cached per language.
    """
    return table_png(
        table_scene(
            view, game_id=game_id, names=names, markers=markers, winning=winning, scores=scores
        )
    )


def render_turn(
    view: SeatView,
    *,
    game_id: str,
    names: tuple[str, ...],
    markers: tuple[str, ...] = (),
    winning: int | None = None,
    scores: tuple[int, ...] = (),
    picked: tuple[str, ...] = (),
) -> bytes:
    """One seat's picture for its DM at its decision, as PNG bytes: the table (drawn from
    ``view.public`` only, that seat at the bottom) above a ribbon (trick or phase, contract,
    trumps) and that seat's hand.

    The arguments are ``render_table``'s, with the seat's own ``SeatView`` in place of the
    public view; 640 px wide and at most 1.4 times as tall, so that a phone shows it whole.
    ``picked``: the cards picked so far for a multi-card choice (drawn lowered, with a ✓);
    cards the seat just took from a revealed dog are badged "new".
    """
    return turn_png(
        turn_scene(
            view,
            game_id=game_id,
            names=names,
            markers=markers,
            winning=winning,
            scores=scores,
            picked=picked,
        )
    )


def render_hand(
    view: SeatView, *, game_id: str, title: str = "", picked: tuple[str, ...] = ()
) -> bytes:
    """One seat's hand as PNG bytes, from that seat's ``SeatView`` only.

    Args:
        view: ``rules.observe(state, seat)``; its hand in display order, its legal actions.
        game_id: the game (card style), normally ``view.public.game_id``.
        title: the heading (default "Your hand", in the current language).
        picked: the cards picked so far for a multi-card choice (as ``render_turn``).
    """
    return hand_png(hand_scene(view, game_id=game_id, title=title, picked=picked))


def warm_up(game_ids: Iterable[str], languages: Iterable[str] = LANGUAGES) -> None:
    """Draw the card tiles and palettes of ``game_ids`` now (about 0.5 s per game, and a
    tenth of that per other language: only faces with words are drawn again) instead of
    during the first picture."""
    for game_id in game_ids:
        encode.palette(game_id)
        for language in languages:
            tiles.deck_tiles(game_id, language)


def clear_caches(*, faces: bool = False) -> None:
    """Forget the rendered pictures (tests and benchmarks); with ``faces`` also the card
    tiles and palettes, which are then drawn again on the next picture of each game."""
    table_png.cache_clear()
    hand_png.cache_clear()
    turn_png.cache_clear()
    if faces:
        encode.clear_palettes()
        tiles.clear_tiles()
