"""Computer players: decision time per game and level, and what casual self-play does.

**Latency** (default): plays seeded deals with every seat run by one level and times each
decision. Reports the 50th and 95th percentiles and the worst decision per game and level; the
expert's in-game budget is ≤ 250 ms p95 on one core (``bot.ai.expert``).

    python bench/ai_bench.py [--game french_tarot] [--players 4] [--deals 10] \
        [--level casual|expert|all] [--effort 1.0] [--seed 1] [--strict]

The expert is timed on a deal where it holds one seat and casual players the others (its
decisions are what is timed; the casual decisions are not reported for that deal). It runs as
in a game (not strict): the report counts how often its time cap cut a search short (a
warning in the log each time; it should be about never on an idle core) and shows the load
average, since wall-clock times on a shared machine say more about the neighbours than about
the search — CPU time per decision is what the work budget targets. When the cap fires the
CPU times are those of searches cut short: ``--strict`` times the whole budget instead (no
cap), which is what to read on a busy machine.

**Legality** (``--legality``): seeded deals with one seat at the level (rotating; the expert
strict, at ``--effort``) and casual players elsewhere; every decision of that seat is checked
against its legal actions and applied by ``Rules.apply`` (which rejects an illegal one); the
report counts deals, decisions and illegal actions (which must be zero).

    python bench/ai_bench.py --legality [--level expert] [--effort 0.05] [--deals 200]

**Casual statistics** (``--stats``): self-play of the casual policies with the numbers the
issue-18 fixes are judged by (French Tarot contracts made, taker's mean score and Petit lost;
La Morte Fuori dal Tempo and drops; Early French Tarot overtrumps and King captures; Loser's
Game bids made; Queen of Tarot bargains and Angel leads). ``--policies PKG`` runs another
copy of the policies (a package laid out like ``bot.ai``, on ``sys.path``) for before/after.

    python bench/ai_bench.py --stats [--game G] [--players N] [--deals 600] [--policies PKG]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import choose_action
from bot.engine.actions import Action
from bot.engine.deck import deal_seed, shuffle
from bot.engine.errors import IllegalAction
from bot.engine.registry import get_rules, implemented
from bot.engine.rules import Rules
from bot.engine.trick import Play
from bot.engine.views import DealResult, SeatView

Policy = Callable[[SeatView, random.Random], Action]


# ---- latency -----------------------------------------------------------------------------


class CapCounter(logging.Handler):
    """Counts the expert search's time-cap warnings (``bot.ai.expert.search``), and those
    where the CPU cap was reached (the others: the wall-clock net, i.e. the neighbours)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.cpu = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "time cap" in record.getMessage():
            self.count += 1
            _, _, _, cpu, _, cap = record.args or (0, 0, 0, 0.0, 0.0, 1.0)  # type: ignore[misc]
            self.cpu += float(cpu) > float(cap)  # type: ignore[arg-type]


CAPS = CapCounter()
logging.getLogger("bot.ai.expert.search").addHandler(CAPS)
logging.getLogger("bot.ai.expert.search").propagate = False  # counted, not printed


