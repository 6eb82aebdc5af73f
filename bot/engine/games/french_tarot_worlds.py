"""French Tarot for search: the public history of a deal, and worlds drawn from a seat's view.

``history(s)`` is every action of the deal in order in its public form (``PublicView.history``):
the bids, the call, the discard as ``Action("discard", taker, amount=k)`` (its cards hidden;
the trumps in it are public through ``info["discarded_trumps"]``), the chelem decision, each
poignée right before its player's first card, and every card played.

``sample_world(view, rng)`` draws a full deal whose ``observe(…, view.seat)`` is ``view``:
the cards the seat cannot see are dealt uniformly among the deals the rules allow given what
happened in public (``shared/rules/french_tarot.md``):

* a player who did not follow the suit led holds none of it; who discarded instead of
  trumping holds no trump; who played under the best trump (or did not trump over it on a
  trump lead) holds no trump above it (§4.2, D-6); the Excuse tells nothing;
* a poignée's shown cards are still held until played; one shown with the Excuse says no
  other trump was held (§5.3, C-6);
* the discard (§3.5, C-11): no King, no bout, trumps only when forced and shown — so a
  discard with trumps took every plain card the taker had; cards of the revealed dog are in
  the taker's hand or the discard;
* the call (§3.4, D-12): a called Queen means the taker was dealt the four Kings (a Knight:
  the Kings and Queens; a Jack: Kings, Queens and Knights); at 5 players the first leader led
  the called suit with another card only when holding nothing but that suit (D-14, C-5);
* nobody was dealt a bare Petit, or the deal would have been redealt (§3.2, C-10).

The hidden cards fall into classes (the cards every slot — a hand, the unseen dog, the hidden
part of the discard — accepts alike) and are dealt exactly uniformly by counting
(``french_tarot_assign``). The bare-Petit rule is then checked and the draw repeated when
it fails (rarely). The hidden derived fields follow from the drawn cards: the partner (the
holder of the called card when play started), and the winners of the tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.actions import Action
from bot.engine.cards import EXCUSE, TAROT_PACK
from bot.engine.games.french_tarot_assign import Assignment
from bot.engine.games.french_tarot_cards import (
    DOG_TAKEN,
    PARAMS,
    PETIT,
    PLAIN_DISCARDABLE,
    SUIT,
    TRUMP_NO,
    sort_key,
    trick_winner,
)
from bot.engine.games.french_tarot_state import (
    BASE,
    H_TRICKS,
    HIST,
    PLAY_ACTIONS,
    TRICK,
    FrenchTarotRecord,
    FrenchTarotState,
    Phase,
    from_record,
)
from bot.engine.trick import Play
from bot.engine.views import SeatView

# ---- history -------------------------------------------------------------------------

_PLAY, _DONE = Phase.PLAY, Phase.DONE
_BEFORE_DOG = (Phase.BIDDING, Phase.CALL)
#: Completed tricks' part of the last history built (and the poignées not placed in it),
#: keyed by the identity of the state's trick history and poignées.
_last_plays: tuple[Any, Any, tuple[Action, ...], dict[int, Action]] = (None, None, (), {})


def _prefix(b: FrenchTarotRecord) -> list[Action]:
    """Bids, call, discard and chelem decision of a deal, in the order they were made."""
    players, dealer = b[0], b[1]
    out: list[Action] = []
    for k in range(players):
        seat = (dealer - 1 - k) % players  # §3.3: the dealer's right speaks first
        bid = b.bids[seat]
        if bid is None:
            break
        out.append(Action("bid", seat, contract=bid))
    taker = b.taker
    if taker is None:
        return out
    if b.called is not None:
        out.append(Action("call", taker, card=b.called))
    if b.discard:
        out.append(Action("discard", taker, amount=len(b.discard)))
    if b.chelem_option and b.phase in (_PLAY, _DONE):
        out.append(Action("chelem", taker, announce=b.chelem))
    return out


def _plays(tricks: Sequence[Sequence[Play]], shown: dict[int, Action], out: list[Action]) -> None:
    """Append the plays of ``tricks``, each poignée in ``shown`` right before its player's
    first card (and taken out of ``shown``)."""
    for trick in tricks:
        for seat, card in trick:
            if shown and seat in shown:
                out.append(shown.pop(seat))
            out.append(PLAY_ACTIONS[seat][card])


def history(s: FrenchTarotState) -> tuple[Action, ...]:
    """Every action of the deal so far, in order, in its public form."""
    global _last_plays
    b: FrenchTarotRecord = s[BASE]
    hist = s[HIST]
    last = _last_plays
    done: list[Action]
    if last[0] is hist and last[1] is b.poignees:
        done = list(last[2])
        shown = dict(last[3])
    else:
        shown = {seat: Action("poignee", seat, cards=cards) for seat, _, cards in b.poignees}
        done = []
        _plays(hist[H_TRICKS], shown, done)
        _last_plays = (hist, b.poignees, tuple(done), dict(shown))
    out = _prefix(b)
    out += done
    _plays((s[TRICK],), shown, out)
    out.extend(shown.values())  # shown by the seat to act, before its first card
    return tuple(out)


# ---- what the public history tells ----------------------------------------------------

_PLAIN = ("S", "H", "C", "D")
_CALL_LADDER = ("K", "Q", "C", "J")  # D-12: callable court by what the taker held


class _Knowledge:
    """Constraints on the hidden hands read from the public history."""

    def __init__(self, players: int) -> None:
        self.void: list[set[str]] = [set() for _ in range(players)]  # suits and "T"
        self.trump_cap: list[int] = [21] * players  # highest trump number still possible
        self.only_suit: dict[int, str] = {}  # holds nothing but this suit (D-14 escape)


def _read_tricks(tricks: Sequence[Sequence[Play]], players: int, called: str | None) -> _Knowledge:
    k = _Knowledge(players)
    for i, trick in enumerate(tricks):
        suit: str | None = None
        high = 0
        for j, (seat, card) in enumerate(trick):
            if card == EXCUSE:
                continue  # always allowed: tells nothing
            if suit is None:
                suit = SUIT[card]  # the first card that is not the Excuse sets the suit
                if (
                    i == 0
                    and j == 0
                    and players == 5
                    and called is not None
                    and suit == SUIT[called]
                    and card != called
                ):
                    # D-14, C-5: leading the called suit with another card means nothing else
                    # could be led (not even the Excuse or the called card itself)
                    k.only_suit[seat] = suit
                high = TRUMP_NO[card]
                continue
            number = TRUMP_NO[card]
            if suit != "T" and SUIT[card] != suit:
                k.void[seat].add(suit)
                if not number:
                    k.void[seat].add("T")  # neither followed nor trumped
                elif number < high:
                    k.trump_cap[seat] = min(k.trump_cap[seat], high)  # could not overtrump
            elif suit == "T":
                if not number:
                    k.void[seat].add("T")
                elif number < high:
                    k.trump_cap[seat] = min(k.trump_cap[seat], high)
            if number > high:
                high = number
    return k


# ---- the world ------------------------------------------------------------------------


def _bare_petit(hand: Sequence[str]) -> bool:
    """§3.2, C-10: the Petit as the only trump, without the Excuse."""
    return PETIT in hand and EXCUSE not in hand and sum(1 for c in hand if c[0] == "T") == 1


class _Draw:
    """What every world drawn from one view shares: the public facts, the slots and the
    counted assignment of the hidden cards."""

    def __init__(self, view: SeatView) -> None:
        pub = view.public
        info = pub.info
        n, me = pub.players, view.seat
        p = PARAMS[n]
        phase = Phase(pub.phase)
        taker: int | None = info.get("taker")
        contract: str | None = info.get("contract")
        called: str | None = info.get("called")
        plays: list[Play] = []
        bids: list[str | None] = [None] * n
        chelem_option: bool | None = None
        chelem = False
        discarded = False
        for a in pub.history:
            if a.type == "play" and a.card is not None:
                plays.append((a.seat, a.card))
            elif a.type == "bid":
                bids[a.seat] = a.contract
            elif a.type == "chelem":
                chelem_option, chelem = True, bool(a.announce)
            elif a.type == "discard":
                discarded = True
        if chelem_option is None:  # not asked (yet): off if play has started without it
            chelem_option = not (taker is not None and phase in (_PLAY, _DONE))
        done = len(plays) - len(pub.trick)
        tricks = [tuple(plays[i : i + n]) for i in range(0, done, n)]
        poignees = tuple(
            (d["seat"], d["level"], tuple(sorted(d["cards"], key=sort_key)))
            for d in info["poignees"]
        )
        dog_public: list[str] | None = info.get("dog")
        # a revealed dog went to the taker: its cards are in the taker's hand or the discard
        dog_taken = contract in DOG_TAKEN and dog_public is not None and phase is not _DONE
        mine = set(view.hand)
        played = {c for _, c in plays}
        shown_trumps = list(info.get("discarded_trumps", ()))
        my_discard: list[str] | None = view.info.get("discard")
        if phase is _DONE and info.get("discard") is not None:
            my_discard = list(info["discard"])

        # Slots: the other seats' hands, the unseen dog, the hidden part of the discard.
        held: dict[int, list[str]] = {seat: [] for seat in range(n) if seat != me}
        for seat, _, cards in poignees:
            if seat != me:
                held[seat].extend(c for c in cards if c not in played)
        known = mine | played | {c for cards in held.values() for c in cards}
        slots: list[tuple[str, int | None, int]] = []  # (kind, seat, free room)
        for seat, cards in held.items():
            slots.append(("hand", seat, pub.hand_sizes[seat] - len(cards)))
        discard_known: list[str] = []
        if discarded or my_discard is not None:
            if my_discard is not None:
                discard_known = list(my_discard)
            else:
                discard_known = shown_trumps
                slots.append(("discard", None, p.dog - len(shown_trumps)))
        known |= set(discard_known)
        if dog_public is None:
            slots.append(("dog", None, info["dog_size"]))
        elif not dog_taken:
            known |= set(dog_public)  # set aside and seen at the end

        k = _read_tricks([*tricks, tuple(pub.trick)], n, called)
        # A called Queen (Knight, Jack) says which courts the taker was dealt (D-12).
        taker_courts: set[str] = set()
        if called is not None and taker is not None and taker != me:
            court = called[1:]
            for rung in _CALL_LADDER[: _CALL_LADDER.index(court)]:
                taker_courts.update(suit + rung for suit in _PLAIN)
        forced_trumps = bool(shown_trumps) and contract in DOG_TAKEN
        dog_cards = set(dog_public or ()) if dog_taken else set[str]()
        excuse_poignee = {seat for seat, _, cards in poignees if EXCUSE in cards}

        def allows(kind: str, seat: int | None, card: str) -> bool:
            if kind == "discard":
                return card in PLAIN_DISCARDABLE
            if kind == "dog":
                return card not in taker_courts
            assert seat is not None
            if seat != taker and (card in dog_cards or card in taker_courts):
                return False
            suit = SUIT[card]
            if suit in k.void[seat] or (suit == "T" and TRUMP_NO[card] > k.trump_cap[seat]):
                return False
            only = k.only_suit.get(seat)
            if only is not None and (suit != only or card == called):
                return False
            if suit == "T" and seat in excuse_poignee:
                return False  # a poignée with the Excuse showed every trump held
            return not (forced_trumps and seat == taker and card in PLAIN_DISCARDABLE)

        by_class: dict[tuple[int, ...], list[str]] = {}
        for c in TAROT_PACK:
            if c not in known:
                ok = tuple(i for i, (kind, seat, _) in enumerate(slots) if allows(kind, seat, c))
                by_class.setdefault(ok, []).append(c)
        self.view = view
        self.slots = slots
        self.held = held
        self.discard_known = discard_known
        self.dog_public = dog_public
        self.bids = bids
        self.poignees = poignees
        self.tricks = tricks
        self.plays = plays
        self.chelem_option = chelem_option
        self.chelem = chelem
        self.allowed = {c: ok for ok, cards in by_class.items() for c in cards}
        self.assignment = Assignment(
            [(cards, allowed) for allowed, cards in by_class.items()],
            tuple(room for _, _, room in slots),
        )

    def admits(self, s: FrenchTarotState) -> bool:
        """Whether the deal ``s`` has every hidden card in a slot its constraints allow, and
        the slots exactly full (the real deal always does)."""
        r = s.record()
        filled = [0] * len(self.slots)
        for i, (kind, seat, _) in enumerate(self.slots):
            if kind == "hand":
                assert seat is not None
                cards = [c for c in r.hands[seat] if c not in self.held[seat]]
            elif kind == "dog":
                cards = list(r.dog)
            else:
                cards = [c for c in r.discard if c not in self.discard_known]
            for c in cards:
                if i not in self.allowed.get(c, ()):
                    return False
            filled[i] = len(cards)
        return filled == [room for _, _, room in self.slots]

    def world(self, rng: Any) -> FrenchTarotState:
        view = self.view
        dealt = self.assignment.draw(rng)
        hands: dict[int, list[str]] = {view.seat: list(view.hand)}
        dog: list[str] = list(self.dog_public or ())
        discard = list(self.discard_known)
        for (kind, seat, _), cards in zip(self.slots, dealt, strict=True):
            if kind == "hand":
                assert seat is not None
                hands[seat] = self.held[seat] + cards
            elif kind == "dog":
                dog = cards
            else:
                discard += cards
        return _build(
            view,
            hands,
            dog,
            discard,
            self.bids,
            self.poignees,
            self.tricks,
            self.chelem_option,
            self.chelem,
        )


#: The preparation of the last view drawn from (search draws many worlds from one view).
_last_draw: _Draw | None = None


def sample_world(view: SeatView, rng: Any) -> FrenchTarotState:
    """A full deal consistent with everything ``view``'s seat knows (module docstring)."""
    global _last_draw
    draw = _last_draw
    if draw is None or draw.view is not view:
        draw = _last_draw = _Draw(view)
    for _ in range(1000):
        state = draw.world(rng)
        if _consistent_deal(state, draw.plays):
            return state
    raise ValueError("no deal without a bare Petit found for this view")


