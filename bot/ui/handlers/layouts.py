"""How a table's running messages are laid out (``bot.ui.components.layout``): the public
table (the spectators' view), each player's hand (a complete table at their decision, a quiet
hand while others decide) and, once the game is over, each player's result card.

The words are the game's own (``bot.ui.games``: its table and hand embeds), cut to a few lines
for a picture and kept whole without one; the controls are the game's.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.db.ratings import GameRating
from bot.i18n import _
from bot.services.models import Outcome
from bot.ui.components.layout import ACCENT_TURN, ACCENT_WAIT, Layout, Screen
from bot.ui.components.views import rematch_view, review_view
from bot.ui.delivery.pictures import deciding
from bot.ui.games import renderer
from bot.ui.text.brief import (
    decision_words,
    embed_lines,
    heading,
    link_line,
    not_your_turn,
    totals_line,
    your_turn,
)
from bot.ui.text.render import (
    COLOUR_DONE,
    last_trick_text,
    plain_label,
    replay_line,
    table_link,
    trick_text,
)


def table_layout(
    outcome: Outcome, embed: discord.Embed, content: str | None, controls: discord.ui.View | None
) -> Layout:
    """The public table: whose turn (its mention first, so it notifies), then the picture,
    the deal's facts, the players (bids, roles, totals) and what is awaited; the options in
    small print. The trick and the last trick are the picture's, so the text leaves them out
    when there is one."""
    title = heading(embed)
    lines = [title] if content else []
    brief = [*lines, *embed_lines(embed, skip_values=_tricks(outcome))]
    full = [*lines, *embed_lines(embed)]
    return Layout(
        Screen(
            head=content or title,
            brief="\n".join(brief),
            full="\n".join(full),
            accent=embed.colour,
            controls=controls,
        )
    )


def _tricks(outcome: Outcome) -> set[str]:
    """The texts of the current and the last trick as the table's fields show them."""
    pv = outcome.public
    if pv is None:
        return set()
    labels = getattr(renderer(outcome.table.game_id), "CARD_LABELS", None)
    out = {trick_text(outcome.table, pv, labels)}
    if pv.last_trick:
        out.add(last_trick_text(outcome.table, pv.last_trick, pv.last_winner, labels))
    return out


def hand_layout(
    outcome: Outcome,
    seat: int,
    embed: discord.Embed,
    controls: discord.ui.View | None,
    *,
    game: str,
    place: str | None,
    where: str,
) -> Layout:
    """A player's hand. At their decision: "🟢 Your turn — …" first (a phone's notification
    shows it), the table and the hand in one picture, the contract, the trick, what to do and
    the totals, then the controls. Otherwise quiet: the same first line without the turn, the
    hand, the deal's settled facts and the totals, none of which change with others' moves."""
    table = outcome.table
    turn = deciding(outcome, seat)
    if turn:
        head = your_turn(game, table.id, place, decision_words(outcome.seat_views[seat].legal))
    else:
        head = not_your_turn(game, table.id, place)
    link = link_line(where, table_link(table))
    totals = totals_line(table, outcome.totals)
    # The hand itself (the embed's description) is the picture, and at a decision so is the
    # trick (the table above the hand): the text keeps the rest of the situation.
    shown = _tricks(outcome) if turn else set()
    brief = [*embed_lines(embed, description=False, skip_values=shown), totals, link]
    full = [heading(embed), *embed_lines(embed), totals, link]
    return Layout(
        Screen(
            head=head,
            brief="\n".join(brief),
            full="\n".join(full),
            accent=ACCENT_TURN if turn else ACCENT_WAIT,
            controls=controls,
        )
    )


def _place(totals: Sequence[int], seat: int) -> int:
    """The seat's place by total (ties share the better place)."""
    return 1 + sum(1 for t in totals if t > totals[seat])


def result_card(
    outcome: Outcome,
    seat: int,
    *,
    game: str,
    where: str,
    review: bool,
    rating: GameRating | None = None,
) -> Layout:
    """A player's DM once the game is over: their place and score, whether it counts in the
    rankings (and, when it did, their rating after it and its change: ``rating``), and where
    to go next (the results, a rematch, the expert's review)."""
    table = outcome.table
    totals = outcome.totals
    place = _place(totals, seat)
    score = totals[seat]
    players = len(totals)
    if seat in outcome.winners:
        head = _("🏆 You won — {game} #{id}: {score} points", game=game, id=table.id, score=score)
    else:
        head = _(
            "🏁 Game over — {game} #{id}: you placed {place} of {players} with {score} points",
            game=game,
            id=table.id,
            place=place,
            players=players,
            score=score,
        )
    order = sorted(range(players), key=lambda s: (-totals[s], s))
    lines = [
        # "1\." keeps a tie's shared place (Markdown would renumber "1." lines as a list).
        f"{_place(totals, s)}\\. {plain_label(table, s)} — **{totals[s]}**"
        + (" 🏆" if s in outcome.winners else "")
        + (_(" (you)") if s == seat else "")
        for s in order
    ]
    if table.daily is not None:
        lines.append(_("A daily deal: its result goes to the day's board."))
    elif table.league is not None:
        lines.append(_("A league entry: its deals are matchpointed in the league's standings."))
    elif table.replay is not None:
        lines.append(replay_line(table.replay))
    elif table.hints:
        lines.append(_("A practice table (hints on): it counts in no ranking."))
    else:
        lines.append(_("This game counts in the rankings (`/stats` shows your rating)."))
        if rating is not None:
            # As /stats shows ratings: one decimal (openskill's scale is tens, not thousands).
            lines.append(
                _(
                    "Rating **{rating}** ({change}) after this game",
                    rating=f"{rating.rating:.1f}",
                    change=f"{rating.delta:+.1f}",
                )
            )
    link = table_link(table)
    lines.append(link_line(where, link))
    controls = discord.ui.View(timeout=None)
    if link is not None:
        controls.add_item(discord.ui.Button(label=_("Results"), url=link, emoji="📜"))
    if not table.in_dms and table.league is None:  # a league set is played once
        for item in rematch_view(table.id).children:
            controls.add_item(item)
    if review and outcome.deals_played:
        last = outcome.deals_played
        for item in review_view(table.id, last).children:
            controls.add_item(item)
    text = "\n".join(lines)
    shown = controls if controls.children else None
    return Layout(Screen(head=head, brief=text, full=text, accent=COLOUR_DONE, controls=shown))
