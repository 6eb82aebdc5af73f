"""What must hold after every step: the stored snapshot equals a replay of the action log,
cards are conserved, and no card (or French Tarot partner) hidden from someone reaches them.

The per-game rules of conservation and hiding are the engine tests' own (``tests/engine``);
a game without them here (a new one) still gets the replay check and "no card of another
hand" privacy.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

from bot.db.tables import TableRecord
from bot.engine import match
from bot.engine.codec import parse_action
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.services.tables import TableService
from bot.ui.games import renderer
from bot.ui.text.cards import label, long_name
from bot.ui.text.locale import for_game
from tests.e2e.test_french_tarot_e2e import secret_markers
from tests.engine import test_early_french_tarot_properties as eft
from tests.engine import test_french_tarot_properties as ft
from tests.engine import test_invariants as lm
from tests.engine import test_losers_game_properties as lg
from tests.engine import test_queen_of_tarot_properties as qt
from tests.engine.test_early_french_tarot_properties import strings


def _la_morte_conserved(s: Any) -> bool:
    return sorted(lm._cards_accounted(s)) == sorted(get_rules("la_morte").pack(s.players))  # pyright: ignore[reportPrivateUsage]


CONSERVED: dict[str, Callable[[Any], bool]] = {
    "la_morte": _la_morte_conserved,
    "french_tarot": ft.conserved,
    "early_french_tarot": eft.conserved,
    "losers_game": lg.conserved,
    "queen_of_tarot": qt.conserved,
}
HIDDEN: dict[str, Callable[[Any], set[str]]] = {
    "la_morte": lm._hidden,  # pyright: ignore[reportPrivateUsage]
    "french_tarot": ft.hidden,
    "early_french_tarot": eft.hidden,
    "losers_game": lg.hidden,
    "queen_of_tarot": qt.hidden,
}


def hidden_cards(m: MatchState) -> set[str]:
    """Cards of the current deal nobody may see but their holder."""
    if m.deal is None:
        return set()
    rule = HIDDEN.get(m.game_id)
    if rule is not None:
        return rule(m.deal)
    return {c for hand in getattr(m.deal, "hands", ()) for c in hand}


def known_to(m: MatchState, seat: int | None) -> set[str]:
    """Every card string in what ``seat`` may see (its own view), or the public view."""
    if m.deal is None:
        return set()
    rules = m.rules
    if seat is None:
        return strings(rules.observe_public(m.deal).to_json())
    view = rules.observe(m.deal, seat)
    return (
        set(view.hand)
        | strings(view.public.to_json())
        | strings(view.info)
        | strings([a.to_json() for a in view.legal])
    )


_SECRETS: dict[tuple[int, int | None], tuple[MatchState, frozenset[str]]] = {}


def secret_from(m: MatchState, seat: int | None) -> frozenset[str]:
    """Hidden cards that ``seat`` (None: the channel) must never be shown (memoised: states
    are immutable, and one is scanned many times)."""
    hit = _SECRETS.get((id(m), seat))
    if hit is not None and hit[0] is m:
        return hit[1]
    if len(_SECRETS) > 512:
        _SECRETS.clear()
    out = frozenset(hidden_cards(m) - known_to(m, seat))
    _SECRETS[(id(m), seat)] = (m, out)
    return out


def partner_secret_from(m: MatchState, seat: int | None) -> bool:
    """French Tarot at 5: the called card's holder is secret (but not to that holder)."""
    if m.game_id != "french_tarot" or m.deal is None or not ft.secret_partner(m.deal):
        return False
    return seat is None or seat != m.deal.partner


