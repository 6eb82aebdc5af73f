"""Why the computer did it, end to end through SimCord (issue 33): at a La Morte table with two
computer players, the public table shows a line saying why each computer bid, accepted or
dropped, in the table's language, naming no card of any hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.services import compute
from tests.e2e.helpers import dm_hand, embed_text, has_controls, said, take_turn

#: A reason line as the table shows it in French: "🤖 Bot Arturo : **annonce 3** — ouvre…".
LINE = re.compile(r"🤖 Bot \w+\u00a0: \*\*[^*]+\*\* — (.+)")
#: Words of the reasons La Morte's auction gives (``bot.ui.text.explain``), in French.
FRENCH = ("enchères", "surenchérit", "joue contre le contrat", "se retire", "couper")


@pytest.fixture(autouse=True)
def in_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The casual computers decide in this process (no worker processes to start)."""
    with ThreadPoolExecutor(1) as here:
        monkeypatch.setattr(compute, "process_pool", lambda: here)
        yield


async def test_the_table_says_why_a_computer_bid(world: tuple[Any, ...]) -> None:
    _env, _guild, channel, alice, _bob, _carol = world
    r = await alice.slash(channel, "lamorte new", seats=3, computers=2, language="fr")
    assert r.acknowledged, said(r).content
    assert (await alice.click(channel.last_message, label="Lancer")).acknowledged
    seen: list[str] = []
    for _ in range(12):  # the auction, then a few tricks
        seen += [m.group(1) for m in LINE.finditer(embed_text(channel.history()[0]))]
        hand = dm_hand(alice)
        if seen or not has_controls(hand):
            break
        assert hand is not None
        await take_turn(alice, hand)
    assert seen, embed_text(channel.history()[0])
    assert all(any(word in why for word in FRENCH) for why in seen), seen
    # The table is the channel's: no line names a card (La Morte's cards read "7♠", "R♥"…).
    assert not any(re.search(r"\d♠|\d♥|\d♦|\d♣|[RDCV][♠♥♦♣]", why) for why in seen), seen
