"""What each game's table picture says, read from its ``PublicView`` only.

``table_facts`` turns a view into plain, hashable data (tuples of strings): the seats' roles
and calls, the lines of the side panel (trumps, contract…), the public cards worth showing
(La Morte's talon, French Tarot's called King and dog…), and the led suit. Nothing here
sees a hand: the argument is a ``PublicView``.

The words are the current language's (the ``pictures`` catalogs): each game's own terms,
told apart by a message context where one English word means two things (a La Morte bid is
not a Loser's Game bid; the Fool is "Fou" in Early French Tarot and "Mat" in Queen of Tarot).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from bot.engine.views import PublicView
from bot.i18n import Words, n_, p_
from bot.ui.pictures._words import Line, Segment, styled
from bot.ui.text.cards import suit_word

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

PHASE_WORDS = Words(
    {
        "auction": lambda: p_("picture phase", "Auction"),
        "dealer_option": lambda: p_("picture phase", "Dealer's option"),
        "bidding": lambda: p_("picture phase", "Bidding"),
        "call": lambda: p_("picture phase", "Calling a King"),
        "discard": lambda: p_("picture phase", "Discard"),
        "chelem": lambda: p_("picture phase", "Chelem announcement"),
        "trump": lambda: p_("picture phase", "Naming trumps"),
        "bargain": lambda: p_("picture phase", "Bargaining"),
        "declare": lambda: p_("picture phase", "Declarations"),
        "play": lambda: p_("picture phase", "Play"),
        "scored": lambda: p_("picture phase", "Deal over"),
        "done": lambda: p_("picture phase", "Deal over"),
        "mucked": lambda: p_("picture phase", "Deal mucked"),
    }
)
CONTRACT_WORDS = Words(
    {
        "pass": lambda: p_("picture french_tarot", "Pass"),
        "prise": lambda: p_("picture french_tarot", "Prise"),
        "garde": lambda: p_("picture french_tarot", "Garde"),
        "garde_sans": lambda: p_("picture french_tarot", "Garde sans"),
        "garde_contre": lambda: p_("picture french_tarot", "Garde contre"),
    }
)
# The same words as the Queen of Tarot text (bot.ui.games.queen_of_tarot.BONUS_WORDS).
BONUS_WORDS = Words(
    {
        "abundance": lambda: p_("queen_of_tarot bonus", "Abundance"),
        "kings": lambda: p_("queen_of_tarot bonus", "Kings"),
        "mitigati": lambda: p_("queen_of_tarot bonus", "Mitigati"),
        "mixed_honours": lambda: p_("queen_of_tarot bonus", "Mixed Honours"),
    }
)
# La Morte's roles, as its text names them (bot.ui.games.la_morte.ROLE_NAME).
_LA_MORTE_ROLES = Words(
    {
        "maker": lambda: p_("la_morte role", "maker"),
        "defender": lambda: p_("la_morte role", "defender"),
        "dropper": lambda: p_("picture la_morte", "dropped"),
    }
)
_LA_MORTE_CALLS = Words(
    {
        "accept": lambda: p_("picture la_morte", "accept"),
        "drop": lambda: p_("picture la_morte", "drop"),
        "muck": lambda: p_("picture la_morte", "muck"),
    }
)
_QUEEN_ROLES = Words(
    {
        "eldest": lambda: p_("queen_of_tarot role", "eldest"),
        "middle": lambda: p_("queen_of_tarot role", "middle"),
    }
)
_QUEEN_CALLS = Words(
    {
        "pass": lambda: p_("queen_of_tarot call", "pass"),
        "demand": lambda: p_("queen_of_tarot call", "demand"),
        "offer": lambda: p_("queen_of_tarot call", "offer"),
        "continue": lambda: p_("queen_of_tarot call", "continue"),
    }
)
#: The Fool's name where a picture says who owes a card for it.
_FOOL = Words(
    {
        "early_french_tarot": lambda: p_("picture early_french_tarot", "Fool"),
        "queen_of_tarot": lambda: p_("picture queen_of_tarot", "Fool"),
    }
)


class TableFacts(NamedTuple):
    """Game-specific content of a table picture (all public)."""

    roles: tuple[tuple[str, ...], ...]  # per seat: role words ("maker", "taker"…)
    notes: tuple[str, ...]  # per seat: the latest call or bid, or another short fact
    lines: tuple[Line, ...]  # side panel text
    cards: tuple[tuple[str, tuple[str, ...]], ...]  # side panel: (caption, public cards)
    led: str | None  # suit to follow: S H D C, or T (trumps)
    centre: tuple[str, ...]  # a hint under the phase name when there is no trick


#: Phases a game names its own way (Loser's Game bids the points it will take; Queen of
#: Tarot plays hands, not deals).
_GAME_PHASE_WORDS: dict[tuple[str, str], Callable[[], str]] = {
    ("losers_game", "bidding"): lambda: p_("picture losers_game", "Bidding"),
    ("queen_of_tarot", "scored"): lambda: p_("picture queen_of_tarot", "Deal over"),
    ("queen_of_tarot", "done"): lambda: p_("picture queen_of_tarot", "Deal over"),
}


def phase_word(phase: str, game_id: str = "") -> str:
    """The phase's name in the current language (an unknown phase: its code, spaced)."""
    own = _GAME_PHASE_WORDS.get((game_id, phase))
    if own is not None:
        return own()
    if phase in PHASE_WORDS:
        return PHASE_WORDS[phase]
    return phase.replace("_", " ").capitalize()


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _word(words: Words, code: object) -> str:
    return words[code] if isinstance(code, str) and code in words else str(code)


