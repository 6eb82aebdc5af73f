"""A player's hand picture, drawn from that seat's ``SeatView`` only.

The cards appear in the order of the hand text (the game's display order, which the engine
gives in ``SeatView.hand``), in balanced rows of at most ten with a wider gap between suits.
When the seat has a decision that takes cards from the hand (play, discard, poignée), those
cards are raised and framed in gold and the others dimmed; otherwise all are shown plainly.
A multi-card choice being picked card by card (issue 31) shows its picks lowered again, with a
green ✓, and at a discard the cards just taken from the revealed dog carry a "new" badge.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine.views import SeatView
from bot.i18n import Words, n_, p_
from bot.ui.pictures._style import (
    FELT,
    INK,
    LOCK,
    PANEL,
    PANEL_TEXT,
    PLATE_MUTED,
    clean,
    draw_line,
    fit,
    font,
    text_length,
)
from bot.ui.pictures._words import Line, language
from bot.ui.pictures.facts import hand_trump
from bot.ui.pictures.tiles import GLOW, GLOW_FRAME, TILE_H, TILE_W, DeckTiles, deck_tiles

PAD, HEADER_H = 16, 44
GAP, GROUP_GAP, RAISE = 6, 18, 14
MAX_ROW = 10
MIN_WIDTH = 480
PICKED = (46, 160, 67)  # the ✓ of a picked card: Discord's green (its toggles' colour)
BADGE_NEW = (214, 120, 20)
BADGE_TEXT = (255, 255, 255)

#: Action types whose cards come from the hand (a French Tarot ``call`` names any King).
_HAND_CARD_ACTIONS = Words(
    {
        "play": lambda: p_("picture hint", "playable"),
        "discard": lambda: p_("picture hint", "may be discarded"),
        "poignee": lambda: p_("picture hint", "may be shown"),
    }
)


class HandScene(NamedTuple):
    """Everything a hand picture shows, as plain data (the cache key): its words in
    ``language``, which the card faces follow too."""

    game_id: str
    title: str
    header: Line
    cards: tuple[str, ...]
    groups: tuple[str, ...]
    legal: tuple[bool, ...]
    hint: str
    language: str = "en"
    empty: str = ""
    picked: tuple[bool, ...] = ()  # per card: picked for the choice being made
    new: tuple[bool, ...] = ()  # per card: just taken from the dog
    new_word: str = ""


def marked(scene: HandScene, i: int) -> tuple[bool, bool, str]:
    """Card ``i``'s marks: (picked, new, the word of the "new" badge)."""
    picked = bool(scene.picked) and scene.picked[i]
    new = bool(scene.new) and scene.new[i]
    return picked, new, scene.new_word


def _group(game_id: str, card: str) -> str:
    if game_id == "la_morte" and card in ("T1", "T13"):
        return "C" if card == "T1" else "LM"  # Il Bagatto is a club; La Morte stands alone
    return card[0]


def hand_scene(
    view: SeatView, *, game_id: str, title: str = "", picked: tuple[str, ...] = ()
) -> HandScene:
    """What ``render_hand`` draws for these arguments."""
    cards = tuple(view.hand)
    allowed: set[str] = set()
    hint = ""
    discarding = any(a.type == "discard" for a in view.legal)
    # The dog is public once revealed (french_tarot §3.4); the taker's hand holds it now.
    dog = set(view.public.info.get("dog") or ()) if discarding else set()
    for action in view.legal:
        if action.type not in _HAND_CARD_ACTIONS:
            continue
        chosen = set(action.cards or ()) | ({action.card} if action.card else set())
        if chosen & set(cards):
            allowed |= chosen
            hint = hint or _HAND_CARD_ACTIONS[action.type]
    legal = tuple(c in allowed for c in cards)
    count = len(cards)
    header: Line = ((" · " + n_("{n} card", "{n} cards", count), "muted"),)
    header += hand_trump(game_id, view.public)
    return HandScene(
        game_id=game_id,
        title=clean(title) or p_("picture", "Your hand"),
        header=header,
        cards=cards,
        groups=tuple(_group(game_id, c) for c in cards),
        legal=legal,
        hint=hint if any(legal) else "",
        language=language(),
        empty=p_("picture", "No cards left"),
        picked=tuple(c in picked for c in cards) if picked else (),
        new=tuple(c in dog for c in cards) if dog else (),
        new_word=p_("picture badge", "new") if dog else "",
    )


def _rows(n: int) -> list[int]:
    if n == 0:
        return []
    rows = (n + MAX_ROW - 1) // MAX_ROW
    base, extra = divmod(n, rows)
    return [base + 1 if r < extra else base for r in range(rows)]


