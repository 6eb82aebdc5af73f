"""The public table picture, drawn from a ``PublicView`` (and the seats' names) only.

Seats sit around a felt table, clockwise from the bottom (seat 0 at the bottom, seat 1 to its
left…), each on a name plate: name, dealer and role words, the latest call or bid, cards in
hand and a tricks-won badge; the seat to act has a gold plate and ▶. The cards of the current
trick lie in front of the seats that played them, the card winning so far framed in gold (when
the caller passes ``winning``), with the led suit in the middle. A side panel gives the game,
the phase or trick number, trumps and contract, public cards (a talon, a called King, a dog)
and the previous trick, small.
"""

from __future__ import annotations

import re
from functools import cache
from math import cos, inf, pi, sin
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine.views import PublicView
from bot.i18n import _, n_, p_
from bot.ui.games import game_title
from bot.ui.pictures._style import (
    FELT,
    FELT_EDGE,
    GOLD,
    LOCK,
    PANEL,
    PANEL_MUTED,
    PANEL_TEXT,
    PLATE,
    PLATE_MUTED,
    PLATE_TEXT,
    RGB,
    clean,
    draw_fitted,
    draw_line,
    fit,
    font,
)
from bot.ui.pictures._words import Line, Segment, language
from bot.ui.pictures.facts import phase_word, table_facts
from bot.ui.pictures.tiles import (
    GLOW,
    GLOW_FRAME,
    SMALL_GLOW_FRAME,
    SMALL_H,
    SMALL_W,
    TILE_H,
    TILE_W,
    deck_tiles,
    style,
    suit_chip,
)

WIDTH, HEIGHT = 1040, 640
TABLE_W = 740
CX, CY = 370, 320
PLATE_W, PLATE_H = 210, 84
_HX, _HY = CX - 14 - PLATE_W / 2, CY - 14 - PLATE_H / 2  # plate centres stay inside these
_RX, _RY = 100, 128  # trick cards lie on this ellipse
PANEL_X, PANEL_PAD = TABLE_W + 20, 20
PANEL_TEXT_W = WIDTH - PANEL_X - PANEL_PAD


class SeatScene(NamedTuple):
    name: str
    roles: str
    notes: str
    tricks: int
    active: bool


class TableScene(NamedTuple):
    """Everything a table picture shows, as plain data (the cache key): its words in
    ``language``, which the card faces follow too."""

    game_id: str
    title: str
    subtitle: str
    seats: tuple[SeatScene, ...]
    trick: tuple[tuple[int, str], ...]
    winning: int | None
    led: str | None
    centre: tuple[str, ...]
    lines: tuple[Line, ...]
    cards: tuple[tuple[str, tuple[str, ...]], ...]
    last: tuple[tuple[int, str], ...]
    last_winner: int | None
    last_caption: str
    language: str = "en"
    tricks_caption: str = "tricks"
    led_caption: str = "led"
    title_lines: tuple[str, ...] = ()  # a long title broken in two (none: one line)


def _title(game_id: str) -> str:
    """The game's name in the current language (``bot.ui.games.game_title``)."""
    try:
        return game_title(game_id)
    except KeyError:
        return game_id.replace("_", " ").title()


def table_scene(
    view: PublicView,
    *,
    game_id: str,
    names: tuple[str, ...],
    markers: tuple[str, ...] = (),
    winning: int | None = None,
    title: str = "",
) -> TableScene:
    """What ``render_table`` draws for these arguments (reads only ``PublicView`` fields)."""
    n = view.players
    if len(names) != n:
        raise ValueError(f"names: {len(names)} for {n} seats")
    if markers and len(markers) != n:
        raise ValueError(f"markers: {len(markers)} for {n} seats")
    shown = tuple(clean(x) or p_("picture", "Seat {n}", n=i + 1) for i, x in enumerate(names))
    facts = table_facts(game_id, view, shown)
    seats: list[SeatScene] = []
    for seat in range(n):
        dealer = [p_("picture role", "dealer")] if seat == view.dealer else []
        roles = dealer + list(facts.roles[seat])
        if markers and clean(markers[seat]):
            roles.append(clean(markers[seat]))
        notes = [x for x in (facts.notes[seat],) if x]
        if seat < len(view.hand_sizes):
            count = view.hand_sizes[seat]
            notes.append(n_("{n} card", "{n} cards", count))
        tricks = view.tricks_won[seat] if seat < len(view.tricks_won) else 0
        seats.append(
            SeatScene(
                shown[seat], " · ".join(roles), " · ".join(notes), tricks, seat == view.to_act
            )
        )
    title = clean(title) or _title(game_id)
    trick = tuple((int(s), str(c)) for s, c in view.trick)
    played = {s for s, _ in trick}
    if view.phase == "play" and view.result is None:
        total = view.tricks_played + max(view.hand_sizes or (0,))
        subtitle = (
            _("Trick {n} of {total}", n=view.tricks_played + 1, total=total)
            if total
            else phase_word("play", game_id)
        )
    else:
        subtitle = phase_word(view.phase, game_id)
    last = tuple((int(s), str(c)) for s, c in view.last_trick)
    caption = p_("picture", "Last trick")
    if last and view.last_winner is not None and 0 <= view.last_winner < n:
        caption = p_("picture", "Last trick — {name}", name=shown[view.last_winner])
    return TableScene(
        game_id=game_id,
        title=title,
        subtitle=subtitle,
        seats=tuple(seats),
        trick=trick,
        winning=winning if winning in played else None,
        led=facts.led if trick else None,
        centre=()
        if trick
        else ((phase_word(view.phase, game_id), *facts.centre) if view.phase != "play" else ()),
        lines=_panel_lines(facts.lines),
        cards=facts.cards,
        last=last,
        last_winner=view.last_winner if last else None,
        last_caption=caption,
        language=language(),
        tricks_caption=p_("picture badge", "tricks"),
        led_caption=p_("picture", "led"),
        title_lines=_title_lines(title),
    )