def _consistent_deal(s: FrenchTarotState, plays: Sequence[Play]) -> bool:
    """No player was dealt a bare Petit (§3.2), unless the deal was redealt for one."""
    r = s.record()
    dealt: list[list[str]] = [list(h) for h in r.hands]
    for seat, card in plays:
        dealt[seat].append(card)
    if r.taker is not None and r.contract in DOG_TAKEN and r.phase not in _BEFORE_DOG:
        # the taker's dealt hand: what is left and played, the discard back, the dog out
        hand = dealt[r.taker] + list(r.discard)
        for c in r.dog:
            if c in hand:
                hand.remove(c)
        dealt[r.taker] = hand
    bare = [_bare_petit(h) for h in dealt]
    if r.outcome == "redeal":
        return any(bare)
    return not any(bare)


def _build(
    view: SeatView,
    hands: dict[int, list[str]],
    dog: list[str],
    discard: list[str],
    bids: list[str | None],
    poignees: tuple[tuple[int, int, tuple[str, ...]], ...],
    tricks: list[tuple[Play, ...]],
    chelem_option: bool,
    chelem: bool,
) -> FrenchTarotState:
    """The deal with these cards where they are and the view's public facts."""
    pub = view.public
    info = pub.info
    n = pub.players
    phase = Phase(pub.phase)
    taker: int | None = info.get("taker")
    called: str | None = info.get("called")
    plays = [pl for t in tricks for pl in t] + list(pub.trick)
    called_by = next((seat for seat, c in plays if c == called), None)
    partner: int | None = None
    if called is not None and phase in (_PLAY, _DONE):
        holder = called_by
        if holder is None:
            holder = next((seat for seat, h in hands.items() if called in h), None)
        partner = holder if holder is not None and holder != taker else None
    winners: list[int] = [trick_winner(t) for t in tricks]
    excuse_won_last = False
    if phase is _DONE and tricks and pub.last_winner is not None:
        excuse_won_last = winners[-1] != pub.last_winner  # §4.5: the led Excuse won
        winners[-1] = pub.last_winner
    result = pub.result
    outcome = None if result is None else result.outcome
    detail: dict[str, Any] | None = None
    if result is not None and outcome == "played":
        detail = dict(result.detail)
    leader = info.get("leader")
    if leader is None:
        leader = winners[-1] if winners else 0
    record = FrenchTarotRecord(
        players=n,
        dealer=pub.dealer,
        chelem_option=chelem_option,
        phase=phase,
        hands=tuple(tuple(sorted(hands[p], key=sort_key)) for p in range(n)),
        dog=tuple(dog),
        turn=pub.to_act,
        bids=tuple(bids),
        taker=taker,
        contract=info.get("contract"),
        called=called,
        partner=partner,
        discard=tuple(sorted(discard)),
        chelem=chelem,
        poignees=poignees,
        leader=leader,
        trick=tuple(pub.trick),
        tricks=tuple(tricks),
        winners=tuple(winners),
        tricks_won=tuple(pub.tricks_won),
        excuse_won_last=excuse_won_last,
        called_by=called_by,
        outcome=outcome,
        deltas=None if result is None else tuple(result.deltas),
        detail=detail,
    )
    return from_record(record)