def percentile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def latency(
    game: str, players: int, deals: int, seed: int, level: str, effort: float, strict: bool = False
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds taken by every decision of ``level`` over ``deals`` seeded
    deals (CPU time is what one core spends, whatever else loads the machine)."""
    from bot.ai.expert import evaluate

    rules = get_rules(game)
    options = rules.normalize_options(None)
    rng = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    for d in range(deals):
        deck = shuffle(rules.pack(players), rng.randrange(2**63))
        state = rules.new_deal(players, options, deck, d % players)
        timed = d % players  # the seat whose decisions are timed (expert: the only expert)
        history: list[Action] = []
        while (seat := rules.to_act(state)) is not None:
            view = with_history(rules.observe(state, seat), history)
            start, start_cpu = time.perf_counter(), time.process_time()
            first = view.legal[0]
            single = len(view.legal) == 1 and first.type not in rules.multi_card_types
            if level == "expert" and seat == timed and not single:
                action = evaluate(rules, view, rng, effort=effort, strict=strict).best
            elif level == "expert" and seat == timed:
                action = first
            else:
                action = choose_action(rules, view, rng)
            elapsed = time.perf_counter() - start
            elapsed_cpu = time.process_time() - start_cpu
            if level == "casual" or (seat == timed and not single):
                times.append(elapsed)
                cpu.append(elapsed_cpu)
            history.append(public_form(rules, action))
            state, _ = rules.apply(state, action)
    return times, cpu


# ---- casual statistics -------------------------------------------------------------------


class Deal:
    """One self-play deal as the statistics see it."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.decisions: list[tuple[SeatView, Action]] = []
        self.tricks: list[tuple[tuple[Play, ...], int]] = []
        self.result: DealResult | None = None


def public_form(rules: Rules, action: Action) -> Action:
    """What the table sees of ``action`` (a discard's cards are hidden)."""
    if action.type == "discard":
        return action._replace(cards=None, amount=len(action.cards or ()))
    return action


def with_history(view: SeatView, history: list[Action]) -> SeatView:
    """``view`` with the deal's public history, when the engine does not fill it yet."""
    if view.public.history or not history:
        return view
    return replace(view, public=replace(view.public, history=tuple(history)))


def play_deal(
    rules: Rules,
    players: int,
    deck: tuple[str, ...],
    dealer: int,
    policy: Policy,
    rng: random.Random,
) -> Deal:
    deal = Deal(rules, players)
    state = rules.new_deal(players, rules.normalize_options(None), deck, dealer)
    done = 0
    history: list[Action] = []
    while (seat := rules.to_act(state)) is not None:
        view = with_history(rules.observe(state, seat), history)
        action = policy(view, rng)
        history.append(public_form(rules, action))
        deal.decisions.append((view, action))
        state, _ = rules.apply(state, action)
        pub = rules.observe_public(state)
        if pub.tricks_played > done and pub.last_winner is not None:
            done = pub.tricks_played
            deal.tricks.append((pub.last_trick, pub.last_winner))
    deal.result = rules.result(state)
    return deal


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def stats_french_tarot(deals: list[Deal]) -> list[str]:
    from bot.engine.games.french_tarot_cards import BOUTS, PETIT, is_trump

    played = [d for d in deals if d.result and d.result.outcome == "played"]
    made = sum(1 for d in played if d.result and d.result.detail["made"])
    taker_total = 0.0
    by_contract: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    attack_petit = attack_lost = defence_petit = defence_lost = 0
    for d in played:
        det = d.result.detail  # type: ignore[union-attr]
        taker = det["taker"]
        attack = {taker, det.get("partner")}
        taker_total += d.result.deltas[taker]  # type: ignore[union-attr]
        for view, action in d.decisions:
            if action.type == "bid" and action.seat == taker and action.contract == det["contract"]:
                row = by_contract[det["contract"]]
                row[0] += 1
                row[1] += det["made"]
                row[2] += sum(map(is_trump, view.hand))
                row[3] += sum(1 for c in view.hand if c in BOUTS)
        for trick, winner in d.tricks:
            for seat, card in trick:
                if card != PETIT:
                    continue
                if seat in attack:
                    attack_petit += 1
                    attack_lost += winner not in attack
                else:
                    defence_petit += 1
                    defence_lost += winner in attack
    lines = [
        f"  played {len(played)} of {len(deals)} deals; contracts made {_pct(made, len(played))};"
        f" taker's mean score {taker_total / max(1, len(played)):+.1f}",
        f"  the attack's Petit lost in {_pct(attack_lost, attack_petit)} of {attack_petit};"
        f" the defence's Petit captured in {_pct(defence_lost, defence_petit)} of {defence_petit}",
    ]
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        n, ok, trumps, bouts = by_contract.get(contract, [0, 0, 0, 0])
        if n:
            lines.append(
                f"  {contract}: {n} deals, made {_pct(ok, n)}, taker held {trumps / n:.1f} trumps"
                f" and {bouts / n:.2f} bouts"
            )
    return lines


def stats_la_morte(deals: list[Deal]) -> list[str]:
    played = [d for d in deals if d.result and d.result.outcome == "played"]
    fuori = sum(1 for d in played if d.result and d.result.detail.get("fuori") is not None)
    seats = roles = 0
    role_scores: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    made = 0
    for d in played:
        det = d.result.detail  # type: ignore[union-attr]
        made += bool(det["made"])
        for seat, role in enumerate(det["roles"]):
            seats += 1
            role_scores[role][0] += 1
            role_scores[role][1] += d.result.deltas[seat]  # type: ignore[union-attr]
            roles += 1
    lines = [
        f"  played {len(played)} of {len(deals)}; Fuori dal Tempo in {fuori} deals;"
        f" contracts made {_pct(made, len(played))}",
    ]
    for role in ("maker", "defender", "dropper"):
        n, total = role_scores.get(role, [0, 0])
        lines.append(f"  {role}: {n} seats ({_pct(n, seats)}), mean score {total / max(1, n):+.2f}")
    return lines


def stats_early_french_tarot(deals: list[Deal]) -> list[str]:
    from bot.engine.games.early_french_tarot import TRUMP, led_suit, rank_of, suit_of, trick_winner

    wasteful = last_trumps = early_trumps = early_wasteful = 0
    king_chances = king_declined = 0
    for d in deals:
        for view, action in d.decisions:
            trick = view.public.trick
            led = led_suit(trick)
            if led is None or action.card is None:
                continue
            cards = [a.card for a in view.legal if a.card]
            wins = [c for c in cards if trick_winner((*trick, (view.seat, c))) == view.seat]
            trumps = [c for c in wins if suit_of(c) == TRUMP]
            if action.card in trumps and len(trumps) > 1:
                higher = rank_of(action.card) > min(map(rank_of, trumps))
                if len(trick) == d.players - 1:
                    last_trumps += 1
                    wasteful += higher
                else:
                    early_trumps += 1
                    early_wasteful += higher
            king = led + "K"
            cavalier = any(c == led + "C" for _, c in trick)
            if view.public.tricks_played >= 4 and cavalier and led != TRUMP and king in wins:
                king_chances += 1
                king_declined += action.card != king
    return [
        f"  winning with a trump, several winning: last to play {last_trumps} times, not the"
        f" lowest {_pct(wasteful, last_trumps)}; earlier {early_trumps} times, not the lowest"
        f" {_pct(early_wasteful, early_trumps)}",
        f"  after trick 4, a Cavalier led/played and the winning King held: {king_chances};"
        f" King not played {_pct(king_declined, king_chances)}",
        f"  mean points per seat and deal {_mean_points(deals):.2f}",
    ]


def _mean_points(deals: list[Deal]) -> float:
    total = sum(sum(d.result.deltas) for d in deals if d.result)
    return total / (len(deals) * deals[0].players)


def stats_losers_game(deals: list[Deal]) -> list[str]:
    positive = made = 0
    total = 0
    for d in deals:
        det = d.result.detail  # type: ignore[union-attr]
        for bid, ok, delta in zip(det["bids"], det["made"], d.result.deltas, strict=True):  # type: ignore[union-attr]
            total += delta
            if bid > 0:
                positive += 1
                made += bool(ok)
    seats = len(deals) * deals[0].players
    return [
        f"  positive bids {positive} of {seats} seats; made {_pct(made, positive)};"
        f" mean score per seat {total / seats:+.2f}"
    ]


def stats_queen_of_tarot(deals: list[Deal]) -> list[str]:
    calls: Counter[str] = Counter()
    settled = 0
    angel_leads = angel_lost = 0
    for d in deals:
        settled += d.result is not None and d.result.detail.get("ended") != "played"
        for view, action in d.decisions:
            if view.public.phase == "bargain":
                calls[action.type] += 1
            if action.card == "T20" and not view.public.trick:
                angel_leads += 1
        for trick, _winner in d.tricks:
            if trick and trick[0][1] == "T20":
                angel_lost += sum(1 for _, c in trick[1:] if c[0] == "T") == 0
    n = len(deals)
    return [
        f"  bargaining calls {dict(sorted(calls.items()))}; hands settled {_pct(settled, n)}",
        f"  Angel led {angel_leads} times in {n} deals; drew no trump {angel_lost} times",
    ]


STATS: dict[str, Callable[[list[Deal]], list[str]]] = {
    "french_tarot": stats_french_tarot,
    "la_morte": stats_la_morte,
    "early_french_tarot": stats_early_french_tarot,
    "losers_game": stats_losers_game,
    "queen_of_tarot": stats_queen_of_tarot,
}


def policy_from(package: str | None, game: str) -> Policy:
    if package is None:
        rules = get_rules(game)
        return lambda view, rng: choose_action(rules, view, rng)
    module = importlib.import_module(f"{package}.{game}")
    return module.choose  # type: ignore[no-any-return]


def run_stats(game: str, players: int, deals: int, seed: int, package: str | None) -> None:
    rules = get_rules(game)
    policy = policy_from(package, game)
    rng = random.Random(seed)
    played: list[Deal] = []
    start = time.perf_counter()
    for d in range(deals):
        deck = shuffle(rules.pack(players), rng.randrange(2**63))
        played.append(play_deal(rules, players, deck, d % players, policy, rng))
    print(f"{game} {players}p, {deals} deals ({time.perf_counter() - start:.1f} s):")
    for line in STATS[game](played):
        print(line)


# ---- legality ----------------------------------------------------------------------------


def legal_choice(rules: Rules, view: SeatView, action: Action) -> bool:
    """``action`` is one of ``view.legal`` or completes one of its multi-card templates."""
    if action.seat != view.seat:
        return False
    if action.type in rules.multi_card_types:
        return (
            any(a.type == action.type for a in view.legal)
            and action.cards is not None
            and set(action.cards) <= set(view.hand)
        )
    return action in view.legal


def run_legality(game: str, players: int, deals: int, seed: int, level: str, effort: float) -> None:
    from bot.ai.expert import choose_expert

    rules = get_rules(game)
    options = rules.normalize_options(None)
    start = time.process_time()
    played = decisions = illegal = 0
    example = ""
    for d in range(deals):
        deck = shuffle(rules.pack(players), deal_seed(seed, d))
        state = rules.new_deal(players, options, deck, d % players)
        checked = d % players  # the seat playing at ``level``
        rng = random.Random(d)
        while (seat := rules.to_act(state)) is not None:
            view = rules.observe(state, seat)
            if seat != checked:
                action = choose_action(rules, view, rng)
            elif level == "expert":
                action = choose_expert(rules, view, rng, effort=effort, strict=True)
            else:
                action = choose_action(rules, view, rng)
            if seat == checked:
                decisions += 1
                ok = legal_choice(rules, view, action)
                try:
                    state, _ = rules.apply(state, action)
                except IllegalAction:
                    ok = False
                if not ok:
                    illegal += 1
                    example = example or f"{action} in {view}"
                    state, _ = rules.apply(state, choose_action(rules, view, rng))
                continue
            state, _ = rules.apply(state, action)
        result = rules.result(state)
        played += result is not None and result.outcome == "played"
    print(
        f"{game} {players}p {level} legality: {deals} deals ({played} played to a score),"
        f" {decisions:,} decisions by the {level} seat, {illegal} illegal"
        f" [{time.process_time() - start:.0f} s CPU]" + (f"; first: {example}" if example else ""),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Computer players: latency and statistics.")
    parser.add_argument("--game", choices=sorted(implemented()), default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", choices=("casual", "expert", "all"), default="all")
    parser.add_argument("--effort", type=float, default=1.0)
    parser.add_argument("--stats", action="store_true", help="casual self-play statistics")
    parser.add_argument("--legality", action="store_true", help="check every decision")
    parser.add_argument("--strict", action="store_true", help="expert latency without time cap")
    parser.add_argument("--policies", default=None, help="package of policies for --stats")
    args = parser.parse_args()
    for game in [args.game] if args.game else sorted(implemented()):
        rules = get_rules(game)
        counts = (
            [args.players]
            if args.players
            else list(range(rules.min_players, rules.max_players + 1))
        )
        for players in counts:
            if args.stats:
                run_stats(game, players, args.deals or 600, args.seed, args.policies)
                continue
            levels = ("casual", "expert") if args.level == "all" else (args.level,)
            for level in levels:
                if args.legality:
                    run_legality(game, players, args.deals or 200, args.seed, level, args.effort)
                    continue
                caps, cpu_caps = CAPS.count, CAPS.cpu
                wall, cpu = latency(
                    game, players, args.deals or 10, args.seed, level, args.effort, args.strict
                )
                wall.sort()
                cpu.sort()

                def ms(times: list[float]) -> str:
                    p50, p95 = percentile(times, 0.5) * 1e3, percentile(times, 0.95) * 1e3
                    return f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {times[-1] * 1e3:.2f} ms"

                load = "/".join(f"{x:.1f}" for x in os.getloadavg())
                print(
                    f"{game} {players}p {level}: {len(wall):,} decisions; CPU {ms(cpu)};"
                    f" wall {ms(wall)}; time cap hit {CAPS.count - caps}"
                    f" ({CAPS.cpu - cpu_caps} by CPU time); load {load}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
