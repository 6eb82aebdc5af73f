"""Helpers that build legal La Morte scenario decks: pin cards, then search for a play line.

Used once to write ``tests/scenarios/la_morte_*.json`` (see ``build_scenarios.py``); the
files are the source of truth, the search only saves hand-arranging 37 cards.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import codec
from bot.engine.actions import Action
from bot.engine.errors import IllegalAction
from bot.engine.games.la_morte import LA_MORTE, RANK, LaMorteRules, LaMorteState, Status

RULES = LaMorteRules()
HAND = 9


def deck_from_hands(
    players: int,
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: str,
    set_aside: Sequence[str] = (),
) -> list[str]:
    """Deck order whose canonical deal (la_morte §2.1) gives exactly ``hands`` and ``talon``."""
    deck: list[str] = [""] * (HAND * players)
    pos = [0] * players
    for i in range(HAND * players):
        seat = (dealer + 1 + i % players) % players
        deck[i] = hands[seat][pos[seat]]
        pos[seat] += 1
    return [*deck, talon, *set_aside]


def hands_of(players: int, dealer: int, deck: Sequence[str]) -> list[list[str]]:
    """Inverse of ``deck_from_hands`` for the hands."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(HAND * players):
        hands[(dealer + 1 + i % players) % players].append(deck[i])
    return hands


@dataclass
class DealSpec:
    """What a generated deal must look like.

    Attributes:
        players, dealer, talon: table and talon (``None`` = any non-La Morte card).
        hold / avoid: cards a seat must / must not be dealt.
        set_aside: (3 players) cards that must be among the 9 set-aside cards.
        auction: scripted actions (JSON) applied first.
        decisions: trick-1 ``accept``/``drop`` of the seats still undecided.
        tricks: final tricks per seat (``None`` for a partial deal).
        checkpoints: tricks per seat after ``k`` completed tricks.
        plays: ``(trick index, seat) -> card`` that seat must play in that trick.
        on_trick: extra test of each completed trick ``(k, plays, state_after)``.
        goal: for a partial deal, stop as soon as this holds for the state.
        final: extra test of the finished state.
    """

    players: int
    dealer: int
    talon: str | None = None
    hold: dict[int, list[str]] = field(default_factory=dict[int, list[str]])
    avoid: dict[int, list[str]] = field(default_factory=dict[int, list[str]])
    set_aside: list[str] = field(default_factory=list[str])
    auction: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    decisions: dict[int, str] = field(default_factory=dict[int, str])
    tricks: list[int] | None = None
    checkpoints: dict[int, list[int]] = field(default_factory=dict[int, list[int]])
    plays: dict[tuple[int, int], str] = field(default_factory=dict[tuple[int, int], str])
    on_trick: Callable[[int, tuple[tuple[int, str], ...], LaMorteState], bool] | None = None
    goal: Callable[[LaMorteState], bool] | None = None
    final: Callable[[LaMorteState], bool] | None = None


class _Budget(Exception):
    pass


def random_deck(spec: DealSpec, rng: random.Random) -> list[str] | None:
    """A random deck honouring the spec's talon, holds, avoids and set-aside cards."""
    n = spec.players
    pack = list(RULES.pack(n))
    pinned = {c for cards in spec.hold.values() for c in cards} | set(spec.set_aside)
    talon = spec.talon
    if talon is None:
        talon = rng.choice([c for c in pack if c not in pinned and c != LA_MORTE])
    rest = [c for c in pack if c not in pinned and c != talon]
    rng.shuffle(rest)
    hands: list[list[str]] = [list(spec.hold.get(s, [])) for s in range(n)]
    aside = list(spec.set_aside)
    for card in rest:
        seats = [s for s in range(n) if len(hands[s]) < HAND and card not in spec.avoid.get(s, [])]
        room_aside = n == 3 and len(aside) < HAND
        options = [*seats, -1] if room_aside else seats
        if not options:
            return None
        pick = rng.choice(options)
        if pick == -1:
            aside.append(card)
        else:
            hands[pick].append(card)
    for h in hands:
        rng.shuffle(h)
    rng.shuffle(aside)
    return deck_from_hands(n, spec.dealer, hands, talon, aside)


def _apply(state: LaMorteState, obj: dict[str, Any]) -> LaMorteState:
    action = codec.parse_action(RULES, obj, state.players)
    return RULES.apply(state, action)[0]


def _order(state: LaMorteState, actions: Sequence[Action], spec: DealSpec, rng: random.Random):
    """Plays ordered by a noisy "do I still want tricks?" heuristic."""
    if spec.tricks is None:
        out = list(actions)
        rng.shuffle(out)
        return out
    seat = state.turn
    assert seat is not None
    want = spec.tricks[seat] - state.tricks_won[seat] > 0

    def key(a: Action) -> float:
        r = RANK.get(a.card or "", 6)
        return (-r if want else r) + rng.random() * 6

    return sorted(actions, key=key)