def _suit(trump: str) -> Segment:
    return (f"{SUIT_SYMBOL[trump]} {suit_word(trump)}", trump)


def _trump_line(trump: object) -> Line:
    if isinstance(trump, str) and trump in SUIT_SYMBOL:
        return styled(p_("picture", "Trumps {suit}"), suit=_suit(trump))
    return ((p_("picture", "Trumps not named yet"), "muted"),)


def _set_aside(count: int) -> Line:
    text = n_("{n} card set aside, unseen", "{n} cards set aside, unseen", count)
    return ((text, "muted"),)


def _first_suit(trick: Sequence[tuple[int, str]]) -> str | None:
    """The suit of the first card that is not the Excuse (``T`` for a trump)."""
    for _seat, card in trick:
        if card != "EX":
            return "T" if card[0] == "T" else card[0]
    return None


def _fool_debt(game_id: str, info: dict[str, Any], names: Sequence[str]) -> Line | None:
    fool = info.get("fool")
    if isinstance(fool, dict):
        debtor, creditor = fool.get("debtor"), fool.get("creditor")
    else:
        debtor, creditor = info.get("fool_owner"), info.get("fool_creditor")
    if debtor is None or creditor is None:
        return None
    word = _FOOL[game_id] if game_id in _FOOL else p_("picture early_french_tarot", "Fool")
    line = styled(
        p_("picture", "{fool}: {debtor} owes {creditor} a card"),
        fool=(word, "EX"),
        debtor=_name(names, debtor),
        creditor=_name(names, creditor),
    )
    return _colon_with_label(line)


def _colon_with_label(line: Line) -> Line:
    """The colon after a coloured label in the label's colour ("Fool:", "Mat :")."""
    if len(line) < 2:
        return line
    (label, ink), (rest, colour) = line[0], line[1]
    punct = rest[: len(rest) - len(rest.lstrip(" \u00a0:"))].rstrip(" ")
    if ":" not in punct:
        return line
    return ((label + punct, ink), (rest[len(punct) :], colour), *line[2:])


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
            words.append(_LA_MORTE_ROLES[str(status)])
        if info.get("morto") == seat:
            words.append(p_("picture la_morte", "il Morto"))
        if info.get("fuori") == seat:
            words.append(p_("picture la_morte", "Fuori dal Tempo"))
        roles.append(tuple(words))
    notes = [""] * n
    if auction:
        for seat, call, amount in info.get("auction") or ():
            if 0 <= seat < n:
                notes[seat] = (
                    p_("picture la_morte", "bid {amount}", amount=amount)
                    if call == "bid"
                    else _word(_LA_MORTE_CALLS, call)
                )
    trump, talon = info.get("trump"), info.get("talon")
    lines: list[Line] = []
    if trump in SUIT_SYMBOL:
        lines.append(_trump_line(trump))
    elif talon is not None:
        lines.append(
            (
                (p_("picture la_morte", "No trumps"), "text"),
                (" " + p_("picture la_morte", "(La Morte turned up)"), "muted"),
            )
        )
    contract = info.get("contract")
    if contract is not None:
        line = styled(
            p_("picture la_morte", "Contract {contract} by {name}"),
            contract=(str(contract), "T"),
            name=_name(names, info.get("maker")),
        )
        if info.get("auto_contract"):
            line += ((" · " + p_("picture la_morte", "no defenders"), "muted"),)
        lines.append(line)
    elif view.phase == "dealer_option":
        lines.append(((p_("picture la_morte", "Everyone dropped"), "text"),))
    elif info.get("high_bid"):
        lines.append(
            styled(
                p_("picture la_morte", "High bid {bid} by {name}"),
                bid=(str(info["high_bid"]), "T"),
                name=_name(names, info.get("high_bidder")),
            )
        )
    elif auction:
        lines.append(((p_("picture la_morte", "No bid yet"), "muted"),))
    if info.get("set_aside"):
        lines.append(_set_aside(info["set_aside"]))
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
        who = _name(names, view.dealer)
        centre = (p_("picture la_morte", "{name} (dealer) may bid or muck", name=who),)
    elif auction:
        centre = (p_("picture la_morte", "Bid, accept or drop"),)
    return TableFacts(
        tuple(roles),
        tuple(notes),
        tuple(lines),
        ((p_("picture la_morte", "Talon"), (talon,)),) if isinstance(talon, str) else (),
        led,
        centre,
    )


