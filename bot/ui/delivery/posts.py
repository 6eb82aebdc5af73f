"""What a commit owes its table's channel besides the table message (``job_for``): a post per
ended deal (its score sheet, with the expert's **Review** button), the commit's notices ("…
ran out of time", "… resigned") and, at the end, the final result. Each post is named for the
outbox (``Post.key``: ``deal:N``, ``notice:SEQ:PART``, ``final``), so it goes out once
whoever sends it (``bot.db.outbox``)."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.services.analysis import expert_ready
from bot.services.models import Outcome
from bot.ui.components.layout import from_embed
from bot.ui.components.views import review_view
from bot.ui.delivery.jobs import Job, Post
from bot.ui.delivery.protocols import Screens
from bot.ui.games import renderer
from bot.ui.text.cards import plain_suits
from bot.ui.text.life import notice_text
from bot.ui.text.locale import for_table
from bot.ui.text.render import final_embed


def job_for(
    outcome: Outcome,
    screens: Screens,
    *,
    plain: bool,
    fresh: bool = False,
    renotify: set[int] | None = None,
) -> Job:
    """The job that shows ``outcome``, with the posts it owes, drawn in the table's language
    (the caller may be answering someone in another one); ``plain``: with the Unicode suit
    signs (the bot may not use its emojis in the channel)."""
    shows = None if outcome.prior_seq is None else outcome.table.seq
    job = Job(outcome, [], fresh, set(renotify or ()), upto=shows)
    quiet = discord.AllowedMentions.none()
    with for_table(outcome.table), plain_suits(plain):
        job.posts = summaries(outcome)
        for notice in outcome.notices:
            text = notice_text(outcome.table, notice)
            if text is not None:
                job.posts.append(Post({"content": text, "allowed_mentions": quiet}, notice.key))
        if outcome.finished:
            r = renderer(outcome.table.game_id)
            view = from_embed(final_embed(outcome, _(r.TITLE)), screens.rematch_view(outcome.table))
            job.posts.append(Post({"view": view}, "final", final=outcome))
    return job


def summaries(outcome: Outcome) -> list[Post]:
    """A post per ended deal: its score sheet, with the expert's **Review** button when the
    expert plays the game. The first takes the table message's place (``replaces``: that
    one is deleted)."""
    r = renderer(outcome.table.game_id)
    review = expert_ready(outcome.table.game_id)
    return [
        Post(
            {
                "view": from_embed(
                    r.deal_summary_embed(outcome.table, ended, totals_after(outcome, ended.number)),
                    review_view(outcome.table.id, ended.number) if review else None,
                )
            },
            f"deal:{ended.number}",
            replaces=i == 0,
        )
        for i, ended in enumerate(outcome.ended_deals)
    ]


def totals_after(outcome: Outcome, deal_number: int) -> tuple[int, ...]:
    """Running totals right after deal ``deal_number`` (later deals of this call removed)."""
    totals = list(outcome.totals)
    for ended in outcome.ended_deals:
        if ended.number > deal_number:
            totals = [t - d for t, d in zip(totals, ended.result.deltas, strict=True)]
    return tuple(totals)
