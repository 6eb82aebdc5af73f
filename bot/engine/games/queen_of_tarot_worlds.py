"""Queen of Tarot's ``sample_world`` for search (``shared/rules/queen_of_tarot.md``): a full
deal consistent with what one seat knows, read from its view and the public history (voids
shown by the play, declared cards, the discard's rules), replayed through the rules.
``QueenOfTarotRules`` binds ``sample_world`` as its method; its ``self`` is typed as the
engine's ``Rules`` contract (``new_deal``, ``apply``, ``observe``), so this module never
imports ``queen_of_tarot``, which imports it (ARCHITECTURE §5, no import circles).
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import TAROT_PACK
from bot.engine.games import queen_of_tarot_play as flow
from bot.engine.games import worlds
from bot.engine.games.queen_of_tarot_cards import (
    DISCARD_SIZE,
    FOOL,
    HONOURS,
    KINGS,
    PACKETS,
    PLAYERS,
    TRUMP,
    UNDISCARDABLE,
    roles,
)
from bot.engine.games.queen_of_tarot_declare import ABUNDANCE, KINGS_BONUS, MITIGATI, MIXED
from bot.engine.games.queen_of_tarot_state import QueenOfTarotState
from bot.engine.rules import Rules
from bot.engine.views import SeatView


def sample_world(self: Rules, view: SeatView, rng: Any) -> QueenOfTarotState:
    """A state showing ``view.seat`` exactly ``view``, the cards it cannot see (the other
    hands, the undealt stock in a random order, the dealer's discard) dealt uniformly among
    the deals the rules allow: a seat that did not follow is void in the suit led, and in
    trumps too if it did not trump a plain lead (§4.2; the Fool says nothing); declared
    cards are in the declarer's hand, and a declaration shows every King and honour held
    (Kings, Mitigati or mixed honours) or every trump held (Abundance) (C-2, C-3); the
    discard holds no King or honour (D-9)."""
    pub = view.public
    me, dealer = view.seat, pub.dealer
    info = pub.info
    hist = pub.history
    rounds: int = info["packets"]
    eldest, middle, _ = roles(dealer)
    plays = [(a.seat, a.card or "") for a in hist if a.type == "play"]
    played: list[list[str]] = [[] for _ in range(PLAYERS)]
    for t, c in plays:
        played[t].append(c)
    my_discard = list(view.info.get("discard", ()))
    hidden_discard = bool(info["discarded"]) and me != dealer
    known = set(view.hand) | {c for _, c in plays} | set(my_discard)
    others = [p for p in (eldest, middle, dealer) if p != me]
    held: dict[int, list[str]] = {p: [] for p in others}
    forbidden: list[set[str]] = [set(), set()]
    for d in info["declarations"]:
        p, shown = d["seat"], set(d["cards"])
        if p == me:
            continue
        k = others.index(p)
        held[p] += [c for c in d["cards"] if c not in known]
        known |= shown
        names = set(d["bonuses"])
        if names & {KINGS_BONUS, MITIGATI, MIXED}:
            forbidden[k] |= (set(KINGS) | set(HONOURS)) - shown
        if ABUNDANCE in names:
            forbidden[k] |= {c for c in TAROT_PACK if c[0] == TRUMP} - shown
    for i in range(0, len(plays), PLAYERS):
        led = None
        for t, c in plays[i : i + PLAYERS]:
            if c == FOOL:
                continue
            if led is None:
                led = c[0]
            elif c[0] != led and t != me:
                void = forbidden[others.index(t)]
                void |= flow.MEMBERS[led]
                if led != TRUMP and c[0] != TRUMP:
                    void |= flow.MEMBERS[TRUMP]
    unseen = [c for c in TAROT_PACK if c not in known]
    caps = [pub.hand_sizes[p] - len(held[p]) for p in others]
    dealt = sum(sum(PACKETS[r]) for r in range(rounds))
    caps.append(len(TAROT_PACK) - dealt)  # the stock
    forbidden.append(set())
    if hidden_discard:
        caps.append(DISCARD_SIZE)
        forbidden.append(set(UNDISCARDABLE))
    frozen_out = [frozenset(f) for f in forbidden]
    mine = worlds.play_order_hand(view.hand, view.legal)
    options = {"max_bargain": info["max_bargain"]}

    def attempt(rng: random.Random) -> QueenOfTarotState | None:
        parts = worlds.split_uniformly(unseen, caps, frozen_out, rng)
        discard = parts[3] if hidden_discard else my_discard
        seqs = {me: mine + played[me]}
        for k, p in enumerate(others):
            rng.shuffle(parts[k])
            seqs[p] = held[p] + parts[k] + played[p]
        if discard:
            seqs[dealer] = seqs[dealer] + list(discard)
        stock = parts[2]
        rng.shuffle(stock)
        deck: list[str] = []
        taken = {p: 0 for p in range(PLAYERS)}
        for r, sizes in enumerate(PACKETS):
            for p, size in zip((eldest, middle, dealer), sizes, strict=True):
                if r < rounds:
                    deck += seqs[p][taken[p] : taken[p] + size]
                    taken[p] += size
        deck += stock

        def fill(_state: Any, a: Action) -> Action:
            if a.type == "discard" and a.cards is None:
                return Action("discard", a.seat, cards=tuple(discard))
            return a

        start = self.new_deal(PLAYERS, options, deck, dealer)
        state = worlds.replay(self, start, hist, fill)
        return state if state is not None and self.observe(state, me) == view else None

    return worlds.draw(attempt, rng)
