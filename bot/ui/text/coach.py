"""The expert's hints and deal reviews in words (issue 18), and any action as a verb phrase.

A hint shows the expert's choice at the player's current decision and the alternatives it
weighed, each with its expected score for the deal. A review shows the player's decisions of a
deal where the expert would have chosen otherwise, the costliest first. Both are answered
privately (``bot.ui.handlers.coach``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.actions import Action
from bot.engine.views import SeatView
from bot.i18n import _, n_
from bot.services.analysis import Decision, Judged
from bot.services.coach import Hint, Review
from bot.services.luck import DealLuck
from bot.services.models import TableInfo
from bot.ui.games import renderer
from bot.ui.text.cards import SUIT_WORD, card_list, label, long_name, suit_mark
from bot.ui.text.render import COLOUR_LOBBY, COLOUR_PLAY, clip_lines, plays_line, round_word

if TYPE_CHECKING:
    from bot.ai.expert import Option

#: Alternatives a hint lists besides the expert's choice.
HINT_ALTERNATIVES = 7
FIELD_LIMIT = 1024


def _cards(game_id: str, cards: tuple[str, ...] | list[str] | None) -> str:
    return card_list(sorted(cards or ()), getattr(renderer(game_id), "CARD_LABELS", {}))


def action_words(game_id: str, a: Action) -> str:
    """What an action does, as a short verb phrase ("play K♥", "bid Garde", "pass")."""
    r = renderer(game_id)
    labels = getattr(r, "CARD_LABELS", {})
    names = getattr(r, "CARD_NAMES", {})
    kind = a.type
    if kind == "play" and a.card is not None:
        return _("play {card}", card=label(a.card, labels))
    if kind == "bid" and a.contract is not None:
        if a.contract == "pass":
            return _("pass")
        contract = getattr(r, "CONTRACT", {}).get(a.contract, a.contract)
        return _("bid {contract}", contract=contract)
    if kind == "bid":
        return _("bid {amount}", amount=a.amount)
    if kind == "call" and a.card is not None:
        return _("call {card}", card=long_name(a.card, names))
    if kind == "discard":
        return _("discard {cards}", cards=_cards(game_id, a.cards))
    if kind == "poignee":
        return _("show a poignée: {cards}", cards=_cards(game_id, a.cards))
    if kind == "chelem":
        return _("announce a chelem") if a.announce else _("announce no chelem")
    if kind == "trump" and a.suit is not None:
        return _("name {suit} trump", suit=f"{suit_mark(a.suit)} {SUIT_WORD[a.suit]}")
    if kind == "demand":
        return _("demand {amount}", amount=a.amount)
    if kind == "offer":
        return _("offer {amount}", amount=a.amount)
    if kind == "declare":
        if not a.bonuses:
            return _("declare nothing")
        words = getattr(r, "BONUS_WORDS", {})
        shown = " + ".join(str(words.get(b, b.replace("_", " "))) for b in a.bonuses)
        return _("declare {bonuses}", bonuses=shown)
    return {
        "accept": _("accept"),
        "drop": _("drop"),
        "muck": _("muck the deal"),
        "pass": _("pass"),
        "continue": _("continue (play the hand)"),
    }.get(kind, kind)


def _points(value: float) -> str:
    """Expected points with their sign ("+4.2", "−1.5")."""
    return f"{value:+.1f}".replace("-", "−")


def _moment(table: TableInfo, view: SeatView, a: Action) -> str:
    """When a decision was made: the trick, or the part of the deal."""
    pv = view.public
    if pv.phase == "play":
        return _("Trick {n}", n=pv.tricks_played + 1)
    return {
        "bid": _("Bidding"),
        "accept": _("Auction"),
        "drop": _("Auction"),
        "muck": _("Dealer's option"),
        "call": _("The call"),
        "discard": _("The discard"),
        "chelem": _("Chelem"),
        "poignee": _("Poignée"),
        "trump": _("Trump"),
        "pass": _("Bargaining"),
        "continue": _("Bargaining"),
        "demand": _("Bargaining"),
        "offer": _("Bargaining"),
        "declare": _("Declarations"),
    }.get(a.type, pv.phase.replace("_", " ").capitalize())


def _trick_so_far(table: TableInfo, view: SeatView) -> str | None:
    pv = view.public
    if pv.phase != "play":
        return None
    if not pv.trick:
        return _("You were leading the trick.")
    labels = getattr(renderer(table.game_id), "CARD_LABELS", {})
    return _("Trick so far: {plays}", plays=plays_line(table, pv.trick, labels))


# ---- hints -----------------------------------------------------------------------------


def _alternative(game: str, best: Option, o: Option) -> str:
    """One alternative of a hint: its expected score, and how it compares with the choice.
    The search plays every candidate on the first sampled deals, then sets the weaker half
    aside, and so on: an alternative set aside early was valued on fewer deals."""
    value, action = _points(o.expected), action_words(game, o.action)
    if o.samples < best.samples:
        return n_(
            "`{value}` {action} — set aside after {n} sampled deal",
            "`{value}` {action} — set aside after {n} sampled deals",
            o.samples,
            value=value,
            action=action,
        )
    if o.expected > best.expected:
        # The expert keeps its usual play unless another beats it clearly over the same
        # deals (``bot.ai.expert.MARGIN``): a slightly higher average can be sampling noise.
        return _(
            "`{value}` {action} — {diff} more, not clearly better over the same deals",
            value=value,
            action=action,
            diff=f"{o.expected - best.expected:.1f}",
        )
    return _(
        "`{value}` {action} — {diff} less",
        value=value,
        action=action,
        diff=f"{best.expected - o.expected:.1f}",
    )


def hint_embed(hint: Hint) -> discord.Embed:
    """The private answer to a hint: the expert's choice, its expected score for the deal,
    and the alternatives it weighed with how much less each is expected to score."""
    table = hint.table
    game = table.game_id
    title = renderer(game).TITLE
    if round_word(game) == "hand":
        heading = _(
            "💡 Hint — {game} table #{id}, hand {n}", game=title, id=table.id, n=hint.deal_number
        )
    else:
        heading = _(
            "💡 Hint — {game} table #{id}, deal {n}", game=title, id=table.id, n=hint.deal_number
        )
    embed = discord.Embed(title=heading, colour=COLOUR_LOBBY)
    ev = hint.evaluation
    best = ev.options[0]
    lines = [_("The expert would **{action}**.", action=action_words(game, best.action))]
    if best.samples and round_word(game) == "hand":
        lines.append(
            n_(
                "Expected: **{value}** points for you this hand ({n} sampled deal).",
                "Expected: **{value}** points for you this hand ({n} sampled deals).",
                best.samples,
                value=_points(best.expected),
            )
        )
    elif best.samples:
        lines.append(
            n_(
                "Expected: **{value}** points for you this deal ({n} sampled deal).",
                "Expected: **{value}** points for you this deal ({n} sampled deals).",
                best.samples,
                value=_points(best.expected),
            )
        )
    situation = _trick_so_far(table, hint.view)
    if situation:
        lines.append(situation)
    if len(hint.view.legal) == 1 and len(ev.options) == 1:
        lines.append(_("It's your only choice here."))
    embed.description = "\n".join(lines)
    others = ev.options[1 : 1 + HINT_ALTERNATIVES]
    if others:
        rows = [_alternative(game, best, o) for o in others]
        embed.add_field(
            name=_("The alternatives it weighed"), value=clip_lines(rows, FIELD_LIMIT), inline=False
        )
    embed.set_footer(
        text=_(
            "Expected points: your score change for this deal, averaged over deals of the "
            "unseen cards that fit what you know. Practice table: never rated."
        )
    )
    return embed


# ---- reviews ---------------------------------------------------------------------------


def _judged_field(table: TableInfo, j: Judged) -> tuple[str, str]:
    game = table.game_id
    d = j.decision
    moment = _moment(table, d.view, d.played)
    mine = action_words(game, d.played)
    best = action_words(game, j.best)
    if j.played_value is None:
        name = _("{moment} — the expert would choose otherwise", moment=moment)
        value = _(
            "You chose to **{mine}**; the expert would **{best}** (expected {best_value}).",
            mine=mine,
            best=best,
            best_value=_points(j.best_value),
        )
    else:
        name = _("{moment} — {loss} points lost", moment=moment, loss=f"{j.loss:.1f}")
        value = _(
            "You chose to **{mine}** (expected {mine_value}); the expert would **{best}** "
            "(expected {best_value}).",
            mine=mine,
            mine_value=_points(j.played_value),
            best=best,
            best_value=_points(j.best_value),
        )
    situation = _trick_so_far(table, d.view)
    if situation:
        value = f"{value}\n{situation}"
    return name, value[:FIELD_LIMIT]


def luck_lines(luck: DealLuck) -> list[str]:
    """A deal's luck and skill for its player: what the cards gave, what the play made."""
    return [
        _(
            "🍀 Cards: **{cards}** — what the expert would expect to score with the hand you "
            "were dealt (luck)",
            cards=_points(luck.cards),
        ),
        _(
            "🎯 Play: **{play}** — what your decisions gained or lost against the expert's (skill)",
            play=_points(luck.play),
        ),
    ]


