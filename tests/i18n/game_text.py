"""Helpers for the per-game language tests: which English of a catalog area must never show in
a translated rendering, and the texts a message shows (embeds and components, atom by atom).

A *leak* is a piece of an English message id of the area, whose translation differs, found in
what a French or Italian player reads: every literal run of two words or more between the
message's placeholders (so "Auction · no bid yet" and "(nobody accepted: no defenders)" are
both caught), and one-word messages ("Players", "Bid") when they are a whole title, field name
or button label.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

import discord

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.match import MatchState
from bot.engine.registry import get_rules
from bot.engine.views import PublicView, SeatView
from bot.i18n import _, using
from bot.i18n.extract import LOCALES, read
from bot.services.models import EndedDeal, Outcome, TableInfo
from bot.ui.text.render import (
    WAITING_NOTE,
    add_last_trick,
    finish_table_embed,
    last_trick_text,
    standings,
    trick_text,
)
from bot.ui.text.restriction import restriction_line
from tests.ui.test_limits import assert_embed_limits, assert_message_limits, table

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass
class English:
    """The English of an area that a translation replaces."""

    chunks: set[str] = field(default_factory=set)  # runs of 2+ words, searched inside texts
    words: set[str] = field(default_factory=set)  # one-word messages, matched whole

    def leaks(self, atoms: Iterable[str]) -> list[str]:
        out: list[str] = []
        for atom in atoms:
            bare = re.sub(r"\s+\d+$", "", atom.strip(" *_`.:"))  # "Bid 3": a button
            if bare in self.words:
                out.append(f"{bare!r} (whole text)")
            out += [f"{c!r} in {atom[:120]!r}" for c in self.chunks if c in atom]
        return out


def _chunks(text: str) -> Iterator[str]:
    for part in _PLACEHOLDER.split(text):
        for line in part.split("\n"):
            piece = line.strip(" *_`·—-→()[],.;:!?")
            if len(_WORD.findall(piece)) >= 2:
                yield piece


def english(area: str, language: str) -> English:
    """The English message ids of ``area`` (each form of a plural) whose ``language``
    translation is not the same text."""
    book = read(LOCALES / language / f"{area}.po", language)
    out = English()
    for message in book:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for i, source in enumerate(ids):
            translated = str(strings[min(i, len(strings) - 1)] or "")
            if not translated or translated == source:
                continue
            chunks = [c for c in _chunks(str(source)) if c not in translated]
            out.chunks.update(chunks)
            bare = str(source).strip(" *_`.:")
            if _WORD.fullmatch(bare):
                out.words.add(bare)
    return out


def embed_atoms(embed: discord.Embed) -> list[str]:
    """Every text of an embed: title, description, author, footer, each field's name and
    value."""
    d: dict[str, Any] = dict(embed.to_dict())
    out = [str(d.get("title") or ""), str(d.get("description") or "")]
    out.append(str((d.get("author") or {}).get("name") or ""))
    out.append(str((d.get("footer") or {}).get("text") or ""))
    for f in d.get("fields") or []:
        out += [str(f.get("name") or ""), str(f.get("value") or "")]
    return [t for t in out if t]


def view_atoms(view: discord.ui.View | None) -> list[str]:
    """Every text of a message's components: labels, placeholders, options."""
    out: list[str] = []
    for c in (c for r in (view.to_components() if view else []) for c in r["components"]):
        out += [c.get("label") or "", c.get("placeholder") or ""]
        for o in c.get("options", []):
            out += [o.get("label") or "", o.get("description") or ""]
    return [t for t in out if t]


# ---- a game's messages over seeded random deals --------------------------------------------

WHERE = "Table #123456 in #tarot"