def draw_hand(scene: HandScene) -> Image.Image:
    """The hand picture of ``scene`` (RGB)."""
    sizes = _rows(len(scene.cards))
    rows: list[list[int]] = []
    start = 0
    for size in sizes:
        rows.append(list(range(start, start + size)))
        start += size
    widths = []
    for row in rows:
        w = 0
        for j, i in enumerate(row):
            if j:
                w += GROUP_GAP if scene.groups[i] != scene.groups[row[j - 1]] else GAP
            w += TILE_W
        widths.append(w)
    width = max([MIN_WIDTH, *(w + 2 * PAD for w in widths)])
    row_h = RAISE + TILE_H + 10
    height = HEADER_H + PAD + (len(rows) * row_h if rows else 60) + PAD // 2
    with LOCK:
        img = Image.new("RGB", (width, height), FELT)
        draw = ImageDraw.Draw(img)
        draw.rectangle((0, 0, width, HEADER_H), fill=PANEL)
        hint_w = 0
        if scene.hint:
            hint = f"▲ {scene.hint}"
            hint_w = round(text_length(hint, 17, True)) + 12
            draw.text((width - PAD, 12), hint, font=font(17, True), fill=INK["hint"], anchor="ra")
        title, size = fit(scene.title, 20, True, (width - 2 * PAD - hint_w) // 2)
        draw.text((PAD, 11), title, font=font(size, True), fill=PANEL_TEXT)
        x = PAD + round(text_length(title, size, True))
        draw_line(draw, x, 13, scene.header, 17, width - PAD - hint_w - x)
        if not rows:
            draw.text(
                (width / 2, HEADER_H + PAD + 26),
                scene.empty,
                font=font(20),
                fill=PLATE_MUTED,
                anchor="mm",
            )
        tiles = deck_tiles(scene.game_id, scene.language)
        any_legal = any(scene.legal)
        for r, row in enumerate(rows):
            x = (width - widths[r]) // 2
            y = HEADER_H + PAD + r * row_h
            for j, i in enumerate(row):
                if j:
                    x += GROUP_GAP if scene.groups[i] != scene.groups[row[j - 1]] else GAP
                card, legal = scene.cards[i], scene.legal[i]
                paste_card(img, tiles, card, legal, any_legal, x, y, True, *marked(scene, i))
                x += TILE_W
        return img


def paste_card(
    img: Image.Image,
    tiles: DeckTiles,
    card: str,
    legal: bool,
    any_legal: bool,
    x: int,
    y: int,
    frame: bool = True,
    picked: bool = False,
    new: bool = False,
    new_word: str = "",
) -> None:
    """One card of a hand with its top-left corner at (x, y): a legal one framed in gold
    (unless ``frame`` is false: the caller frames it), the others ``RAISE`` pixels lower, and
    dimmed when some card is legal. A ``picked`` card is lowered too, undimmed, with a green
    ✓; a ``new`` one carries a ``new_word`` badge. Both marks sit in the card's left 44 px,
    which an overlapped row still shows."""
    if legal and not picked:
        if frame:
            paste_frame(img, x, y)
        tile = tiles.normal.get(card)
    else:
        tile = (tiles.dimmed if any_legal and not picked else tiles.normal).get(card)
        y += RAISE
    if tile is not None:
        img.paste(tile, (x, y), tile)
    draw = ImageDraw.Draw(img, "RGBA")
    box = (x, y, x + TILE_W - 1, y + TILE_H - 1)
    if new:
        # An orange edge, seen even where the next card or row covers most of this one.
        draw.rounded_rectangle(box, 8, outline=BADGE_NEW, width=4)
        if new_word:
            word, size = fit(new_word, 13, True, 40, smallest=9)
            w = round(text_length(word, size, True)) + 8
            top = y + TILE_H - 44  # above the card code
            draw.rounded_rectangle((x + 4, top, x + 4 + w, top + 17), 5, fill=BADGE_NEW)
            draw.text((x + 8, top + 9), word, font=font(size, True), fill=BADGE_TEXT, anchor="lm")
    if picked:
        # A green wash and edge over the whole card (any visible part of it shows it picked),
        # and a ✓ under its corner index.
        draw.rounded_rectangle(box, 8, fill=(*PICKED, 70), outline=PICKED, width=4)
        cx, cy, r = x + 21, y + 58, 13
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PICKED, outline=BADGE_TEXT, width=2)
        draw.text((cx, cy + 1), "✓", font=font(19, True), fill=BADGE_TEXT, anchor="mm")


def paste_frame(img: Image.Image, x: int, y: int) -> None:
    """The gold frame of a legal card whose top-left corner is at (x, y)."""
    img.paste(GLOW_FRAME, (x - GLOW, y - GLOW), GLOW_FRAME)
