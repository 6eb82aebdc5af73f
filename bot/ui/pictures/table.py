"""The public table picture, drawn from a ``PublicView`` (and the seats' names) only.

Drawn for the size Discord shows it at (issue 30: ~400 px wide on a desktop, 270 px on a
phone), so it carries only what a picture says better than the message's text, large:

* each seat's name plate (name in 30 px type, the seat to act in gold with ▶; under the name
  its running score when the caller passes one, its roles and latest call, and the tricks it
  has won);
* the trick: each card in front of the seat that played it, the card winning so far framed in
  gold, the led suit on a chip in the middle;
* between tricks, the trick just won, its winner's card framed and "Won by …" in the middle,
  until the next card is led (``PublicView.last_trick``);
* with no trick at all (auction, calling, discard, bargaining…), the phase's name, a hint and
  the public cards (La Morte's talon, the dog once shown…).

The game's name, contract and trumps are in the message's text; a player's own picture adds
them above its hand (``turn``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine.views import PublicView
from bot.i18n import _, p_
from bot.ui.pictures._style import (
    FELT,
    FELT_EDGE,
    GOLD,
    LOCK,
    PLATE,
    PLATE_MUTED,
    PLATE_TEXT,
    RGB,
    clean,
    draw_fitted,
    fit,
    font,
    text_length,
)
from bot.ui.pictures._words import language
from bot.ui.pictures.facts import TableFacts, phase_word, table_facts
from bot.ui.pictures.layout import (
    CENTRE,
    CENTRE_W,
    HEIGHT,
    MARGIN,
    PLATE_H,
    PLATE_W,
    WIDTH,
    card_centre,
    free_bands,
    plate_centre,
)
from bot.ui.pictures.tiles import (
    LARGE_GLOW,
    LARGE_GLOW_FRAME,
    LARGE_H,
    LARGE_W,
    TILE_H,
    TILE_W,
    deck_tiles,
    style,
    suit_chip,
)

NAME_PX, DETAIL_PX = 30, 20
_PAD = 12  # inside a plate


class SeatScene(NamedTuple):
    name: str
    details: tuple[str, ...]  # latest call, roles, markers, "dealer": the first matter most
    score: str  # the running total ("+120", "−40"), or ""
    tricks: int | None  # tricks won (None: no badge, before any trick is played)
    active: bool


class TableScene(NamedTuple):
    """Everything a table picture shows, as plain data (the cache key): its words in
    ``language``, which the card faces follow too."""

    game_id: str
    seats: tuple[SeatScene, ...]
    bottom: int  # the seat drawn at the bottom
    trick: tuple[tuple[int, str], ...]  # the current trick, or the one just won
    winning: int | None  # the seat whose card is framed in gold
    led: str | None  # the led suit's chip (a trick in progress)
    caption: str  # under the chip ("led") or alone in the middle ("Won by …")
    centre: tuple[str, ...]  # no trick: the phase's name, then hints
    cards: tuple[tuple[str, tuple[str, ...]], ...]  # no trick: public cards, by caption
    language: str = "en"


def trick_word(view: PublicView, game_id: str) -> str:
    """ "Trick 5 of 18" while cards are played, else the phase's name."""
    if view.phase == "play" and view.result is None:
        total = view.tricks_played + max(view.hand_sizes or (0,))
        if total:
            return _("Trick {n} of {total}", n=view.tricks_played + 1, total=total)
    return phase_word(view.phase, game_id)


def _score(value: int) -> str:
    return "0" if value == 0 else f"{value:+d}".replace("-", "−")


def _seats(
    view: PublicView,
    shown: tuple[str, ...],
    facts: TableFacts,
    markers: tuple[str, ...],
    scores: tuple[int, ...],
) -> tuple[SeatScene, ...]:
    counting = view.phase == "play" or view.tricks_played > 0
    out: list[SeatScene] = []
    for seat in range(view.players):
        # By importance: a plate too narrow for all of them drops the last ones.
        words = [facts.notes[seat]] if facts.notes[seat] else []
        words += facts.roles[seat]
        if markers and clean(markers[seat]):
            words.append(clean(markers[seat]))
        if seat == view.dealer:
            words.append(p_("picture role", "dealer"))
        tricks = view.tricks_won[seat] if seat < len(view.tricks_won) else 0
        out.append(
            SeatScene(
                name=shown[seat],
                details=tuple(words),
                score=_score(scores[seat]) if scores else "",
                tricks=tricks if counting else None,
                active=seat == view.to_act,
            )
        )
    return tuple(out)