def deals(
    game: str,
    players: int,
    seed: int,
    prefer: tuple[str, ...] = (),
    arrange: Callable[[list[str]], None] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Iterator[tuple[MatchState, bool]]:
    """Every state of two seeded random deals of a match with ``options``, with whether the
    deal just ended: actions of the ``prefer`` types first when legal, each deck
    ``arrange``-d in place before the deal."""
    rules = get_rules(game)
    rng = random.Random(f"i18n/{game}/{players}/{seed}")
    m = match.new_match(game, players, options, 0)
    for _deal in range(2):
        if m.finished:
            return
        deck = list(shuffle(rules.pack(players), rng.randrange(2**63)))
        if arrange is not None:
            arrange(deck)
        m = match.start_deal(m, tuple(deck))
        yield m, False
        while (seat := match.to_act(m)) is not None:
            legal = match.legal_actions(m)
            choice = [a for a in legal if a.type in prefer] or list(legal)
            action = choice[int(rng.random() * len(choice))]
            if action.type in rules.multi_card_types:
                assert m.deal is not None
                action = rules.random_choice(rules.observe(m.deal, seat), action, rng)
            m, _events = match.apply(m, action)
            yield m, match.to_act(m) is None


def core_atoms(
    t: TableInfo, pv: PublicView, views: Mapping[int, SeatView], labels: Mapping[str, str]
) -> set[str]:
    """What the shared renderers (the ``core`` catalog area) write into a game's messages:
    the trick, the last trick, the waiting note, the restriction line, the "Now" field of a
    table message."""
    out = {_(WAITING_NOTE), WHERE, trick_text(t, pv, labels)}
    if pv.last_trick:
        out.add(last_trick_text(t, pv.last_trick, pv.last_winner, labels))
    out.update(embed_atoms(add_last_trick(discord.Embed(), t, pv, labels)))
    out.update(embed_atoms(finish_table_embed(discord.Embed(), t, pv.to_act, "", [])))
    out.update(x for x in (restriction_line(v) for v in views.values()) if x)
    return out


def render_game(
    r: ModuleType, language: str, players: int, seed: int, style: str = "plain", **how: Any
) -> list[str]:
    """Every text a table of ``players`` of renderer ``r`` shows over two deals (``how``:
    see :func:`deals`), in ``language``: table messages with their turn line, every hand
    (quiet, deciding, once the game is over) with its controls, deal summaries — Discord's
    limits checked on each message (names of 32 characters, in ``style``); the texts of the
    shared renderers left out."""
    game = str(r.__name__).rsplit(".", 1)[-1]
    t = table(game, players, style)
    t = replace(t, options={**t.options, **how.get("options", {})})
    rules = get_rules(game)
    out: list[str] = []
    with using(language):
        outcome: Outcome | None = None
        core: set[str] = set()
        for m, ended in deals(game, players, seed, **how):
            assert m.deal is not None
            pv = rules.observe_public(m.deal)
            views = {s: rules.observe(m.deal, s) for s in range(players)}
            outcome = Outcome(
                table=t,
                public=pv,
                seat_views=views,
                totals=m.totals,
                deal_number=m.deals_played + (0 if ended else 1),
                deals_played=m.deals_played,
                finished=m.finished,
                winners=m.winners,
            )
            core = core_atoms(t, pv, views, r.CARD_LABELS)
            texts: list[str] = []
            if ended:
                summary = r.deal_summary_embed(
                    t, EndedDeal(len(m.results), m.results[-1], pv), m.totals
                )
                assert_embed_limits(summary)
                texts += embed_atoms(summary)
                core.add(standings(t, m.totals))
            else:
                content = r.turn_content(outcome)
                embed = r.table_embed(outcome)
                assert_message_limits({"content": content, "embed": embed})
                texts += [content or "", *embed_atoms(embed)]
            for view in views.values():
                hand = r.hand_embed(t, view, WHERE, outcome)
                controls = r.decision_view(t.id, view) if view.legal else None
                assert_message_limits({"embed": hand, "view": controls})
                texts += embed_atoms(hand) + view_atoms(controls)
            out += [x for x in texts if x and x not in core]
        assert outcome is not None
        over = replace(outcome, finished=True)
        for view in outcome.seat_views.values():
            hand = r.hand_embed(t, view, WHERE, over)
            assert_embed_limits(hand)
            out += [x for x in embed_atoms(hand) if x not in core]
    return out
