"""Counted words in the pictures agree with their number in French and Italian (issue 31: a
French table picture read "1 plis" and "0 plis").

Every golden scene of every game is built again in French and Italian with each seat at one
trick won and one card in hand (then at none; each hand of one card), and every word the
table, hand and turn pictures would draw is read back from their scenes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import using
from bot.ui.pictures.hand import hand_scene
from bot.ui.pictures.table import table_scene
from bot.ui.pictures.turn import turn_scene
from tests.pictures.scenes import SCENES

#: A count of 0 or 1 with a plural noun: French counts both as one ("0 pli", "1 pli"),
#: Italian only 1 ("1 presa", "0 prese").
WRONG = {
    "fr": re.compile(r"(?<![\d.,])[01] (plis|cartes|donnes|atouts|levées)\b"),
    "it": re.compile(r"(?<![\d.,])1 (prese|carte|mani|smazzate|trionfi)\b"),
}


def _words(scene: Any) -> Iterator[str]:
    """Every string held anywhere in a scene (dataclasses, tuples, mappings)."""
    if isinstance(scene, str):
        yield scene
    elif dataclasses.is_dataclass(scene) and not isinstance(scene, type):
        for f in dataclasses.fields(scene):
            yield from _words(getattr(scene, f.name))
    elif isinstance(scene, tuple | list):
        for item in scene:
            yield from _words(item)
    elif isinstance(scene, dict):
        for value in scene.values():
            yield from _words(value)


@pytest.mark.parametrize("language", sorted(WRONG))
@pytest.mark.parametrize("count", [0, 1])
def test_counts_in_the_pictures_agree_with_their_number(language: str, count: int) -> None:
    seen = 0
    for scene in SCENES:
        n = scene.public.players
        public = dataclasses.replace(scene.public, tricks_won=(count,) * n, hand_sizes=(count,) * n)
        with using(language):
            built: list[Any] = [table_scene(public, game_id=scene.game_id, names=scene.names)]
            if scene.seat is not None:
                hand = scene.seat.hand[: max(count, 1)]  # "1 carte" above the hand
                seat = dataclasses.replace(scene.seat, public=public, hand=hand)
                built.append(hand_scene(seat, game_id=scene.game_id))
                built.append(turn_scene(seat, game_id=scene.game_id, names=scene.names))
        for text in (w for b in built for w in _words(b)):
            seen += 1
            assert not WRONG[language].search(text), (scene.name, language, text)
    assert seen > 100
