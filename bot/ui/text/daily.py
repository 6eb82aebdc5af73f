"""``/daily`` on Discord (issue 20): the day's deal dealt into the player's DMs, the boards,
the comparison after one's own finish, resigning, the DM result post and the servers' daily
announcements.

The attempt itself is an ordinary table whose channel is the player's DM channel: the
publisher shows it there (the table message, the hand, the deal summary) like any table.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.db.daily import Attempt, Board, Standing
from bot.i18n import _, language_of, n_, using
from bot.services.daily import DailyBoards, DailyRecord, Reveal
from bot.services.errors import ServiceError
from bot.services.models import TableInfo
from bot.ui.components.table import TableButton
from bot.ui.delivery.answer import reply, send
from bot.ui.delivery.failures import Broken, DeliveryFailure, Lost, Retry, attempt
from bot.ui.games import game_title, renderer
from bot.ui.text.cards import card_list, sort_cards
from bot.ui.text.coach import action_words
from bot.ui.text.locale import for_table
from bot.ui.text.render import COLOUR_LOBBY, FIELD_VALUE_LIMIT, clip_lines
from bot.ui.text.stats import ordinal

if TYPE_CHECKING:
    from bot.ui.handlers.controller import TableController

log = logging.getLogger(__name__)

UPKEEP_EVERY = 60.0  # seconds between two rounds of announcements and idle attempts
DECISIONS_SHOWN = 12  # decisions listed per player in a comparison (the contract ones first)


def _name(text: str) -> str:
    return discord.utils.escape_markdown(text)


def score_text(score: int) -> str:
    return f"{score:+,}"


def percentile_text(standing: Standing) -> str:
    return _("{ordinal} percentile", ordinal=ordinal(round(standing.percentile)))


def standing_line(standing: Standing) -> str:
    """ "Rank 3 of 12 · 75th percentile" (matchpoints: ties count half)."""
    return _(
        "rank **{rank}** of {players} · {percentile}",
        rank=standing.rank,
        players=standing.players,
        percentile=percentile_text(standing),
    )


def dm_link(channel_id: int, message_id: int | None = None) -> str:
    base = f"https://discord.com/channels/@me/{channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


# ---- embeds --------------------------------------------------------------------------------
def intro_embed(game_id: str, day: str) -> discord.Embed:
    """The DM message the attempt's table message grows from (sent before anything else, to
    learn whether the player's DMs are open)."""
    return discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day}", game=game_title(game_id), day=day),
        description=_("Dealing… everyone in every server gets these same cards today."),
        colour=COLOUR_LOBBY,
    )


def _board_lines(board: Board, me: int) -> str:
    if not board.players:
        return _("Nobody has finished yet.")
    lines = []
    for i, e in enumerate(board.top, start=1):
        flag = " 🏳️" if e.resigned else ""
        who = f"**{_name(e.name)}**" if e.user_id == me else _name(e.name)
        lines.append(f"`{i:>2}` {who} · {score_text(e.score)}{flag}")
    more = board.players - len(board.top)
    if more > 0:
        lines.append(n_("…and {n} more player", "…and {n} more players", more, n=more))
    return clip_lines(lines, FIELD_VALUE_LIMIT)