def _early_french_tarot(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    taken = list(info.get("taken") or ())
    notes = tuple(
        n_("{n} card won", "{n} cards won", taken[s]) if s < len(taken) and taken[s] else ""
        for s in range(n)
    )
    lines: list[Line] = [
        (
            (p_("picture early_french_tarot", "Trumps I–XXI"), "T"),
            (" · " + p_("picture early_french_tarot", "the Fool excuses"), "muted"),
        )
    ]
    debt = _fool_debt(view.game_id, info, names)
    if debt:
        lines.append(debt)
    if info.get("set_aside"):
        lines.append(_set_aside(info["set_aside"]))
    led = info.get("led") if info.get("led") in ("S", "H", "D", "C", "T") else None
    return TableFacts(((),) * n, notes, tuple(lines), (), led or _first_suit(view.trick), ())


def _french_tarot(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    roles: list[list[str]] = [[] for _seat in range(n)]
    taker, partner = info.get("taker"), info.get("partner")
    if isinstance(taker, int) and 0 <= taker < n:
        roles[taker].append(p_("picture french_tarot", "taker"))
    if isinstance(partner, int) and 0 <= partner < n and partner != taker:
        roles[partner].append(p_("picture french_tarot", "partner"))
    notes = [""] * n
    if view.phase == "bidding":
        for seat, bid in info.get("bids") or ():
            if 0 <= seat < n:
                notes[seat] = _word(CONTRACT_WORDS, bid)
    for p in info.get("poignees") or ():
        seat = p.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            roles[seat].append(
                p_("picture french_tarot", "poignée of {n}", n=len(p.get("cards") or ()))
            )
    lines: list[Line] = []
    contract = info.get("contract")
    if contract:
        lines.append(
            styled(
                p_("picture french_tarot", "{contract} by {name}"),
                contract=(_word(CONTRACT_WORDS, contract), "T"),
                name=_name(names, taker),
            )
        )
    elif view.phase == "bidding":
        lines.append(((p_("picture french_tarot", "No contract yet"), "muted"),))
    if info.get("alone"):
        lines.append(((p_("picture french_tarot", "The taker plays alone"), "text"),))
    if info.get("chelem"):
        lines.append(((p_("picture french_tarot", "Chelem announced"), "T"),))
    cards: list[tuple[str, tuple[str, ...]]] = []
    if info.get("called"):
        cards.append((p_("picture french_tarot", "Called"), (info["called"],)))
    if info.get("dog"):
        cards.append((p_("picture french_tarot", "Dog"), tuple(info["dog"])))
    if info.get("discarded_trumps"):
        cards.append(
            (p_("picture french_tarot", "Trumps discarded"), tuple(info["discarded_trumps"]))
        )
    return TableFacts(
        tuple(tuple(r) for r in roles),
        tuple(notes),
        tuple(lines),
        tuple(cards),
        _first_suit(view.trick),
        (p_("picture french_tarot", "Each player speaks once"),) if view.phase == "bidding" else (),
    )


def _losers_game(view: PublicView, names: Sequence[str]) -> TableFacts:
    info, n = view.info, view.players
    roles: list[tuple[str, ...]] = [()] * n
    caller = info.get("caller")
    if isinstance(caller, int) and 0 <= caller < n:
        roles[caller] = (
            p_("picture losers_game", "names trumps")
            if view.phase == "trump"
            else p_("picture losers_game", "named trumps"),
        )
    notes = [""] * n
    for seat, amount in info.get("bids") or ():
        if 0 <= seat < n:
            notes[seat] = p_("picture losers_game", "bid {amount}", amount=amount)
    lines: list[Line] = [_trump_line(info.get("trump"))]
    if view.phase == "bidding" and info.get("b_max") is not None:
        lines.append(((p_("picture losers_game", "Bids 0–{most}", most=info["b_max"]), "muted"),))
    excess = tuple(info.get("excess") or ())
    centre: tuple[str, ...] = ()
    if view.phase == "trump":
        centre = (p_("picture losers_game", "{name} names trumps", name=_name(names, caller)),)
    elif view.phase == "bidding":
        centre = (p_("picture losers_game", "Bid the points you will take"),)
    return TableFacts(
        tuple(roles),
        tuple(notes),
        tuple(lines),
        ((p_("picture losers_game", "Face up, out of play"), excess),) if excess else (),
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
            roles[seat] = (_QUEEN_ROLES[word],)
    notes = [""] * n
    lines: list[Line] = []
    bargain = info.get("bargain") or {}
    if view.phase == "bargain":
        for seat, pos in enumerate(bargain.get("positions") or ()):
            if seat >= n:
                break
            if pos.get("position") == "demand":
                notes[seat] = p_("picture queen_of_tarot", "demands {n}", n=pos.get("amount"))
            elif pos.get("position") == "offer":
                notes[seat] = p_("picture queen_of_tarot", "offers {n}", n=pos.get("amount"))
            elif isinstance(pos.get("last"), dict) and pos["last"].get("call"):
                notes[seat] = _word(_QUEEN_CALLS, pos["last"]["call"])
        if bargain.get("session") is not None:
            session = p_("picture queen_of_tarot", "Session {n} of 3", n=bargain["session"])
            lines.append(((session, "text"),))
            lines.append(
                (
                    (
                        p_("picture queen_of_tarot", "Demanded {n}", n=bargain.get("demanded", 0)),
                        "H",
                    ),
                    (" · ", "muted"),
                    (
                        p_("picture queen_of_tarot", "offered {n}", n=bargain.get("offered", 0)),
                        "C",
                    ),
                )
            )
    else:
        for d in info.get("declarations") or ():
            seat, bonuses = d.get("seat"), d.get("bonuses") or ()
            if isinstance(seat, int) and 0 <= seat < n and bonuses:
                notes[seat] = " + ".join(_word(BONUS_WORDS, b) for b in bonuses)
        lines.append(
            styled(
                p_("picture queen_of_tarot", "Trumps: {rule}"),
                rule=(p_("picture queen_of_tarot", "XX (Angel) beats XXI"), "T"),
            )
        )
    debt = _fool_debt(view.game_id, info, names)
    if debt:
        lines.append(debt)
    settlement = info.get("settlement")
    if isinstance(settlement, dict) and settlement.get("deltas"):
        deltas = settlement["deltas"]
        lines.append(((p_("picture queen_of_tarot", "Thrown in after bargaining"), "text"),))
        lines.append(
            tuple(
                (f"{_name(names, s)} {d:+d}" + (" · " if s < len(deltas) - 1 else ""), "text")
                for s, d in enumerate(deltas)
            )
        )
    led = info.get("led") if info.get("led") in ("S", "H", "D", "C", "T") else None
    centre: tuple[str, ...] = ()
    if view.phase == "bargain":
        centre = (p_("picture queen_of_tarot", "Pass, demand, offer or continue"),)
    elif view.phase == "discard":
        centre = (
            p_(
                "picture queen_of_tarot",
                "{name} (dealer) discards 3 cards",
                name=_name(names, view.dealer),
            ),
        )
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
    """The game-specific facts of ``view`` (a plain layout for an unknown game), in the
    current language."""
    return _GAMES.get(game_id, _generic)(view, names)


def hand_trump(game_id: str, view: PublicView) -> Line:
    """The trump suit for a hand picture's header, in games where a suit is trumps."""
    if game_id in ("la_morte", "losers_game"):
        trump = view.info.get("trump")
        if trump in SUIT_SYMBOL:
            return styled(" · " + p_("picture", "trumps {suit}"), "muted", suit=_suit(trump))
        if game_id == "la_morte" and view.info.get("talon") is not None:
            return ((" · " + p_("picture la_morte", "no trumps"), "muted"),)
    return ()
