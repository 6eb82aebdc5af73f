"""The words of hints and reviews (issue 18): every decision of every game reads as a phrase,
hint and review answers fit Discord's limits at the largest inputs, reviews list the costliest
decisions first, and the Hint and Review buttons parse and find room.

The evaluations here are test data standing for the expert's answers (the renderers are pure
functions of them); the expert itself is exercised end to end in the SimCord tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import discord
import pytest

from bot.ai.expert import Evaluation, Option
from bot.engine import match
from bot.engine.actions import Action
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules, implemented
from bot.engine.views import SeatView
from bot.services.analysis import Decision, Judged
from bot.services.coach import REVIEW_SHOWN, Hint, Review
from bot.services.models import SeatInfo, TableInfo
from bot.ui.components.cards import decision_view
from bot.ui.components.table import TableButton, parse_button
from bot.ui.components.views import add_hint_button
from bot.ui.text.coach import action_words, hint_embed, review_embed

LONG = "W" * 32  # Discord's longest display name


def _table(game_id: str, players: int, *, hints: bool = True, level: str = "expert") -> TableInfo:
    seats = tuple(
        SeatInfo(i, None if i else 7, f"{LONG[:-1]}{i}", is_bot=bool(i)) for i in range(players)
    )
    return TableInfo(
        id=123_456,
        guild_id=1,
        channel_id=2,
        game_id=game_id,
        status="playing",
        owner_id=7,
        players=players,
        options={},
        seats=seats,
        level=level,
        hints=hints,
    )


def _positions(game_id: str, players: int, seed: int) -> Iterator[tuple[SeatView, Action]]:
    """Every decision of a random deal: the deciding seat's view and a random legal choice
    (multi-card templates completed)."""
    rules = get_rules(game_id)
    rng = random.Random(seed)
    m = match.start_deal(
        match.new_match(game_id, players, {}, 0), shuffle(rules.pack(players), seed)
    )
    while m.deal is not None and not m.deal_over:
        seat = match.to_act(m)
        assert seat is not None
        view = rules.observe(m.deal, seat)
        a = view.legal[rng.randrange(len(view.legal))]
        if a.type in rules.multi_card_types:
            a = rules.random_choice(view, a, rng)
        yield view, a
        m, _ = match.apply(m, a)


def _fits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for f in embed.fields:
        assert len(f.name or "") <= 256 and 0 < len(f.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000


def _games() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for g in implemented():
        rules = get_rules(g)
        out += [(g, rules.min_players), (g, rules.max_players)]
    return out


@pytest.mark.parametrize(("game_id", "players"), _games())
def test_every_decision_reads_as_a_phrase_and_answers_fit(game_id: str, players: int) -> None:
    table = _table(game_id, players)
    seen: set[str] = set()
    decisions: list[Judged] = []
    for seed in range(3):
        for view, action in _positions(game_id, players, seed):
            words = action_words(game_id, action)
            assert (words and words != action.type) or action.type in ("pass", "accept", "drop")
            assert "None" not in words and "_" not in words.replace("\\_", ""), words
            seen.add(action.type)
            options = tuple(
                Option(a, -3.5 * i, 40) for i, a in enumerate([action, *view.legal][:8])
            )
            hint = Hint(table, view.seat, 1, view, Evaluation(view.seat, action, options))
            _fits(hint_embed(hint))
            if len(view.legal) > 1:
                decisions.append(
                    Judged(Decision(len(decisions), view, view.legal[-1]), action, 12.5, -99.5, 9)
                )
    assert seen
    review = Review(table, 0, 3, tuple(decisions), len(decisions) + 4, complete=False)
    embed = review_embed(review)
    _fits(embed)
    assert "Reviewed" in (embed.footer.text or "")


def test_a_hint_tells_an_unconvincing_better_average_apart() -> None:
    """The expert keeps its usual play unless another beats it clearly over the same deals
    (``bot.ai.expert.MARGIN``): an alternative with a slightly higher average is shown as
    such, never as "0.0 less"."""
    table = _table("la_morte", 4)
    view, _action = next(p for p in _positions("la_morte", 4, 1) if len(p[0].legal) > 2)
    first, second, third = view.legal[:3]
    options = (Option(first, -1.2, 40), Option(second, -0.9, 40), Option(third, -4.0, 40))
    embed = hint_embed(Hint(table, view.seat, 1, view, Evaluation(view.seat, first, options)))
    rows = next(f.value or "" for f in embed.fields).splitlines()
    assert "0.3 more, not clearly better over the same deals" in rows[0]
    assert rows[1].endswith("2.8 less")


def test_a_review_lists_the_costliest_decisions_first() -> None:
    table = _table("la_morte", 3)
    views = [v for v, _ in _positions("la_morte", 3, 4) if len(v.legal) > 1][:8]
    judged = []
    for i, view in enumerate(views):
        played, best = view.legal[0], view.legal[1]
        judged.append(Judged(Decision(i, view, played), best, 5.0, 5.0 - i, 30))
    judged.sort(key=lambda j: -j.loss)
    review = Review(table, 0, 2, tuple(judged), len(judged), complete=True)
    assert [j.loss for j in review.mistakes] == [7.0, 6.0, 5.0, 4.0, 3.0][:REVIEW_SHOWN]
    assert review.lost == sum(range(len(views)))
    embed = review_embed(review)
    assert embed.title == "🔍 Review of deal 2 — La Morte table #123456"
    assert (embed.fields[0].name or "").endswith("7.0 points lost")
    assert "Reviewed" not in (embed.footer.text or "")

    agreed = tuple(
        Judged(Decision(i, v, v.legal[0]), v.legal[0], 1.0, 1.0, 30) for i, v in enumerate(views)
    )
    text = review_embed(Review(table, 0, 2, agreed, len(agreed), complete=True)).description
    assert text is not None and "Well played" in text
    nothing = review_embed(Review(table, 0, 2, (), 0, complete=True)).description
    assert nothing == "You had no choice to make in this deal."


def test_review_and_hint_buttons() -> None:
    assert parse_button("review:12") == ("review", {"deal": 12})
    assert parse_button("hint") == ("hint", None)
    assert parse_button("review:x") is None
    legal = tuple(Action("play", 0, card=f"S{r}") for r in range(1, 11))
    view = decision_view(9, legal, {})
    assert view is not None
    add_hint_button(view, 9)
    rows = view.to_components()
    assert [c["custom_id"] for c in rows[-1]["components"]] == ["tb:9:hint"]  # its own row
    full = discord.ui.View()
    for r in range(5):
        for i in range(5):
            full.add_item(TableButton(9, f"x{r}{i}", row=r))
    add_hint_button(full, 9)
    assert len(full.children) == 25  # no room: the table message's button remains


def test_la_morte_tells_every_call_of_the_auction() -> None:
    """The computers' bids and calls in one line on La Morte's table (its contract line and
    roles show only where the auction ended), read from the deal's public history."""
    from dataclasses import replace

    from bot.services.models import Outcome
    from bot.ui.games import la_morte

    rules = get_rules("la_morte")
    table = _table("la_morte", 4, hints=False, level="expert")
    rng = random.Random(3)
    m = match.start_deal(match.new_match("la_morte", 4, {}, 0), shuffle(rules.pack(4), 11))
    done: list[Action] = []
    words = {"bid": "bids", "accept": "accepts", "drop": "drops", "muck": "mucks the deal"}
    while m.deal is not None and rules.observe_public(m.deal).tricks_played == 0:
        seat = match.to_act(m)
        assert seat is not None
        legal = rules.observe(m.deal, seat).legal
        calls = [a for a in legal if a.type != "play"]
        a = calls[rng.randrange(len(calls))] if calls else legal[0]
        done.append(a)
        m, _ = match.apply(m, a)
        public = rules.observe_public(m.deal)
        if public.history:  # the engine's own public history, once it keeps one
            assert [x.to_json() for x in public.history] == [x.to_json() for x in done]
        public = replace(public, history=tuple(done))
        outcome = Outcome(table=table, public=public, totals=(0,) * 4, deal_number=1)
        text = (la_morte.table_embed(outcome).description or "").splitlines()
        said = [x for x in done if x.type != "play"]
        line = next((x for x in text if x.startswith("Auction: ")), None)
        if public.tricks_played or not said:
            assert line is None
            continue
        assert line is not None
        parts = line.removeprefix("Auction: ").split(" · ")
        assert len(parts) == len(said)
        for part, x in zip(parts, said, strict=True):
            name = f"🤖 {table.seats[x.seat].name} (expert)" if x.seat else table.seats[0].name
            assert part.startswith(f"{name} {words[x.type]}"), (part, x)
            if x.type == "bid":
                assert part.endswith(f" {x.amount}")