def seat_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names as drawn: what the font cannot draw dropped, "Seat n" for an empty one."""
    return tuple(clean(x) or p_("picture", "Seat {n}", n=i + 1) for i, x in enumerate(names))


def table_scene(
    view: PublicView,
    *,
    game_id: str,
    names: tuple[str, ...],
    markers: tuple[str, ...] = (),
    winning: int | None = None,
    scores: tuple[int, ...] = (),
    bottom: int = 0,
) -> TableScene:
    """What ``render_table`` draws for these arguments (reads only ``PublicView`` fields)."""
    n = view.players
    for label, values in (("names", names), ("markers", markers), ("scores", scores)):
        if (values or label == "names") and len(values) != n:
            raise ValueError(f"{label}: {len(values)} for {n} seats")
    shown = seat_names(names)
    facts = table_facts(game_id, view, shown)
    trick = tuple((int(s), str(c)) for s, c in view.trick)
    played = {s for s, _ in trick}
    centre: tuple[str, ...] = ()
    cards: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if trick:
        caption = p_("picture", "led")
        winning = winning if winning in played else None
    elif view.last_trick and view.phase in ("play", "scored", "done"):
        trick = tuple((int(s), str(c)) for s, c in view.last_trick)
        last = view.last_winner
        winning = last if last is not None and 0 <= last < n else None
        caption = "" if winning is None else p_("picture", "Won by {name}", name=shown[winning])
    else:
        caption, winning = "", None
        centre = (trick_word(view, game_id), *facts.centre)
        cards = facts.cards
    return TableScene(
        game_id=game_id,
        seats=_seats(view, shown, facts, markers, scores),
        bottom=bottom % n if n else 0,
        trick=trick,
        winning=winning,
        led=facts.led if view.trick else None,
        caption=caption,
        centre=centre,
        cards=cards,
        language=language(),
    )


# ---- static layers (drawn once) ---------------------------------------------------------


def smooth_rect(size: tuple[int, int], radius: int, fill: RGB, outline: RGB, width: int):
    """A rounded rectangle with smooth edges (drawn at three times its size), RGBA."""
    k = 3
    big = Image.new("RGBA", (size[0] * k, size[1] * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1),
        radius=radius * k,
        fill=(*fill, 255),
        outline=(*outline, 255),
        width=width * k,
    )
    return big.resize(size, Image.Resampling.LANCZOS)


@cache
def _background() -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT_EDGE)
    felt = smooth_rect((WIDTH - 8, HEIGHT - 8), 40, FELT, (44, 120, 82), 2)
    img.paste(felt, (4, 4), felt)
    return img


@cache
def _plate(active: bool) -> Image.Image:
    if active:
        return smooth_rect((PLATE_W, PLATE_H), 14, (70, 56, 8), GOLD, 3)
    return smooth_rect((PLATE_W, PLATE_H), 14, PLATE, (64, 118, 86), 2)


@cache
def _tricks_icon() -> Image.Image:
    """Two stacked card backs: "tricks won", without a word to read at 8 px."""
    icon = Image.new("RGBA", (22, 24), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    for dx, dy in ((7, 0), (0, 5)):
        draw.rounded_rectangle(
            (dx, dy, dx + 14, dy + 18), radius=3, fill=PLATE_TEXT, outline=PLATE, width=2
        )
    return icon


# ---- drawing ----------------------------------------------------------------------------


def details_shown(details: tuple[str, ...], width: int) -> str:
    """The most of ``details`` that fits ``width`` (shrunk at most to 3/4) without cutting a
    word: the last ones are dropped first; the first is cut only if it alone is too long."""
    for end in range(len(details), 0, -1):
        text = " · ".join(details[:end])
        if fit(text, DETAIL_PX, False, width)[0] == text:
            return text
    return details[0] if details else ""


def _draw_seat(img: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatScene, cx: float, cy: float):
    x, y = round(cx - PLATE_W / 2), round(cy - PLATE_H / 2)
    plate = _plate(seat.active)
    img.paste(plate, (x, y), plate)
    left, right = x + _PAD, x + PLATE_W - _PAD
    colour = GOLD if seat.active else PLATE_TEXT
    name_x = left
    if seat.active:
        name_x += 26
    second = seat.tricks is not None or seat.score or seat.details
    shown, size = fit(seat.name, NAME_PX, True, right - name_x, smallest=20)
    name_y = y + 22 if second else y + PLATE_H / 2
    draw.text((name_x, name_y), shown, font=font(size, True), fill=colour, anchor="lm")
    if seat.active:
        draw.text((left, name_y), "▶", font=font(22, True), fill=GOLD, anchor="lm")
    base = y + PLATE_H - 16
    if seat.tricks is not None:
        count = str(seat.tricks)
        w = text_length(count, 22, True)
        draw.text((right, base), count, font=font(22, True), fill=PLATE_TEXT, anchor="rm")
        icon = _tricks_icon()
        right -= round(w) + icon.width + 4
        img.paste(icon, (right, base - icon.height // 2), icon)
        right -= 8
    if seat.score:
        draw.text((left, base), seat.score, font=font(DETAIL_PX, True), fill=GOLD, anchor="lm")
        left += round(text_length(seat.score + " ", DETAIL_PX, True))
    if seat.details and right - left > 20:
        text = details_shown(seat.details, right - left)
        draw_fitted(draw, (left, base), text, DETAIL_PX, False, right - left, PLATE_MUTED, "lm")


def _draw_trick(img: Image.Image, scene: TableScene) -> None:
    n = len(scene.seats)
    tiles = deck_tiles(scene.game_id, scene.language).large
    for seat, card in scene.trick:
        cx, cy = card_centre(seat, n, scene.bottom)
        x, y = round(cx - LARGE_W / 2), round(cy - LARGE_H / 2)
        if seat == scene.winning:
            img.paste(LARGE_GLOW_FRAME, (x - LARGE_GLOW, y - LARGE_GLOW), LARGE_GLOW_FRAME)
        tile = tiles.get(card)
        if tile is not None:
            img.paste(tile, (x, y), tile)


def _draw_middle(img: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    cx, cy = CENTRE
    if scene.led is not None:
        chip = suit_chip(scene.led, style(scene.game_id).italian, 48)
        img.paste(chip, (round(cx - chip.width / 2), round(cy - chip.height / 2) - 8), chip)
        draw_fitted(draw, (cx, cy + 30), scene.caption, 18, False, 120, PLATE_MUTED, "mm")
    elif scene.caption:  # the trick just won
        shown, size = fit(scene.caption, 24, True, CENTRE_W - 24, smallest=16)
        w = text_length(shown, size, True)
        box = (cx - w / 2 - 12, cy - 20, cx + w / 2 + 12, cy + 20)
        draw.rounded_rectangle(box, radius=20, fill=PLATE, outline=GOLD, width=2)
        draw.text((cx, cy), shown, font=font(size, True), fill=GOLD, anchor="mm")


def _centre_blocks(scene: TableScene) -> tuple[int, int]:
    """Heights of the centre's words and of its public cards."""
    words = 44 + 30 * (len(scene.centre) - 1) if scene.centre else 0
    cards = TILE_H + 34 if scene.cards else 0
    return words, cards