def boards_embed(boards: DailyBoards, me: int, server: str | None) -> discord.Embed:
    """The day's boards: scores only, nothing of the deal."""
    embed = discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day}", game=game_title(boards.game_id), day=boards.day),
        colour=COLOUR_LOBBY,
    )
    mine = boards.mine
    if mine is None:
        embed.description = _("You haven't played this deal yet: `/daily` deals it to you.")
    elif mine.status == "playing":
        embed.description = _("Your attempt is under way in your DMs.")
    elif mine.status == "abandoned" or mine.score is None:
        embed.description = _("Your attempt was closed without a score.")
    else:
        lines = [_("Your score: **{score}**", score=score_text(mine.score))]
        if boards.world_standing is not None:
            lines.append(_("Everyone: {line}", line=standing_line(boards.world_standing)))
        if boards.server_standing is not None:
            lines.append(_("This server: {line}", line=standing_line(boards.server_standing)))
        embed.description = "\n".join(lines)
    if boards.server is not None:
        embed.add_field(
            name=_(
                "{server} · {n} finished",
                server=server or _("This server"),
                n=boards.server.players,
            ),
            value=_board_lines(boards.server, me),
            inline=False,
        )
    embed.add_field(
        name=_("Every server · {n} finished", n=boards.world.players),
        value=_board_lines(boards.world, me),
        inline=False,
    )
    embed.set_footer(
        text=_(
            "Percentile: players you beat, ties counting half. 🏳️ resigned. The deal stays "
            "hidden until you finish your own attempt."
        )
    )
    return embed


def result_embed(a: Attempt, standing: Standing | None) -> discord.Embed:
    """The DM post when the player's attempt is over."""
    embed = discord.Embed(
        title=_("🗓️ Daily deal · {game} · {day} — done", game=game_title(a.game_id), day=a.day),
        colour=COLOUR_LOBBY,
    )
    if a.score is None:
        embed.description = _("This attempt was closed without a score.")
        return embed
    lines = [_("Your score: **{score}**", score=score_text(a.score))]
    if a.resigned:
        lines.append(_("You resigned: the computer played the rest of your hand."))
    if standing is not None:
        lines.append(_("So far: {line}", line=standing_line(standing)))
    lines.append(
        _(
            "The boards move as others play: `/daily action:Board`. **Compare** shows every "
            "hand and the day's best play; **Review** asks the expert about your decisions."
        )
    )
    embed.description = "\n".join(lines)
    return embed


def result_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, "compare", label=_("Compare"), style=discord.ButtonStyle.primary, emoji="⚖️"
        )
    )
    view.add_item(TableButton(table_id, "review:1", label=_("Review"), emoji="🔍"))
    return view


def _decision_lines(game_id: str, decisions: list[Any]) -> str:
    """Contract decisions first (they shape the deal), then the cards in order."""
    contract = [d for d in decisions if d.action.type != "play"]
    cards = [d for d in decisions if d.action.type == "play"]
    lines = [action_words(game_id, d.action) + (" 🤖" if d.by_computer else "") for d in contract]
    if cards:
        r = renderer(game_id)
        shown = card_list([d.action.card for d in cards], getattr(r, "CARD_LABELS", {}))
        lines.append(_("cards: {cards}", cards=shown))
    return clip_lines(lines[: DECISIONS_SHOWN + 1], FIELD_VALUE_LIMIT) or "—"


def reveal_embed(rv: Reveal) -> discord.Embed:
    """The whole deal for a player who finished it: every hand as dealt, the result, their
    decisions beside the day's best player's at the same seat."""
    a, table = rv.attempt, rv.table
    r = renderer(a.game_id)
    special = getattr(r, "CARD_LABELS", {})
    embed = discord.Embed(
        title=_("⚖️ Daily deal · {game} · {day}", game=game_title(a.game_id), day=a.day),
        colour=COLOUR_LOBBY,
    )
    lines = [
        _(
            "Your score: **{score}** · {line}",
            score=score_text(a.score or 0),
            line=standing_line(rv.standing),
        )
    ]
    embed.description = "\n".join(lines)
    for seat, hand in enumerate(rv.hands):
        name = next((s.name for s in table.seats if s.seat == seat), "?")
        who = _("{name} (you)", name=_name(name)) if seat == a.seat else _name(name)
        if seat == rv.dealer:
            who += " · " + _("dealer")
        delta = rv.deltas[seat] if seat < len(rv.deltas) else 0
        embed.add_field(
            name=f"{who} · {score_text(delta)}",
            value=clip_lines([card_list(sort_cards(hand), special)], FIELD_VALUE_LIMIT),
            inline=False,
        )
    if rv.rest:
        embed.add_field(
            name=_("Not dealt to any hand (dog, talon or set aside)"),
            value=card_list(sort_cards(rv.rest), special),
            inline=False,
        )
    embed.add_field(
        name=_("Your decisions"), value=_decision_lines(a.game_id, list(rv.mine)), inline=True
    )
    if rv.best is not None:
        embed.add_field(
            name=_(
                "The day's best: {name} · {score}",
                name=_name(rv.best.name),
                score=score_text(rv.best.score),
            ),
            value=_decision_lines(a.game_id, list(rv.theirs)),
            inline=True,
        )
    else:
        embed.add_field(name=_("The day's best"), value=_("That's you, so far."), inline=True)
    if any(d.by_computer for d in (*rv.mine, *rv.theirs)):
        embed.set_footer(text=_("🤖: played by the computer after you resigned."))
    return embed