class Ledger:
    """Replays one table's action log as it grows and checks it against the stored row.

    ``check()`` after every step: a refused request must leave ``seq`` and the snapshot
    untouched; a change must be exactly the new log entries applied to the previous state
    (the same replay as ``TableService.replay``, done incrementally), with cards conserved.
    """

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.seq = 0
        self.snapshot_json: str | None = None
        self.m: MatchState | None = None
        self.rec: TableRecord | None = None
        self.changes = 0

    @property
    def status(self) -> str:
        return "" if self.rec is None else self.rec.status

    @property
    def message_id(self) -> int | None:
        """The table's public message (the current deal's, while in play)."""
        return None if self.rec is None else self.rec.message_id

    async def check(self, service: TableService) -> MatchState | None:
        rec = await service.store.get(self.table_id)
        assert rec is not None, f"table {self.table_id} vanished"
        self.rec = rec
        if rec.seq == self.seq:
            assert rec.snapshot_json == self.snapshot_json, "snapshot changed without a log entry"
            return self.m
        assert rec.seq > self.seq, f"seq went back from {self.seq} to {rec.seq}"
        entries = [e for e in await service.store.log(self.table_id) if e.seq > self.seq]
        # Entries keep their commit's numbers; a commit without entries (an ended table,
        # "I'm back") moves seq alone, so a gap is one such commit and nothing was lost.
        seqs = [e.seq for e in entries]
        assert seqs == sorted(set(seqs)) and all(q <= rec.seq for q in seqs), "log disorder"
        m = self.m
        for e in entries:
            if e.kind == "deal":
                if m is None:
                    m = match.new_match(rec.game_id, rec.players, rec.options, e.payload["dealer"])
                assert e.payload["dealer"] == m.dealer, f"log seq {e.seq}: dealer mismatch"
                m = match.start_deal(m, e.payload["deck"])
            elif e.kind == "act":
                assert m is not None, "an action before the first deal"
                m, _ = match.apply(m, parse_action(m.rules, e.payload, m.players))
        if m is not None:
            assert rec.snapshot is not None
            assert match.from_json(rec.snapshot) == m, f"snapshot != replay at seq {rec.seq}"
            conserved = CONSERVED.get(m.game_id)
            if conserved is not None and m.deal is not None:
                assert conserved(m.deal), f"cards not conserved at seq {rec.seq}"
        self.m, self.seq, self.snapshot_json = m, rec.seq, rec.snapshot_json
        self.changes += 1
        return m


# ---- reading cards in what Discord shows ---------------------------------------------------


def _texts(obj: Any) -> list[str]:
    """Every string inside ``obj`` (nested dicts and lists), in order."""
    out: list[str] = []
    stack: list[Any] = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(item, list):
            stack.extend(reversed(item))  # pyright: ignore[reportUnknownArgumentType]
    return out


#: message id -> (content, embeds, components, text): the text of what the message held when
#: last read, kept with the very objects it was read from.
_TEXTS: dict[int, tuple[Any, Any, Any, str]] = {}


def message_text(message: Any) -> str:
    """Everything a stored (SimCord backend) message shows: content, embeds, components.

    Memoised: the fuzz reads every message of the current deal after each interaction, and
    most did not change. SimCord's edits assign a new content, embeds list and components list
    (``MessageOps.edit_message``), never change them in place, so the same three objects mean
    the same text (they are kept here, so their identities cannot be reused)."""
    content, embeds, components = message.content, message.embeds, message.components
    hit = _TEXTS.get(message.id)
    if hit is not None and hit[0] is content and hit[1] is embeds and hit[2] is components:
        return hit[3]
    if len(_TEXTS) > 4096:
        _TEXTS.clear()
    text = "\n".join([content or "", *_texts(embeds), *_texts(components)])
    _TEXTS[message.id] = (content, embeds, components, text)
    return text


class CardReader:
    """Finds the cards a text shows, as one game writes them: labels, codes and names."""

    def __init__(self, game_id: str) -> None:
        rules = get_rules(game_id)
        r = renderer(game_id)
        labels = getattr(r, "CARD_LABELS", {})
        names = getattr(r, "CARD_NAMES", {})
        pack: set[str] = set()
        for n in range(rules.min_players, rules.max_players + 1):
            pack |= set(rules.pack(n))
        self.card_of: dict[str, str] = {}
        # As the bot writes them: in the game's own pack (Queen of Tarot's Italian suits), and
        # in the default one (a text written outside a table's words).
        for words in (contextlib.nullcontext(), for_game(game_id)):
            with words:
                for card in pack:
                    for token in (card, label(card, labels), long_name(card, names)):
                        if token not in r.TITLE:  # La Morte's trump 13 is also the game's name
                            self.card_of[token] = card
        tokens = sorted(self.card_of, key=len, reverse=True)
        self._pattern = re.compile(
            r"(?<![0-9A-Za-z])(" + "|".join(map(re.escape, tokens)) + r")(?![0-9A-Za-z])"
        )
        self._seen: dict[str, frozenset[str]] = {}

    def cards(self, text: str) -> frozenset[str]:
        # Memoised: the fuzz scans the same table and hand texts after many interactions.
        found = self._seen.get(text)
        if found is None:
            if len(self._seen) > 4096:
                self._seen.clear()
            found = frozenset(self.card_of[t] for t in self._pattern.findall(text))
            self._seen[text] = found
        return found


def leaks(reader: CardReader, m: MatchState | None, seat: int | None, text: str) -> list[str]:
    """What ``text`` (shown to ``seat``, or to the channel if None) must not show."""
    if m is None or m.deal is None:
        return []
    found = sorted(reader.cards(text) & secret_from(m, seat))
    if partner_secret_from(m, seat) and secret_markers(text):
        found.append("the secret partner")
    return found
