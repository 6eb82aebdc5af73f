"""``/trionfi``: server settings and the list of running tables (Manage Server)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.services.errors import ServiceError
from bot.services.life import GuildSettingsRecord
from bot.services.models import TableInfo
from bot.ui.components.table import TableButton
from bot.ui.delivery.answer import send
from bot.ui.games import game_title
from bot.ui.text.life import CLOCK_WORDS
from bot.ui.text.locale import LANGUAGE_CHOICES, language_name
from bot.ui.text.mention import typed
from bot.ui.text.names import escape_name
from bot.ui.text.render import (
    COLOUR_LOBBY,
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    clip_lines,
    table_number,
)

if TYPE_CHECKING:
    from bot.client import TrionfiBot

CLOCKS = [app_commands.Choice(name=words, value=key) for key, words in CLOCK_WORDS.items()]
AUTO_CHOICE = app_commands.Choice(name="The server's Discord language", value="auto")
MAX_END_BUTTONS = 25  # 5 rows of 5 buttons
#: Characters of a listed table's player names: 25 lines of six 32-character names still
#: fit the embed's description (4,096).
HUMANS_LIMIT = 90


def settings_embed(
    s: GuildSettingsRecord, daily_channel: int | None = None, league_channel: int | None = None
) -> discord.Embed:
    embed = discord.Embed(title=_("Trionfi settings for this server"), colour=COLOUR_LOBBY)
    where = (
        clip_lines([f"<#{c}>" for c in s.channels], FIELD_VALUE_LIMIT, sep=", ")
        if s.channels
        else _("any channel")
    )
    embed.add_field(name=_("Tables may open in"), value=where, inline=False)
    embed.add_field(name=_("Default turn clock"), value=_(CLOCK_WORDS[s.turn_clock]), inline=False)
    embed.add_field(
        name=_("Computer players"),
        value=_("allowed") if s.computers_allowed else _("off"),
        inline=True,
    )
    embed.add_field(
        name=_("Global leaderboards"),
        value=_("shown") if s.global_leaderboards else _("hidden"),
        inline=True,
    )
    embed.add_field(
        name=_("Pictures"),
        value=_("on by default") if s.pictures else _("off by default"),
        inline=True,
    )
    embed.add_field(name=_("Language of new tables"), value=language_name(s.language), inline=True)
    embed.add_field(
        name=_("Daily deal announcement"),
        value=f"<#{daily_channel}>" if daily_channel is not None else _("off"),
        inline=True,
    )
    embed.add_field(
        name=_("League nights"),
        value=_("in {channel}", channel=f"<#{league_channel}>")
        if league_channel is not None
        else _("off"),
        inline=True,
    )
    # A footer shows no mention: the command as typed, in the reader's language.
    embed.set_footer(
        text=_(
            "Change with {command} <option>; everyone else sees defaults.",
            command=typed("trionfi settings").strip("`"),
        )
    )
    return embed


def tables_message(tables: list[TableInfo]) -> dict[str, Any]:
    embed = discord.Embed(title=_("Running tables on this server"), colour=COLOUR_LOBBY)
    if not tables:
        embed.description = _("No table is open right now.")
        return {"embed": embed}
    lines: list[str] = []
    for t in tables:
        names = [escape_name(s.name) for s in t.seats if s.user_id is not None and not s.resigned]
        humans = clip_lines(names, HUMANS_LIMIT, sep=", ")
        state = _("lobby") if t.status == "lobby" else _("playing")
        lines.append(
            _(
                "**#{id}** {game} in {channel} · {state} · {humans}",
                id=t.id,
                game=game_title(t.game_id),
                channel=f"<#{t.channel_id}>",
                state=state,
                humans=humans or _("no humans"),
            )
        )
    # As many tables as fit (whole lines) and have a button; the rest are ended in place.
    embed.description = clip_lines(
        lines,
        DESCRIPTION_LIMIT,
        lambda n: _("…and {n} more (end them from their channel).", n=n),
        max_lines=MAX_END_BUTTONS,
    )
    view = discord.ui.View(timeout=None)
    for t in tables:
        # Names are escaped: only a table's own line has its bold number.
        if f"**{table_number(t.id)}**" in embed.description:
            view.add_item(
                TableButton(
                    t.id, "end", label=_("End #{id}", id=t.id), style=discord.ButtonStyle.danger
                )
            )
    return {"embed": embed, "view": view}


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(commands.GroupCog, group_name="trionfi", group_description="Trionfi admin"):
    """Server admins' commands (Manage Server)."""

    def __init__(self, bot: TrionfiBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="settings")
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.choices(turn_clock=CLOCKS, language=[*LANGUAGE_CHOICES, AUTO_CHOICE])
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_clock: str | None = None,
        computers: bool | None = None,
        global_leaderboards: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        any_channel: bool = False,
        pictures: bool | None = None,
        language: str | None = None,
        daily_channel: discord.TextChannel | None = None,
        daily_off: bool = False,
        league: bool | None = None,
        league_channel: discord.TextChannel | None = None,
    ) -> None:
        """Show or change where tables may open, the turn clock and what players may use.

        Args:
            turn_clock: Default turn clock of new tables.
            computers: Whether computer players may take seats.
            global_leaderboards: Whether global leaderboards show this server's players.
            allow_channel: Add a channel where tables may be opened.
            disallow_channel: Remove a channel from the allowed list.
            any_channel: Allow tables in every channel again.
            pictures: Pictures of tables and hands by default (players can choose /pictures).
            language: Language of new tables (default: the server's Discord language).
            daily_channel: Post a short announcement of each day's daily deal in this channel.
            daily_off: Stop the daily deal announcement (the default).
            league: Join the league nights between servers (or leave them).
            league_channel: Where the league's sessions are announced (default: this channel).
        """
        ctl = self.bot.controller

        async def work() -> None:
            assert interaction.guild_id is not None  # guild_only
            service = ctl.service
            guild_id = interaction.guild_id
            if daily_channel is not None and daily_off:
                raise ServiceError(_("Choose either **daily_channel** or **daily_off**, not both."))
            options = (
                turn_clock,
                computers,
                global_leaderboards,
                allow_channel,
                disallow_channel,
                pictures,
                language,
            )
            text = _("Current settings:")
            if any_channel or any(x is not None for x in options):
                current = await service.update_guild_settings(
                    guild_id,
                    turn_clock=turn_clock,
                    computers_allowed=computers,
                    global_leaderboards=global_leaderboards,
                    allow_channel=allow_channel.id if allow_channel else None,
                    disallow_channel=disallow_channel.id if disallow_channel else None,
                    any_channel=any_channel,
                    pictures=pictures,
                    language=language,
                )
                text = _("Settings saved.")
            else:
                current = await service.guild_settings(guild_id)
            if daily_channel is not None or daily_off:
                await service.set_daily_channel(
                    guild_id, daily_channel.id if daily_channel is not None else None
                )
                text = _("Settings saved.")
            if league is False and league_channel is not None:
                raise ServiceError(
                    _("Choose either **league_channel** or **league:False**, not both.")
                )
            if league is not None or league_channel is not None:
                here = league_channel.id if league_channel is not None else interaction.channel_id
                await service.set_league(guild_id, here if league is not False else None)
                text = _("Settings saved.")
            daily = await service.daily_channel(guild_id)
            in_league = await service.league_channel(guild_id)
            await send(
                interaction,
                ephemeral=True,
                content=text,
                embed=settings_embed(current, daily, in_league),
            )

        await ctl.desk.guarded(interaction, work)

    @app_commands.command(name="tables")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        """List this server's open tables, with a button to end each one."""
        ctl = self.bot.controller

        async def work() -> None:
            assert interaction.guild_id is not None
            tables = await ctl.service.open_tables(interaction.guild_id)
            await send(interaction, ephemeral=True, **tables_message(tables))

        await ctl.desk.guarded(interaction, work)


async def setup(bot: TrionfiBot) -> None:
    await bot.add_cog(AdminCog(bot))
