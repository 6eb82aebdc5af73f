"""Every message a table shows, as message fields: its lobby, the running table, each seat's
hand with its controls, a closed or handed-over hand, a daily attempt's result.

Each is put together from the game's look (``bot.ui.games``), its controls
(``bot.ui.components``) and the shared words (``bot.ui.text``), in the reader's language. The
handlers draw them in answers; the publisher draws them through ``bot.ui.delivery.protocols.
Screens``, which ``TableScreens`` is.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import discord

from bot.db.ratings import GameRating
from bot.engine.views import SeatView
from bot.i18n import N_, _, p_
from bot.services.analysis import expert_ready
from bot.services.dm_room import REPLACED
from bot.services.league import next_night
from bot.services.league_tables import NIGHT_OVER
from bot.services.models import Outcome, SeatInfo, TableInfo
from bot.services.tables import TableService
from bot.ui.components.cards import decision_view
from bot.ui.components.layout import from_embed
from bot.ui.components.table import stamp_deal
from bot.ui.components.toggles import finish_toggles, toggle_controls
from bot.ui.components.views import (
    add_hint_button,
    back_view,
    lobby_view,
    rematch_view,
    result_view,
    table_view,
)
from bot.ui.delivery.pictures import add_hand_picture
from bot.ui.games import game_title, renderer
from bot.ui.handlers.desk import Host
from bot.ui.handlers.layouts import hand_layout, result_card, table_layout
from bot.ui.text import league as league_words
from bot.ui.text.brief import link_line
from bot.ui.text.daily import result_embed
from bot.ui.text.explain import with_reasons
from bot.ui.text.first_steps import with_first_steps
from bot.ui.text.life import clock_line, clock_name
from bot.ui.text.locale import for_seat, for_table
from bot.ui.text.names import escape_name, pinging
from bot.ui.text.render import (
    coaching_lines,
    lobby_embed,
    replaced_line,
    table_link,
    with_coaching,
)

#: The last look of a **Show my hand** answer that is no longer redrawn (issue 30).
OUT_OF_DATE = N_("This view is out of date — press **Show my hand** for your current hand.")


class TableScreens:
    """A table's messages as they should look now (``bot``: for the names of the server and
    channel in a hand's header; ``service``: the players' picture settings, daily results)."""

    def __init__(self, bot: Host, service: TableService) -> None:
        self.bot = bot
        self.service = service

    # ---- the table's message -------------------------------------------------------------
    def lobby_message(self, table: TableInfo) -> dict[str, Any]:
        """The lobby, or a closed table's last word, in the table's language."""
        with for_table(table):
            if table.end_reason == NIGHT_OVER:
                # A league table's lobby closed with its night (``close_league_lobbies``).
                now = self.service.now()
                following = next_night(now, self.service.league_night)
                return {"view": from_embed(league_words.night_over_embed(table, following))}
            return _lobby_fields(table)

    def table_message(self, outcome: Outcome) -> dict[str, Any]:
        """The running table's public message: whose turn (mentioned), the clock, the table;
        the spectators' view (a player's own hand is in their DM)."""
        table = outcome.table
        r = renderer(table.game_id)
        with for_table(table):
            content = "\n".join(x for x in (r.turn_content(outcome), clock_line(table)) if x)
            # A daily deal's (a replay's) table sits in its player's DMs, above their hand.
            controls = (
                None
                if table.in_dms
                else table_view(
                    table.id, someone_away=any(s.away for s in table.seats), hints=table.hints
                )
            )
            embed = with_reasons(with_coaching(r.table_embed(outcome), table), outcome)
            return {
                "view": table_layout(outcome, embed, content or None, controls),
                # Only the table's own players can be pinged (the turn's mention).
                "allowed_mentions": pinging(
                    *(s.user_id for s in table.seats if not s.is_bot and not s.resigned)
                ),
            }

    def finished_table(self, outcome: Outcome) -> dict[str, Any]:
        """The table message once its game is over (its result is posted below it)."""
        r = renderer(outcome.table.game_id)
        with for_table(outcome.table):
            return {"view": from_embed(r.table_embed(outcome))}

    @staticmethod
    def rematch_view(table: TableInfo) -> discord.ui.View | None:
        """Under a game's result: a rematch (none after a daily deal: one a day)."""
        # None after a league table either: its set is played once.
        return None if table.in_dms or table.league is not None else rematch_view(table.id)

    async def daily_result(self, table: TableInfo) -> dict[str, Any]:
        """The final post of a finished attempt, in its DM (the publisher's ``final`` post)."""
        mine = await self.service.daily_table(table.id)
        standing = None
        if mine.status == "finished" and mine.score is not None:
            boards = await self.service.daily_boards(mine.game_id, mine.user_id, None, mine.day)
            standing = boards.world_standing
        with for_table(table):
            controls = result_view(table.id) if mine.score is not None else None
            return {"view": from_embed(result_embed(mine, standing), controls)}

    # ---- hands -----------------------------------------------------------------------------
    def where(self, table: TableInfo) -> str:
        """A hand's header: the server, channel and table it belongs to."""
        if table.daily is not None:  # played alone, in the player's DMs
            return _("Daily deal · {day}", day=table.daily)
        if table.league is not None:
            return _("League night · {game}", game=game_title(table.game_id))
        if table.replay is not None:
            return _("Another way · table #{id}, deal {n}", id=table.replay[0], n=table.replay[1])
        guild = self.bot.get_guild(table.guild_id)
        # A tournament's table lives in a thread of its channel (issue 34).
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        # Shown as markdown (a masked link's text): names are escaped.
        server = escape_name(guild.name) if guild else _("your server")
        place = f"#{escape_name(channel.name)}" if channel else _("the table channel")
        return _("{server} › {place} · table #{id}", server=server, place=place, id=table.id)

    def place(self, table: TableInfo) -> str | None:
        """The server a table is played in, as a hand's first line names it (None: a daily
        deal, a league entry or a replay, played alone in the DMs)."""
        if table.in_dms:
            return None
        guild = self.bot.get_guild(table.guild_id)
        return escape_name(guild.name) if guild else _("your server")

    def hand_message(
        self,
        outcome: Outcome,
        seat: int,
        selected: tuple[str, ...] = (),
        rating: GameRating | None = None,
    ) -> dict[str, Any]:
        """The seat's hand and decision controls (``selected``: a multi-card choice in
        progress, see ``bot/ui/components/choice.py``); once the game is over, the seat's
        result card (with ``rating``: what the game did to the player's rating)."""
        table = outcome.table
        r = renderer(table.game_id)
        view = outcome.seat_views[seat]
        with for_seat(table, seat):  # in the player's own language, wherever it is shown
            game = _(r.TITLE)
            if outcome.finished:
                card = result_card(
                    outcome,
                    seat,
                    game=game,
                    where=self.where(table),
                    review=expert_ready(table.game_id),
                    rating=rating,
                )
                return {"view": card}
            embed = r.hand_embed(table, view, self.where(table), outcome)
            embed = with_first_steps(embed, table, view, outcome.deal_number)
            controls = decision_controls(r, table.id, view, selected)
            if controls is not None:
                stamp_deal(controls, outcome.deal_number)
                finish_toggles(controls, table.id, outcome.deal_number, suggest=table.hints)
                if table.hints:
                    add_hint_button(controls, table.id)
            me = next(s for s in table.seats if s.seat == seat)
            if me.away and controls is None:
                controls = back_view(table.id)  # the computer is playing this seat
            layout = hand_layout(
                outcome,
                seat,
                embed,
                controls,
                game=game,
                place=self.place(table),
                where=self.where(table),
            )
        return {"view": layout}

    async def hand_with_picture(
        self, outcome: Outcome, seat: int, user_id: int | None, selected: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """``hand_message`` with the picture of the hand, if the player wants pictures; once
        the game is over, the result card with the player's rating change, read from the
        database (the commit that ended the game stored it)."""
        rating = None
        if outcome.finished and user_id is not None:
            rating = await self.service.rating_change(outcome.table.id, user_id)
        view = outcome.seat_views.get(seat)
        if not selected and view is not None and not outcome.finished:
            # A choice being picked card by card (toggles): its picks are kept by the service.
            selected = await self.service.picks_for(
                outcome.table.id, seat, outcome.deal_number, view
            )
        fields = self.hand_message(outcome, seat, selected, rating)
        if user_id is not None and await self.service.pictures_on(outcome.table.guild_id, user_id):
            with for_seat(outcome.table, seat):
                fields = await add_hand_picture(fields, outcome, seat, selected)
        return fields

    def closed_hand(self, table: TableInfo, seat: SeatInfo | None = None) -> dict[str, Any]:
        """A hand message once its table was closed (no controls left)."""
        with for_seat(table, seat):
            if table.end_reason == REPLACED:
                return self._handless(table, replaced_line())
            return self._handless(table, _("This table was closed. It won't count in any ranking."))

    def handed_over(self, table: TableInfo, seat: SeatInfo) -> dict[str, Any]:
        """The hand message of a seat a computer plays now (its player resigned, was replaced,
        or left a daily deal idle): no controls left, so nothing there would only be refused."""
        with for_seat(table, seat):
            if table.in_dms:
                text = _("The computer played the rest of your hand; that result is your score.")
            else:
                text = _("A computer player has taken over your seat at this table.")
            return self._handless(table, text)

    def out_of_date_hand(self, table: TableInfo | None, seat: SeatInfo | None) -> dict[str, Any]:
        """A **Show my hand** answer no longer redrawn (its token lapses, the game is over, or
        a newer one replaced it): no controls left, so nothing on it acts on an old state."""
        if table is None:  # the table is gone: the words alone
            return {"view": from_embed(discord.Embed(description=_(OUT_OF_DATE)))}
        with for_seat(table, seat):
            return self._handless(table, _(OUT_OF_DATE))

    def _handless(self, table: TableInfo, text: str) -> dict[str, Any]:
        r = renderer(table.game_id)
        embed = discord.Embed(
            title=_("{game} · table #{id}", game=_(r.TITLE), id=table.id), description=text
        )
        where = link_line(self.where(table), table_link(table))
        return {"view": from_embed(embed, link=where)}


def lobby_embed_of(table: TableInfo) -> discord.Embed:
    """The lobby's words (or a closed table's last word) as an embed, in the table's language
    (``/<game> status`` shows it privately)."""
    with for_table(table):
        return _lobby_embed(table)


def _lobby_embed(table: TableInfo) -> discord.Embed:
    r = renderer(table.game_id)
    if table.status == "abandoned":
        return discord.Embed(
            title=_("{game} · table #{id}", game=_(r.TITLE), id=table.id),
            description=replaced_line()
            if table.end_reason == REPLACED
            else _("This table was closed."),
        )
    if table.league is not None:  # a league table of a server (issue 34)
        return lobby_embed(
            table, _(r.TITLE), league_words.lobby_lines(table.deals), league_words.lobby_status()
        )
    lines = [
        *r.option_lines(table.options),
        _("Turn clock: **{clock}**", clock=clock_name(table.turn_clock)),
        *coaching_lines(table),
    ]
    return lobby_embed(table, _(r.TITLE), lines)


def _lobby_fields(table: TableInfo) -> dict[str, Any]:
    embed = _lobby_embed(table)
    if table.status == "abandoned":
        return {"view": from_embed(embed)}
    controls = lobby_view(table.id, full=table.is_full, computers=table.league is None)
    return {"view": from_embed(embed, controls)}


def decision_controls(
    r: ModuleType, table_id: int, view: SeatView, selected: tuple[str, ...] = ()
) -> discord.ui.View | None:
    """The seat's decision controls: a multi-card choice as toggles when its cards fit (issue
    31), else the game's own builder if it has one, else the default."""
    toggles = toggle_controls(
        table_id, view, selected, p_("choice", "Discard"), getattr(r, "CARD_LABELS", None)
    )
    if toggles is not None:
        return toggles
    custom = getattr(r, "decision_view", None)
    if custom is not None:
        return custom(table_id, view, selected) if selected else custom(table_id, view)
    return decision_view(
        table_id,
        view.legal,
        r.BUTTON_LABELS,
        getattr(r, "CARD_LABELS", None),
        getattr(r, "CARD_NAMES", None),
    )
