"""What each game's table picture says, read from its ``PublicView`` only.

``table_facts`` turns a view into plain, hashable data (tuples of strings): the seats' roles
and calls, the lines of the side panel (trumps, contract…), the public cards worth showing
(La Morte's talon, French Tarot's called King and dog…), and the led suit. Nothing here
sees a hand: the argument is a ``PublicView``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from bot.engine.views import PublicView

#: A run of text and the name of its ink (see ``_style.INK``).
Segment = tuple[str, str]
Line = tuple[Segment, ...]

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORD = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}

PHASE_WORDS = {
    "auction": "Auction",
    "dealer_option": "Dealer's option",
    "bidding": "Bidding",
    "call": "Calling a King",
    "discard": "Discard",
    "chelem": "Chelem announcement",
    "trump": "Naming trumps",
    "bargain": "Bargaining",
    "declare": "Declarations",
    "play": "Play",
    "scored": "Deal over",
    "done": "Deal over",
    "mucked": "Deal mucked",
}
CONTRACT_WORDS = {
    "pass": "Pass",
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
}
BONUS_WORDS = {
    "abundance": "Abundance",
    "kings": "Kings",
    "mitigati": "Mitigati",
    "mixed_honours": "Mixed Honours",
}


class TableFacts(NamedTuple):
    """Game-specific content of a table picture (all public)."""

    roles: tuple[tuple[str, ...], ...]  # per seat: role words ("maker", "taker"…)
    notes: tuple[str, ...]  # per seat: the latest call or bid, or another short fact
    lines: tuple[Line, ...]  # side panel text
    cards: tuple[tuple[str, tuple[str, ...]], ...]  # side panel: (caption, public cards)
    led: str | None  # suit to follow: S H D C, or T (trumps)
    centre: tuple[str, ...]  # a hint under the phase name when there is no trick


def phase_word(phase: str) -> str:
    return PHASE_WORDS.get(phase, phase.replace("_", " ").capitalize())


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _trump_line(trump: object) -> Line:
    if isinstance(trump, str) and trump in SUIT_SYMBOL:
        return (("Trumps ", "text"), (f"{SUIT_SYMBOL[trump]} {SUIT_WORD[trump]}", trump))
    return (("Trumps not named yet", "muted"),)


def _first_suit(trick: Sequence[tuple[int, str]]) -> str | None:
    """The suit of the first card that is not the Excuse (``T`` for a trump)."""
    for _, card in trick:
        if card != "EX":
            return "T" if card[0] == "T" else card[0]
    return None


def _fool_debt(info: dict[str, Any], names: Sequence[str]) -> Line | None:
    fool = info.get("fool")
    if isinstance(fool, dict):
        debtor, creditor = fool.get("debtor"), fool.get("creditor")
    else:
        debtor, creditor = info.get("fool_owner"), info.get("fool_creditor")
    if debtor is None or creditor is None:
        return None
    return (
        ("Fool: ", "EX"),
        (f"{_name(names, debtor)} owes {_name(names, creditor)} a card", "text"),
    )


# ---- per game ---------------------------------------------------------------------------


def _la_morte(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    auction = view.phase in ("auction", "dealer_option")
    statuses = list(info.get("statuses") or ())
    roles: list[tuple[str, ...]] = []
    for seat in range(n):
        words: list[str] = []
        status = statuses[seat] if seat < len(statuses) else None
        if not auction and status in ("maker", "defender", "dropper"):
            words.append("dropped" if status == "dropper" else str(status))
        if info.get("morto") == seat:
            words.append("il Morto")
        if info.get("fuori") == seat:
            words.append("Fuori dal Tempo")
        roles.append(tuple(words))
    notes = [""] * n
    if auction:
        for seat, call, amount in info.get("auction") or ():
            if 0 <= seat < n:
                notes[seat] = f"bid {amount}" if call == "bid" else str(call)
    trump, talon = info.get("trump"), info.get("talon")
    lines: list[Line] = []
    if trump in SUIT_SYMBOL:
        lines.append(_trump_line(trump))
    elif talon is not None:
        lines.append((("No trumps", "text"), (" (La Morte turned up)", "muted")))
    contract = info.get("contract")
    if contract is not None:
        tail = (" · no defenders", "muted") if info.get("auto_contract") else ("", "text")
        lines.append(
            (
                ("Contract ", "text"),
                (str(contract), "T"),
                (f" by {_name(names, info.get('maker'))}", "text"),
                tail,
            )
        )
    elif view.phase == "dealer_option":
        lines.append((("Everyone dropped", "text"),))
    elif info.get("high_bid"):
        who = _name(names, info.get("high_bidder"))
        lines.append((("High bid ", "text"), (str(info["high_bid"]), "T"), (f" by {who}", "text")))
    elif auction:
        lines.append((("No bid yet", "muted"),))
    if info.get("set_aside"):
        lines.append(((f"{info['set_aside']} cards set aside, unseen", "muted"),))
    led = None
    if view.trick:
        first = view.trick[0][1]
        led = (
            (trump if trump in SUIT_SYMBOL else None)
            if first == "T13"
            else "C"
            if first == "T1"
            else first[0]
        )
    centre: tuple[str, ...] = ()
    if view.phase == "dealer_option":
        centre = (f"{_name(names, view.dealer)} (dealer) may bid or muck",)
    elif auction:
        centre = ("Bid, accept or drop",)
    return TableFacts(
        tuple(roles),
        tuple(notes),
        tuple(lines),
        (("Talon", (talon,)),) if isinstance(talon, str) else (),
        led,
        centre,
    )


def _early_french_tarot(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    taken = list(info.get("taken") or ())
    notes = tuple(f"{taken[s]} cards won" if s < len(taken) and taken[s] else "" for s in range(n))
    lines: list[Line] = [(("Trumps I–XXI", "T"), (" · the Fool excuses", "muted"))]
    debt = _fool_debt(info, names)
    if debt:
        lines.append(debt)
    if info.get("set_aside"):
        lines.append(((f"{info['set_aside']} cards set aside, unseen", "muted"),))
    led = info.get("led") if info.get("led") in ("S", "H", "D", "C", "T") else None
    return TableFacts(((),) * n, notes, tuple(lines), (), led or _first_suit(view.trick), ())


def _french_tarot(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    roles: list[list[str]] = [[] for _ in range(n)]
    taker, partner = info.get("taker"), info.get("partner")
    if isinstance(taker, int) and 0 <= taker < n:
        roles[taker].append("taker")
    if isinstance(partner, int) and 0 <= partner < n and partner != taker:
        roles[partner].append("partner")
    notes = [""] * n
    if view.phase == "bidding":
        for seat, bid in info.get("bids") or ():
            if 0 <= seat < n:
                notes[seat] = CONTRACT_WORDS.get(bid, str(bid))
    for p in info.get("poignees") or ():
        seat = p.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            roles[seat].append(f"poignée of {len(p.get('cards') or ())}")
    lines: list[Line] = []
    contract = info.get("contract")
    if contract:
        lines.append(
            (
                (CONTRACT_WORDS.get(contract, str(contract)), "T"),
                (f" by {_name(names, taker)}", "text"),
            )
        )
    elif view.phase == "bidding":
        lines.append((("No contract yet", "muted"),))
    if info.get("alone"):
        lines.append((("The taker plays alone", "text"),))
    if info.get("chelem"):
        lines.append((("Chelem announced", "T"),))
    cards: list[tuple[str, tuple[str, ...]]] = []
    if info.get("called"):
        cards.append(("Called", (info["called"],)))
    if info.get("dog"):
        cards.append(("Dog", tuple(info["dog"])))
    if info.get("discarded_trumps"):
        cards.append(("Trumps discarded", tuple(info["discarded_trumps"])))
    return TableFacts(
        tuple(tuple(r) for r in roles),
        tuple(notes),
        tuple(lines),
        tuple(cards),
        _first_suit(view.trick),
        ("Each player speaks once",) if view.phase == "bidding" else (),
    )


def _losers_game(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    roles: list[tuple[str, ...]] = [()] * n
    caller = info.get("caller")
    if isinstance(caller, int) and 0 <= caller < n:
        roles[caller] = ("names trumps" if view.phase == "trump" else "named trumps",)
    notes = [""] * n
    for seat, amount in info.get("bids") or ():
        if 0 <= seat < n:
            notes[seat] = f"bid {amount}"
    lines: list[Line] = [_trump_line(info.get("trump"))]
    if view.phase == "bidding" and info.get("b_max") is not None:
        lines.append(((f"Bids 0–{info['b_max']}", "muted"),))
    excess = tuple(info.get("excess") or ())
    centre = ()
    if view.phase == "trump":
        centre = (f"{_name(names, caller)} names trumps",)
    elif view.phase == "bidding":
        centre = ("Bid the points you will take",)
    return TableFacts(
        tuple(roles),
        tuple(notes),
        tuple(lines),
        (("Face up, out of play", excess),) if excess else (),
        view.trick[0][1][0] if view.trick else None,
        centre,
    )


def _queen_of_tarot(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    role_of = info.get("roles") or {}
    roles: list[tuple[str, ...]] = [()] * n
    for word in ("eldest", "middle"):
        seat = role_of.get(word)
        if isinstance(seat, int) and 0 <= seat < n:
            roles[seat] = (word,)
    notes = [""] * n
    lines: list[Line] = []
    bargain = info.get("bargain") or {}
    if view.phase == "bargain":
        for seat, pos in enumerate(bargain.get("positions") or ()):
            if seat >= n:
                break
            if pos.get("position") == "demand":
                notes[seat] = f"demands {pos.get('amount')}"
            elif pos.get("position") == "offer":
                notes[seat] = f"offers {pos.get('amount')}"
            elif isinstance(pos.get("last"), dict) and pos["last"].get("call"):
                notes[seat] = str(pos["last"]["call"])
        if bargain.get("session") is not None:
            lines.append(((f"Session {bargain['session']} of 3", "text"),))
            lines.append(
                (
                    (f"Demanded {bargain.get('demanded', 0)}", "H"),
                    (" · ", "muted"),
                    (f"offered {bargain.get('offered', 0)}", "C"),
                )
            )
    else:
        for d in info.get("declarations") or ():
            seat, bonuses = d.get("seat"), d.get("bonuses") or ()
            if isinstance(seat, int) and 0 <= seat < n and bonuses:
                notes[seat] = " + ".join(BONUS_WORDS.get(b, str(b)) for b in bonuses)
        lines.append((("Trumps: ", "text"), ("XX (Angel) beats XXI", "T")))
    debt = _fool_debt(info, names)
    if debt:
        lines.append(debt)
    settlement = info.get("settlement")
    if isinstance(settlement, dict) and settlement.get("deltas"):
        deltas = settlement["deltas"]
        lines.append((("Thrown in after bargaining", "text"),))
        lines.append(
            tuple(
                (f"{_name(names, s)} {d:+d}" + (" · " if s < len(deltas) - 1 else ""), "text")
                for s, d in enumerate(deltas)
            )
        )
    led = info.get("led") if info.get("led") in ("S", "H", "D", "C", "T") else None
    centre = ()
    if view.phase == "bargain":
        centre = ("Pass, demand, offer or continue",)
    elif view.phase == "discard":
        centre = (f"{_name(names, view.dealer)} (dealer) discards 3 cards",)
    return TableFacts(
        tuple(roles), tuple(notes), tuple(lines), (), led or _first_suit(view.trick), centre
    )


def _generic(view: PublicView, names: Sequence[str]) -> TableFacts:
    return TableFacts(
        ((),) * view.players, ("",) * view.players, (), (), _first_suit(view.trick), ()
    )


_GAMES: dict[str, Callable[[PublicView, Sequence[str]], TableFacts]] = {
    "la_morte": _la_morte,
    "early_french_tarot": _early_french_tarot,
    "french_tarot": _french_tarot,
    "losers_game": _losers_game,
    "queen_of_tarot": _queen_of_tarot,
}


def table_facts(game_id: str, view: PublicView, names: Sequence[str]) -> TableFacts:
    """The game-specific facts of ``view`` (a plain layout for an unknown game)."""
    return _GAMES.get(game_id, _generic)(view, names)


def hand_trump(game_id: str, view: PublicView) -> Line:
    """The trump suit for a hand picture's header, in games where a suit is trumps."""
    if game_id in ("la_morte", "losers_game"):
        trump = view.info.get("trump")
        if trump in SUIT_SYMBOL:
            return ((" · trumps ", "muted"), (f"{SUIT_SYMBOL[trump]} {SUIT_WORD[trump]}", trump))
        if game_id == "la_morte" and view.info.get("talon") is not None:
            return ((" · no trumps", "muted"),)
    return ()