# ---- geometry ---------------------------------------------------------------------------


def _direction(seat: int, n: int) -> tuple[float, float]:
    a = 2 * pi * seat / n
    return -sin(a), cos(a)


def plate_centre(seat: int, n: int) -> tuple[float, float]:
    dx, dy = _direction(seat, n)
    t = min(_HX / abs(dx) if abs(dx) > 1e-9 else inf, _HY / abs(dy) if abs(dy) > 1e-9 else inf)
    return CX + dx * t, CY + dy * t


def card_centre(seat: int, n: int) -> tuple[float, float]:
    dx, dy = _direction(seat, n)
    return CX + dx * _RX, CY + dy * _RY


# ---- static layers (drawn once) ---------------------------------------------------------


def _smooth_rect(size: tuple[int, int], radius: int, fill: RGB, outline: RGB, width: int):
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
    felt = _smooth_rect((TABLE_W - 12, HEIGHT - 12), 48, FELT, (44, 120, 82), 2)
    img.paste(felt, (6, 6), felt)
    ImageDraw.Draw(img).rectangle((TABLE_W, 0, WIDTH, HEIGHT), fill=PANEL)
    return img


@cache
def _plate(active: bool) -> Image.Image:
    if active:
        return _smooth_rect((PLATE_W, PLATE_H), 14, (58, 48, 10), GOLD, 3)
    return _smooth_rect((PLATE_W, PLATE_H), 14, PLATE, (64, 118, 86), 2)


# ---- drawing ----------------------------------------------------------------------------


def _title_lines(title: str) -> tuple[str, ...]:
    """A title too long for one line (a game's name in another language may be a third
    longer) broken in two between words; none when it fits, as every English title does."""
    with LOCK:
        if fit(title, 24, True, PANEL_TEXT_W)[0] == title:
            return ()
        line = _wrap(((title, "text"),), 20, PANEL_TEXT_W)
    return tuple("".join(t for t, _ink in part).strip() for part in line)