def _draw_words(draw: ImageDraw.ImageDraw, lines: tuple[str, ...], top: int) -> None:
    width = WIDTH - 2 * MARGIN - 16
    draw_fitted(draw, (WIDTH / 2, top + 20), lines[0], 32, True, width, PLATE_TEXT, "mm")
    for i, hint in enumerate(lines[1:]):
        y = top + 56 + 30 * i
        draw_fitted(draw, (WIDTH / 2, y), hint, 22, False, width, PLATE_MUTED, "mm")


def _draw_cards(img: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene, top: int) -> None:
    """The public cards in one row, a caption over each group, overlapped if they must."""
    tiles = deck_tiles(scene.game_id, scene.language).normal
    groups = scene.cards
    count = sum(len(cards) for _, cards in groups)
    gap = 28
    room = WIDTH - 2 * MARGIN - 16 - gap * (len(groups) - 1)
    step = min(TILE_W + 8, (room - TILE_W) / max(1, count - 1)) if count > 1 else TILE_W
    widths = [TILE_W + step * (len(cards) - 1) for _, cards in groups]
    x = (WIDTH - sum(widths) - gap * (len(groups) - 1)) / 2
    for (caption, cards), w in zip(groups, widths, strict=True):
        draw_fitted(
            draw, (x + w / 2, top + 12), caption, 20, False, round(w) + gap - 4, PLATE_MUTED, "mm"
        )
        for i, card in enumerate(cards):
            tile = tiles.get(card)
            if tile is not None:
                img.paste(tile, (round(x + i * step), top + 30), tile)
        x += w + gap


def _draw_centre(img: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    """The phase's words and public cards in the bands free of plates: together in the first
    band that holds both, else the words in the first band and the cards in the next."""
    words, cards = _centre_blocks(scene)
    bands = free_bands(len(scene.seats))
    for top, bottom in bands:
        if bottom - top >= words + cards + 16:
            y = top + (bottom - top - words - cards - 16) // 2
            if scene.centre:
                _draw_words(draw, scene.centre, y)
            if scene.cards:
                _draw_cards(img, draw, scene, y + words + 16)
            return
    if scene.centre:
        top, bottom = bands[0]
        _draw_words(draw, scene.centre, top + (bottom - top - words) // 2)
    if scene.cards and len(bands) > 1:
        top, bottom = bands[1]
        _draw_cards(img, draw, scene, top + (bottom - top - cards) // 2)


def draw_table(scene: TableScene) -> Image.Image:
    """The table picture of ``scene`` (RGB)."""
    with LOCK:
        img = _background().copy()
        draw = ImageDraw.Draw(img)
        n = len(scene.seats)
        for seat, s in enumerate(scene.seats):
            _draw_seat(img, draw, s, *plate_centre(seat, n, scene.bottom))
        if scene.trick:
            _draw_trick(img, scene)
            _draw_middle(img, draw, scene)
        else:
            _draw_centre(img, draw, scene)
        return img
