"""An independent reading of ``rules/french_tarot_17c.md`` used to write test expectations.

Nothing here imports the engine's rules: trick winners, the Fool exchange (§4.4, D-8…D-10,
C-1, C-2) and the hand score (§5.1) are re-derived from the spec's text so that scenario
expectations and property checks never read the engine's own answers back.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")  # Ace low
HONOURS = {"EX": 5, "T21": 4, "T1": 4}  # §1 table
for _suit in "SHDC":
    HONOURS |= {f"{_suit}K": 4, f"{_suit}Q": 3, f"{_suit}C": 2, f"{_suit}J": 1}


def suit(card: str) -> str:
    return "EX" if card == "EX" else card[0]


def strength(card: str) -> int:
    return int(card[1:]) if card[0] == "T" else RANKS.index(card[1:])


def winner(trick: Sequence[tuple[int, str]]) -> int:
    """§4.3: highest trump, else highest card of the led suit; the Fool never wins."""
    real = [(s, c) for s, c in trick if c != "EX"]
    trumps = [(strength(c), s) for s, c in real if c[0] == "T"]
    if trumps:
        return max(trumps)[1]
    led = suit(real[0][1])  # D-6: after a Fool lead the next card sets the suit
    return max((strength(c), s) for s, c in real if suit(c) == led)[1]


def legal(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> list[str]:
    """§4.2 with D-6/D-7: follow, else any trump, else anything; the Fool always allowed."""
    real = [c for _, c in trick if c != "EX"]
    if not real:
        return list(hand)
    led = suit(real[0])
    follow = [c for c in hand if suit(c) == led]
    trumps = [c for c in hand if c[0] == "T"]
    allowed = follow or trumps or list(hand)
    if "EX" in hand and "EX" not in allowed:
        allowed.append("EX")
    return allowed


def piles(players: int, plays: Sequence[tuple[int, str]]) -> list[list[str]]:
    """Final piles after 12 complete tricks given as one list of ``(seat, card)`` plays."""
    out: list[list[str]] = [[] for _ in range(players)]
    debt: tuple[int, int] | None = None  # (debtor, creditor)

    def give(giver: int, to: int) -> None:
        # D-8, C-1: lowest honour, then the earliest won (piles are in won/play order).
        pick = min((HONOURS.get(c, 0), i) for i, c in enumerate(out[giver]) if c != "EX")
        out[to].append(out[giver].pop(pick[1]))

    for k in range(12):
        trick = plays[k * players : (k + 1) * players]
        w = winner(trick)
        fool = next((s for s, c in trick if c == "EX"), None)
        out[w].extend(c for _, c in trick if c != "EX")
        if fool is not None:
            had = len(out[fool]) > 0
            out[fool].append("EX")
            if had:
                give(fool, w)
            else:
                debt = (fool, w)
        elif debt is not None and w == debt[0]:
            give(debt[0], debt[1])  # C-2: right after the debtor's first won trick
            debt = None
    if debt is not None:  # D-10: no trick won at all, the Fool itself is surrendered
        out[debt[0]].remove("EX")
        out[debt[1]].append("EX")
    return out


def scores(players: int, plays: Sequence[tuple[int, str]], every_card: bool = False) -> list[int]:
    """§5.1: ``max(0, C − 12) + H`` (or ``C + H`` with the every-card option)."""
    out: list[int] = []
    for pile in piles(players, plays):
        c = len(pile)
        h = sum(HONOURS.get(x, 0) for x in pile)
        out.append((c if every_card else max(0, c - 12)) + h)
    return out


def hands(players: int, dealer: int, deck: Sequence[str]) -> list[list[str]]:
    """Canonical deal (D-3): card i to seat ``(dealer + 1 + i mod N) mod N``."""
    out: list[list[str]] = [[] for _ in range(players)]
    for i in range(12 * players):
        out[(dealer + 1 + i % players) % players].append(deck[i])
    return out


def deck_for(
    players: int, dealer: int, hands: Sequence[Sequence[str]], aside: Sequence[str]
) -> list[str]:
    """Inverse of the canonical deal: the deck that deals ``hands`` and sets ``aside`` aside."""
    deck: list[str] = []
    for i in range(12):
        for k in range(players):
            deck.append(hands[(dealer + 1 + k) % players][i])
    return deck + list(aside)
