"""Rewrite the golden pictures of ``tests/pictures/golden/`` from ``scenes.SCENES``.

    .venv/bin/python -m tests.pictures.regenerate

Run it after an intended change to the pictures, look at the new PNGs, and commit them with
the change. ``<scene>_table.png`` is every scene's table; ``<scene>_hand.png`` its hand and
``<scene>_turn.png`` that seat's turn picture (the table above the hand, with made-up scores).
"""

from __future__ import annotations

from pathlib import Path

from bot.ui.pictures import clear_caches, render_hand, render_table, render_turn
from bot.ui.text.winner import winning_seat
from tests.pictures.scenes import SCENES, Scene

GOLDEN = Path(__file__).resolve().parent / "golden"


def scores(players: int) -> tuple[int, ...]:
    """Made-up running totals, negative, nought and positive."""
    return tuple((-50, 0, 124, -13, 61, 7)[:players])


def pictures(scene: Scene) -> dict[str, bytes]:
    """The golden files of ``scene``: name -> PNG bytes."""
    out = {
        f"{scene.name}_table.png": render_table(
            scene.public,
            game_id=scene.game_id,
            names=scene.names,
            markers=scene.markers,
            winning=winning_seat(scene.public),
        )
    }
    if scene.seat is not None:
        out[f"{scene.name}_hand.png"] = render_hand(scene.seat, game_id=scene.game_id)
        out[f"{scene.name}_turn.png"] = render_turn(
            scene.seat,
            game_id=scene.game_id,
            names=scene.names,
            markers=scene.markers,
            winning=winning_seat(scene.public),
            scores=scores(scene.public.players),
        )
    return out


def main() -> None:
    clear_caches(faces=True)
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.png"):
        old.unlink()
    for scene in SCENES:
        for name, data in pictures(scene).items():
            (GOLDEN / name).write_bytes(data)
            print(f"wrote {GOLDEN / name} ({len(data) / 1024:.1f} KB)")


if __name__ == "__main__":
    main()