def _panel_lines(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """The side panel's lines, each long one broken in two (``_wrap``)."""
    with LOCK:
        return tuple(part for line in lines for part in _wrap(line, 18, PANEL_TEXT_W))


def _wrap(line: Line, size: int, width: int) -> list[Line]:
    """``line`` as it is when it fits ``width`` once shrunk to 3/4 of ``size`` (as
    ``draw_line`` does), else broken between words into two lines (a translation may be a
    third longer than the English; the second line is shrunk or cut if it must)."""
    smallest = max(8, size * 3 // 4)
    if font(smallest).getlength("".join(t for t, _ in line)) <= width:
        return [line]
    f = font(size)
    lines: list[list[Segment]] = [[]]
    used = 0.0
    for part, ink in line:
        for word in re.split(r"(?<= )", part):
            if not word:
                continue
            w = f.getlength(word)
            if lines[-1] and used + f.getlength(word.rstrip()) > width and len(lines) < 2:
                lines.append([])
                used = 0.0
                word = word.lstrip()
            if lines[-1] and lines[-1][-1][1] == ink:
                lines[-1][-1] = (lines[-1][-1][0] + word, ink)
            else:
                lines[-1].append((word, ink))
            used += w
    return [tuple(x) for x in lines if x]


def _draw_seat(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: SeatScene,
    cx: float,
    cy: float,
    tricks: str,
):
    x, y = round(cx - PLATE_W / 2), round(cy - PLATE_H / 2)
    plate = _plate(seat.active)
    img.paste(plate, (x, y), plate)
    # tricks badge
    bx0, by0, bx1, by1 = x + PLATE_W - 54, y + 10, x + PLATE_W - 10, y + PLATE_H - 10
    draw.rounded_rectangle((bx0, by0, bx1, by1), radius=8, fill=(34, 78, 54))
    draw.text(
        ((bx0 + bx1) / 2, by0 + 24),
        str(seat.tricks),
        font=font(26, True),
        fill=PLATE_TEXT,
        anchor="mm",
    )
    draw_fitted(
        draw, ((bx0 + bx1) / 2, by1 - 11), tricks, 11, False, bx1 - bx0 - 4, PLATE_MUTED, "mm"
    )
    text_x, text_w = x + 12, PLATE_W - 12 - 62
    if seat.active:
        draw.text((text_x, y + 10), "▶", font=font(20, True), fill=GOLD)
        text_x += 24
        text_w -= 24
    draw_fitted(
        draw, (text_x, y + 9), seat.name, 21, True, text_w, GOLD if seat.active else PLATE_TEXT
    )
    draw_fitted(draw, (x + 12, y + 38), seat.roles, 15, False, PLATE_W - 12 - 62, PLATE_TEXT)
    draw_fitted(draw, (x + 12, y + 59), seat.notes, 15, False, PLATE_W - 12 - 62, PLATE_MUTED)


def _draw_trick(img: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    n = len(scene.seats)
    tiles = deck_tiles(scene.game_id, scene.language).normal
    for seat, card in scene.trick:
        cx, cy = card_centre(seat, n)
        x, y = round(cx - TILE_W / 2), round(cy - TILE_H / 2)
        if seat == scene.winning:
            img.paste(GLOW_FRAME, (x - GLOW, y - GLOW), GLOW_FRAME)
        tile = tiles.get(card)
        if tile is None:
            continue
        img.paste(tile, (x, y), tile)
    if scene.led is not None:
        chip = suit_chip(scene.led, style(scene.game_id).italian)
        img.paste(chip, (CX - chip.width // 2, CY - chip.height // 2), chip)
        draw_fitted(draw, (CX, CY + 40), scene.led_caption, 16, False, 180, PLATE_MUTED, "mm")


def _draw_centre(draw: ImageDraw.ImageDraw, lines: tuple[str, ...]) -> None:
    if not lines:
        return
    y = CY - 18 * len(lines)
    draw_fitted(draw, (CX, y), lines[0], 30, True, 300, PLATE_TEXT, anchor="mm")
    for hint in lines[1:]:
        y += 40
        draw_fitted(draw, (CX, y), hint, 18, False, 300, PLATE_MUTED, anchor="mm")


def _card_rows(img: Image.Image, scene: TableScene, cards, x: int, y: int, glow: int | None) -> int:
    """Small tiles in rows of five from (x, y); returns the y below them."""
    small = deck_tiles(scene.game_id, scene.language).small
    for i, card in enumerate(cards):
        cx = x + (i % 5) * (SMALL_W + 6)
        cy = y + (i // 5) * (SMALL_H + 6)
        if i == glow:
            img.paste(SMALL_GLOW_FRAME, (cx - 3, cy - 3), SMALL_GLOW_FRAME)
        tile = small.get(card)
        if tile is not None:
            img.paste(tile, (cx, cy), tile)
    rows = (len(cards) + 4) // 5
    return y + rows * (SMALL_H + 6)


def _draw_panel(img: Image.Image, draw: ImageDraw.ImageDraw, scene: TableScene) -> None:
    x, y = PANEL_X, 18
    if scene.title_lines:  # a long title on two lines
        for line in scene.title_lines:
            draw_fitted(draw, (x, y), line, 20, True, PANEL_TEXT_W, PANEL_TEXT)
            y += 25
        y += 9
    else:
        draw_fitted(draw, (x, y), scene.title, 24, True, PANEL_TEXT_W, PANEL_TEXT)
        y += 34
    draw_fitted(draw, (x, y), scene.subtitle, 18, False, PANEL_TEXT_W, PANEL_MUTED)
    y += 30
    draw.line([(x, y), (x + PANEL_TEXT_W, y)], fill=(214, 208, 190), width=2)
    y += 12
    last_rows = (len(scene.last) + 4) // 5
    bottom = HEIGHT - 18 - (last_rows * (SMALL_H + 6) + 26 if scene.last else 0)
    for line in scene.lines:
        if y + 24 > bottom:
            return
        draw_line(draw, x, y, line, 18, PANEL_TEXT_W)
        y += 27
    for caption, cards in scene.cards:
        rows = (len(cards) + 4) // 5
        if y + 30 + rows * (SMALL_H + 6) > bottom:
            break
        y += 6
        draw_fitted(draw, (x, y), caption, 15, False, PANEL_TEXT_W, PANEL_MUTED)
        y = _card_rows(img, scene, cards, x, y + 22, None)
    if scene.last:
        y = bottom
        draw_fitted(draw, (x, y), scene.last_caption, 15, False, PANEL_TEXT_W, PANEL_MUTED)
        cards = [c for _, c in scene.last]
        glow = next((i for i, (s, _) in enumerate(scene.last) if s == scene.last_winner), None)
        _card_rows(img, scene, cards, x, y + 24, glow)


def draw_table(scene: TableScene) -> Image.Image:
    """The table picture of ``scene`` (RGB)."""
    with LOCK:
        img = _background().copy()
        draw = ImageDraw.Draw(img)
        n = len(scene.seats)
        for seat, s in enumerate(scene.seats):
            _draw_seat(img, draw, s, *plate_centre(seat, n), scene.tricks_caption)
        _draw_trick(img, draw, scene)
        _draw_centre(draw, scene.centre)
        _draw_panel(img, draw, scene)
        return img