def search(
    spec: DealSpec, deck: list[str], rng: random.Random, budget: int
) -> list[dict[str, Any]]:
    """A legal action line for ``deck`` meeting ``spec``; raises ``_Budget`` if none found."""
    state = RULES.new_deal(spec.players, {}, deck, spec.dealer)
    for obj in spec.auction:
        state = _apply(state, obj)
    nodes = [0]
    line: list[dict[str, Any]] = [dict(o) for o in spec.auction]

    def ok_trick(s: LaMorteState) -> bool:
        k = len(s.tricks)
        if spec.tricks is not None and any(
            w > t for w, t in zip(s.tricks_won, spec.tricks, strict=True)
        ):
            return False
        if k in spec.checkpoints and list(s.tricks_won) != spec.checkpoints[k]:
            return False
        return spec.on_trick is None or spec.on_trick(k - 1, s.tricks[-1], s)

    def dfs(s: LaMorteState) -> bool:
        nodes[0] += 1
        if nodes[0] > budget:
            raise _Budget
        if spec.goal is not None and spec.goal(s):
            return True
        if s.turn is None:
            if spec.goal is not None:
                return False
            if spec.tricks is not None and list(s.tricks_won) != spec.tricks:
                return False
            return spec.final is None or spec.final(s)
        t = s.turn
        if s.statuses[t] is Status.UNDECIDED:
            choice = spec.decisions.get(t, "accept")
            candidates = [Action(choice, t)]
        else:
            legal = RULES.legal_actions(s)
            forced = spec.plays.get((len(s.tricks), t))
            if forced is not None:
                candidates = [a for a in legal if a.card == forced]
            else:
                candidates = _order(s, legal, spec, rng)
        for a in candidates:
            try:
                nxt, _ = RULES.apply(s, a)
            except IllegalAction:
                continue
            if len(nxt.tricks) > len(s.tricks) and not ok_trick(nxt):
                continue
            line.append(a.to_json())
            if dfs(nxt):
                return True
            line.pop()
        return False

    if not dfs(state):
        raise _Budget
    return line


def build(
    spec: DealSpec, seed: int = 0, tries: int = 3000, budget: int = 4000
) -> tuple[list[str], list[dict[str, Any]]]:
    """Deck and action line for ``spec`` (raises ``RuntimeError`` if the search gives up)."""
    rng = random.Random(seed)
    for _ in range(tries):
        deck = random_deck(spec, rng)
        if deck is None:
            continue
        try:
            return deck, search(spec, deck, rng, budget)
        except (_Budget, IllegalAction):
            continue
    raise RuntimeError("no deck found for this spec")


# ---- file layout ------------------------------------------------------------------------


def dump_scenario(obj: dict[str, Any]) -> str:
    """Pretty JSON with one deck per line and one action per line."""

    def compact(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    lines = ["{"]
    keys = list(obj)
    for ki, key in enumerate(keys):
        comma = "," if ki < len(keys) - 1 else ""
        value = obj[key]
        if key == "deals":
            lines.append('  "deals": [')
            for di, deal in enumerate(value):
                dcomma = "," if di < len(value) - 1 else ""
                lines.append("    {")
                dkeys = list(deal)
                for j, dk in enumerate(dkeys):
                    c2 = "," if j < len(dkeys) - 1 else ""
                    if dk == "actions":
                        acts = deal[dk]
                        if not acts:
                            lines.append(f'      "actions": []{c2}')
                            continue
                        lines.append('      "actions": [')
                        for ai, a in enumerate(acts):
                            c3 = "," if ai < len(acts) - 1 else ""
                            lines.append(f"        {compact(a)}{c3}")
                        lines.append(f"      ]{c2}")
                    else:
                        lines.append(f"      {compact(dk)}: {compact(deal[dk])}{c2}")
                lines.append(f"    }}{dcomma}")
            lines.append(f"  ]{comma}")
        elif key == "expect" and isinstance(value, dict):
            lines.append('  "expect": {')
            ekeys = list(value)
            for j, ek in enumerate(ekeys):
                c2 = "," if j < len(ekeys) - 1 else ""
                lines.append(f"    {compact(ek)}: {compact(value[ek])}{c2}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {compact(key)}: {compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios"


def write_checked(
    game: str,
    files: Mapping[str, dict[str, Any]],
    only: str = "",
    render: Callable[[dict[str, Any]], str] = dump_scenario,
) -> None:
    """Write ``tests/scenarios/<game>_<name>.json`` for every file whose name contains
    ``only``, refusing (SystemExit) any file whose replay disagrees with its ``expect``."""
    from bot.engine.scenario import check, run  # the runner, not needed to build decks

    for name, data in files.items():
        if only not in name:
            continue
        mismatch = check(run(data), data["expect"])
        if mismatch:
            raise SystemExit(f"{name}: the engine disagrees with the spec: {mismatch}")
        path = SCENARIO_DIR / f"{game}_{name}.json"
        path.write_text(render(data), encoding="utf-8")
        print(f"wrote {path.name}", file=sys.stderr)