def record_field(embed: discord.Embed, record: DailyRecord) -> discord.Embed:
    """``/stats``: the player's dailies (apart from the rated games above)."""
    if not record.played and not record.best_streak:
        return embed
    value = [
        n_("{n} daily deal finished", "{n} daily deals finished", record.played, n=record.played)
    ]
    if record.average_percentile is not None:
        average = ordinal(round(record.average_percentile))
        value.append(_("average **{ordinal}** percentile", ordinal=average))
    value.append(
        _(
            "streak **{current}** · best {best}",
            current=n_("{n} day", "{n} days", record.streak, n=record.streak),
            best=n_("{n} day", "{n} days", record.best_streak, n=record.best_streak),
        )
    )
    embed.add_field(name=_("🗓️ Daily deals"), value="\n".join(value), inline=False)
    return embed


def announcement_text(day: str, winners: list[tuple[str, str, int]]) -> str:
    """A server's daily announcement: today's deals are out, yesterday's best here."""
    lines = [
        _(
            "🗓️ **The daily deals of {day} are out.** Same cards for everyone in every "
            "server: play yours privately with `/daily`, then compare.",
            day=day,
        )
    ]
    for game_id, name, score in winners:
        lines.append(
            _(
                "Yesterday's best here at {game}: **{name}** ({score})",
                game=game_title(game_id),
                name=_name(name),
                score=score_text(score),
            )
        )
    return "\n".join(lines)


