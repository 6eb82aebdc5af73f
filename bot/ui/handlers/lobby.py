"""What the lobby's buttons and commands do: ``/<game> new``, join, leave, add a computer,
start; and the permission check before a table is created (``bot.ui.delivery.access``: the
essential permissions are required, the others only degrade the table, and its opener is told
which)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import _, n_
from bot.services.errors import ServiceError
from bot.services.models import TableInfo
from bot.ui.delivery import access
from bot.ui.delivery.answer import redraw, reply
from bot.ui.delivery.pictures import add_table_picture, for_edit, for_send
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.desk import Desk, locale_code, where_of
from bot.ui.handlers.screens import TableScreens
from bot.ui.text.locale import for_table

log = logging.getLogger(__name__)


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The essential permissions the bot lacks in the interaction's channel, by their Discord
    names (``access.ESSENTIAL``: no table opens without them)."""
    have = interaction.app_permissions
    return [_(access.NEEDED[attr]) for attr in access.ESSENTIAL if not getattr(have, attr)]


def require_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse (``ServiceError``) a table in a channel where the bot lacks an essential
    permission, naming the missing ones; checked first, so nothing is half-created."""
    missing = missing_permissions(interaction)
    if missing:
        raise ServiceError(
            n_(
                "I can't run a table in this channel: I'm missing the {names} "
                "permission. Ask an admin to grant it, or use another channel.",
                "I can't run a table in this channel: I'm missing the {names} "
                "permissions. Ask an admin to grant them, or use another channel.",
                len(missing),
                names=", ".join(f"**{m}**" for m in missing),
            )
        )


def reads_others_threads(perms: discord.Permissions) -> bool:
    """Permissions that read a channel's private threads one was not added to (Manage Threads
    or Administrator): a league entry refuses such members (issue 34)."""
    return perms.manage_threads or perms.administrator


def reads_threads(interaction: discord.Interaction[Any]) -> bool:
    """The member may read the interaction's channel's private threads they were not added
    to (``reads_others_threads``)."""
    return reads_others_threads(interaction.permissions)


class LobbyController:
    """Opening a table, its seats, and its start."""

    def __init__(self, desk: Desk, screens: TableScreens, publisher: Publisher) -> None:
        self.desk = desk
        self.bot = desk.bot
        self.service = desk.service
        self.screens = screens
        self.publisher = publisher

    async def button(self, interaction: discord.Interaction[Any], table_id: int, verb: str) -> None:
        """**Join**, **Leave**, **Add computer** or **Start** under a lobby: redraw it."""
        user = interaction.user
        if verb == "start":
            await self.start(interaction, table_id)
            return
        here = where_of(interaction)
        if verb == "join":
            table = await self.service.join(
                table_id,
                user.id,
                user.display_name,
                locale_code(interaction.locale),
                where=here,
                sees_threads=reads_threads(interaction),
            )
        elif verb == "leave":
            table = await self.service.leave(table_id, user.id, where=here)
        else:
            table = await self.service.add_computer(table_id, user.id, where=here)
        await redraw(interaction, **self.screens.lobby_message(table))

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        players: int,
        options: dict[str, Any],
        computers: int,
        clock: str | None = None,
        *,
        level: str = "casual",
        hints: bool = False,
        language: str | None = None,
    ) -> None:
        """``/<game> new``: open a lobby (``language``: the table's; None: the server's)."""

        async def work() -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise ServiceError(
                    _("Tables live in server channels: use this command in a server.")
                )
            require_permissions(interaction)
            user = interaction.user
            table = await self.service.open_lobby(
                interaction.guild_id,
                interaction.channel_id,
                user.id,
                user.display_name,
                game_id,
                players,
                options,
                computers,
                clock,
                level=level,
                hints=hints,
                language=language,
                server_locale=locale_code(interaction.guild_locale),
                owner_locale=locale_code(interaction.locale),
            )
            await self.post_lobby(interaction, table)

        await self.desk.guarded(interaction, work)

    async def post_lobby(self, interaction: discord.Interaction[Any], table: TableInfo) -> None:
        """Post a new lobby in the table's channel and answer the opener privately (a public
        "thinking…" answer would have made any refusal public too)."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            message = await channel.send(**for_send(self.screens.lobby_message(table)))
        except discord.HTTPException:
            await self.service.end_table(table.id, table.owner_id, admin=True)
            raise ServiceError(
                _(
                    "I couldn't post the table in this channel, so it was not opened. Check my "
                    "permissions here and try again."
                )
            ) from None
        await self.service.set_message(table.id, message.id)
        link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message.id}"
        lines = [_("[Table #{id}]({link}) is open.", id=table.id, link=link)]
        # What the table will lack here, said once: its host is not told again by DM.
        lacking = access.missing(interaction.app_permissions)
        if "attach_files" in lacking and not await self.service.pictures_on(table.guild_id, None):
            lacking -= {"attach_files"}
        if lacking:
            lines += [f"-# ⚠️ {line}" for line in access.effects(lacking)]
            lines.append(
                n_(
                    "-# Ask a server admin to grant me this permission in this channel.",
                    "-# Ask a server admin to grant me these permissions in this channel.",
                    len(lacking),
                )
            )
            self.publisher.host_told(table.id, lacking)
        await reply(interaction, "\n".join(lines))

    async def lobby_command(
        self, interaction: discord.Interaction[Any], game_id: str, verb: str
    ) -> None:
        """``/<game> join|leave`` typed as commands: answer ephemerally, refresh the lobby."""

        async def work() -> None:
            table = await self.desk.channel_table(interaction, game_id)
            user = interaction.user
            here = where_of(interaction)
            if verb == "join":
                table = await self.service.join(
                    table.id,
                    user.id,
                    user.display_name,
                    locale_code(interaction.locale),
                    where=here,
                    sees_threads=reads_threads(interaction),
                )
                text = _("You joined table #{id}.", id=table.id)
            else:
                table = await self.service.leave(table.id, user.id, where=here)
                text = _("You left table #{id}.", id=table.id)
            await reply(interaction, text)
            await self.refresh(table)

        await self.desk.guarded(interaction, work)

    async def start(
        self, interaction: discord.Interaction[Any], table_id: int | None, game_id: str = ""
    ) -> None:
        """Start a full table (host only) and deal."""

        async def work() -> None:
            tid = (
                table_id
                if table_id is not None
                else (await self.desk.channel_table(interaction, game_id)).id
            )
            outcome = await self.service.start(
                tid, interaction.user.id, where=where_of(interaction)
            )
            table = outcome.table
            on_lobby = (
                interaction.message is not None and interaction.message.id == table.message_id
            )
            if on_lobby and outcome.public is not None and not outcome.ended_deals:
                # The lobby message becomes the table message (no new message to post).
                fields = self.screens.table_message(outcome)
                lacking = access.missing(interaction.app_permissions)
                if "attach_files" not in lacking and await self.service.pictures_on(
                    table.guild_id, None
                ):
                    with for_table(table):  # the table's words, not the clicker's
                        fields = await add_table_picture(fields, outcome)
                fields = access.within(fields, lacking)
                try:
                    await redraw(interaction, **for_edit(fields))
                except discord.HTTPException as e:
                    log.info("could not turn lobby %s into its table: %s", table.id, e)
                else:
                    if interaction.message is not None:
                        self.publisher.seen_table(table.id, interaction.message.id, fields)
            elif not on_lobby:
                await reply(interaction, _("Table #{id} started.", id=table.id))
            # Publishing turns the lobby message into the table (if not done above).
            self.publisher.publish(outcome)

        await self.desk.guarded(interaction, work, "update" if table_id is not None else "private")

    async def refresh(self, table: TableInfo) -> bool:
        """Redraw a lobby's message in place (best effort: the lobby is redrawn on every
        change, and its buttons work whatever it shows)."""
        if table.message_id is None:
            return False
        fields = self.screens.lobby_message(table)
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.get_partial_message(table.message_id).edit(**for_edit(fields))
        except discord.HTTPException as e:
            log.info("could not edit the message of table %s: %s", table.id, e)
            return False
        return True