def decision_label(table: TableInfo, d: Decision) -> str:
    """One of the player's decisions, for the **Try another way** menu: when, and what they
    chose ("Trick 3 — you chose to play K♥")."""
    return _(
        "{moment} — you chose to {action}",
        moment=_moment(table, d.view, d.played),
        action=action_words(table.game_id, d.played),
    )


def replay_hint() -> str:
    """What **Try another way** does, under a review."""
    return _(
        "Pick one of your decisions below: the same cards are dealt again in your DMs, everything "
        "before it happens as it did, and you decide again from there against the expert. "
        "Not rated."
    )


def review_embed(review: Review, luck: DealLuck | None = None) -> discord.Embed:
    """The private answer to a **Review**: the player's decisions where the expert differed
    most (expected points lost, what it would have played), and the deal's ``luck`` and
    skill for them when known."""
    table = review.table
    game = table.game_id
    title = renderer(game).TITLE
    hand = round_word(game) == "hand"
    if hand:
        heading = _(
            "🔍 Review of hand {n} — {game} table #{id}",
            n=review.deal_number,
            game=title,
            id=table.id,
        )
    else:
        heading = _(
            "🔍 Review of deal {n} — {game} table #{id}",
            n=review.deal_number,
            game=title,
            id=table.id,
        )
    embed = discord.Embed(title=heading, colour=COLOUR_PLAY)
    reviewed = len(review.judged)
    differs = [j for j in review.judged if not j.agrees]
    costly = review.mistakes
    if review.decisions == 0:
        embed.description = (
            _("You had no choice to make in this hand.")
            if hand
            else _("You had no choice to make in this deal.")
        )
    elif not differs:
        embed.description = n_(
            "The expert agrees with the {n} decision of yours it reviewed. Well played!",
            "The expert agrees with all {n} decisions of yours it reviewed. Well played!",
            reviewed,
        )
    else:
        lines = [
            n_(
                "The expert would have chosen otherwise {n} time in the {total} decisions it "
                "reviewed.",
                "The expert would have chosen otherwise {n} times in the {total} decisions it "
                "reviewed.",
                len(differs),
                total=reviewed,
            )
        ]
        if review.lost > 0:
            lines.append(
                _(
                    "Expected points lost in all: **{lost}**; the costliest first.",
                    lost=f"{review.lost:.1f}",
                )
            )
        embed.description = "\n".join(lines)
    if luck is not None:
        embed.add_field(name=_("Luck and skill"), value="\n".join(luck_lines(luck)), inline=False)
    shown = list(costly) + [j for j in differs if j.played_value is None]
    for j in shown[:6]:
        name, value = _judged_field(table, j)
        embed.add_field(name=name, value=value, inline=False)
    notes: list[str] = []
    if not review.complete:
        notes.append(
            _(
                "Reviewed {reviewed} of your {total} decisions in the time allowed (bidding "
                "and the decisions with the most choices first).",
                reviewed=reviewed,
                total=review.decisions,
            )
        )
    notes.append(
        _(
            "Expected points: your score change for the deal, averaged over deals of the cards "
            "you couldn't see that fit what you knew then."
        )
    )
    embed.set_footer(text=" ".join(notes))
    return embed