# ---- the controller -----------------------------------------------------------------------
class DailyController:
    """Handlers of ``/daily`` and its buttons, on top of ``TableController``."""

    def __init__(self, ctl: TableController) -> None:
        self.ctl = ctl
        self.bot = ctl.bot
        self.service = ctl.service
        self._last_upkeep: float | None = None

    async def command(self, interaction: discord.Interaction[Any], game: str, action: str) -> None:
        async def work() -> None:
            if action == "board":
                await self.board(interaction, game)
            elif action == "compare":
                await self.compare(interaction, game)
            elif action == "resign":
                await self.resign(interaction, game)
            else:
                await self.play(interaction, game)

        await self.ctl.guarded(interaction, work)

    async def play(self, interaction: discord.Interaction[Any], game: str) -> None:
        user = interaction.user
        await self.service.check_daily(user.id, game)
        day = self.service.today()
        try:
            channel = await attempt(user.create_dm(), "opening a DM")
            message = await attempt(
                channel.send(embed=intro_embed(game, day)), "the daily deal's first DM"
            )
        except DeliveryFailure:
            raise ServiceError(
                _(
                    "I can't send you direct messages, and the daily deal is played there. "
                    "Allow them (User Settings → Content & Social → allow DMs from server "
                    "members, or this server's Privacy Settings), then use `/daily` again. "
                    "Your attempt was not used."
                )
            ) from None
        try:
            outcome = await self.service.start_daily(
                user.id,
                user.display_name,
                game,
                guild_id=interaction.guild_id,
                dm_channel_id=channel.id,
                message_id=message.id,
                locale=str(interaction.locale.value),
            )
        except ServiceError:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
            raise
        self.ctl.publish(outcome)
        await reply(
            interaction,
            _(
                "Today's {game} deal is in your DMs: {link}",
                game=game_title(game),
                link=dm_link(channel.id, message.id),
            ),
        )

    async def board(self, interaction: discord.Interaction[Any], game: str) -> None:
        boards = await self.service.daily_boards(game, interaction.user.id, interaction.guild_id)
        guild = interaction.guild
        await send(
            interaction,
            ephemeral=True,
            embed=boards_embed(boards, interaction.user.id, guild.name if guild else None),
        )

    async def compare(self, interaction: discord.Interaction[Any], game: str) -> None:
        found = await self.service.daily_reveal(interaction.user.id, game)
        await send(
            interaction,
            ephemeral=True,
            embed=reveal_embed(found),
            view=result_view(found.table.id),
        )

    async def compare_table(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The **Compare** button of a finished attempt's DM post."""
        found = await self.service.daily_reveal_of_table(table_id, interaction.user.id)
        await send(interaction, ephemeral=True, embed=reveal_embed(found))

    async def resign(self, interaction: discord.Interaction[Any], game: str) -> None:
        outcome = await self.service.resign_daily(interaction.user.id, game)
        self.ctl.publish(outcome)  # which also takes the controls off the hand's DM
        await reply(
            interaction,
            _(
                "You resigned today's {game} deal: the computer played the rest of your hand, "
                "and that result is your score.",
                game=game_title(game),
            ),
        )

    async def result_fields(self, table: TableInfo) -> dict[str, Any]:
        """The final post of a finished attempt, in its DM (the publisher's ``final`` post)."""
        mine = await self.service.daily_table(table.id)
        standing = None
        if mine.status == "finished" and mine.score is not None:
            boards = await self.service.daily_boards(mine.game_id, mine.user_id, None, mine.day)
            standing = boards.world_standing
        with for_table(table):
            return {
                "content": None,
                "embed": result_embed(mine, standing),
                "view": result_view(table.id) if mine.score is not None else None,
            }

    # ---- upkeep: idle attempts and announcements -----------------------------------------
    async def upkeep(self, *, force: bool = False) -> None:
        """Play out idle attempts and post due announcements, at most every ``UPKEEP_EVERY``
        seconds (the sweeper calls this on every round)."""
        now = self.service.now()
        if not force and self._last_upkeep is not None and now - self._last_upkeep < UPKEEP_EVERY:
            return
        self._last_upkeep = now
        for outcome in await self.service.settle_idle_dailies(now):
            self.ctl.publish(outcome)
        await self.announce()

    async def announce(self) -> int:
        """Post today's announcement in every server that asked for one and has not had it
        (claimed in the database: once per server and day whatever the processes). A channel
        the bot cannot post in any more turns the announcement off."""
        posted = 0
        for guild_id, channel_id, day in await self.service.due_announcements():
            winners = await self.service.yesterdays_winners(guild_id, day)
            guild = self.bot.get_guild(guild_id)
            locale = guild.preferred_locale.value if guild is not None else None
            settings = await self.service.guild_settings(guild_id)
            with using(settings.language or language_of(locale)):
                text = announcement_text(day, winners)
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                await attempt(channel.send(text), "a daily announcement")
                posted += 1
            except Lost:
                log.info(
                    "server %s: the daily announcement channel %s is gone or closed to me; "
                    "turning the announcement off",
                    guild_id,
                    channel_id,
                )
                await self.service.set_daily_channel(guild_id, None)
            except Retry:
                log.info("server %s: the daily announcement failed; retrying later", guild_id)
                await self.service.release_announcement(guild_id, day)
            except Broken:
                log.warning("server %s: the daily announcement could not be posted", guild_id)
        return posted
