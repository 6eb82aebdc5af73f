"""The bot's handlers, put together (``TrionfiBot.controller``), and where each click goes.

Every restart-proof component hands its click here (``bot.ui.components``: ``TableClicks``,
``ChoiceClicks``, ``PickClicks``, ``RecordClicks``, ``OnboardClicks``, ``TournamentClicks``),
which sends it to the handler of its concern; slash commands call those handlers directly
(``ctl.lobby.open_lobby``, ``ctl.play.command_act``…).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import _
from bot.services.stats import StatsService
from bot.services.tables import TableService
from bot.ui.components.records import BoardButton
from bot.ui.components.table import parse_button
from bot.ui.delivery.answer import Ack, reply_error
from bot.ui.delivery.publisher import Publisher
from bot.ui.handlers.coach import CoachController
from bot.ui.handlers.daily import DailyController
from bot.ui.handlers.desk import Desk, Host, from_hand
from bot.ui.handlers.league import LeagueController
from bot.ui.handlers.league_tables import LeagueTableController
from bot.ui.handlers.life import LifeController
from bot.ui.handlers.lobby import LobbyController
from bot.ui.handlers.onboard import OnboardController
from bot.ui.handlers.picks import PicksController
from bot.ui.handlers.play import PlayController
from bot.ui.handlers.records import RecordsController
from bot.ui.handlers.screens import TableScreens
from bot.ui.handlers.tournament import TournamentController
from bot.ui.text.locale import for_interaction

#: Table buttons whose click redraws the lobby they sit on.
_LOBBY_VERBS = ("join", "leave", "bot", "start")


class TableController:
    """Glue between Discord and the services for every game: the handlers by concern, the
    screens they and the publisher draw, and the publisher."""

    def __init__(
        self,
        bot: Host,
        service: TableService,
        stats: StatsService,
        *,
        retry_delays: tuple[float, ...] = (),
    ) -> None:
        self.bot = bot
        self.service = service
        self.desk = Desk(bot, service)
        self.screens = TableScreens(bot, service)
        self.publisher = (
            Publisher(bot, service, self.screens, retry_delays=retry_delays)
            if retry_delays
            else Publisher(bot, service, self.screens)
        )
        self.lobby = LobbyController(self.desk, self.screens, self.publisher)
        self.play = PlayController(self.desk, self.screens, self.publisher)
        self.picks = PicksController(self.desk, self.screens, self.play)
        self.life = LifeController(self.desk, self.lobby, self.publisher)
        self.coach = CoachController(self.desk, self.publisher)
        self.daily = DailyController(self.desk, self.publisher)
        self.league = LeagueController(self.desk, self.publisher)
        self.league_tables = LeagueTableController(self.desk, self.lobby, self.publisher)
        self.tournament = TournamentController(self.desk, self.publisher)
        self.records = RecordsController(self.desk, self.life, stats, self.tournament)
        self.onboard = OnboardController(self.desk, self.publisher)

    # ---- a table's buttons and selects (``TableClicks``, ``ChoiceClicks``) -------------------
    async def on_button(
        self, interaction: discord.Interaction[Any], table_id: int, rest: str
    ) -> None:
        parsed = parse_button(rest)
        if parsed is None:
            with for_interaction(interaction):
                await reply_error(interaction, _("This button is no longer valid."))
            return
        verb, payload = parsed
        # Lobby buttons redraw the lobby and decisions redraw the hand they sit on; the
        # others answer privately.
        mode: Ack = "private"
        if verb in _LOBBY_VERBS or (verb == "act" and from_hand(interaction)):
            mode = "update"

        async def work() -> None:
            if verb == "hand":
                await self.play.show_hand(interaction, table_id)
            elif verb == "back":
                await self.life.back(interaction, table_id)
            elif verb == "rematch":
                await self.life.rematch(interaction, table_id)
            elif verb == "end":
                await self.life.end(interaction, table_id)
            elif verb == "hint":
                await self.coach.hint(interaction, table_id)
            elif verb == "compare":
                await self.daily.compare_table(interaction, table_id)
            elif verb == "review" and payload is not None:
                await self.coach.review(interaction, table_id, int(payload["deal"]))
            elif verb == "act" and payload is not None:
                await self.play.act(interaction, table_id, payload)
            elif verb == "start" and await self.league_tables.is_league_table(table_id):
                await self.league_tables.start(interaction, table_id)
            else:
                await self.lobby.button(interaction, table_id, verb)

        await self.desk.guarded(interaction, work, mode)

    async def on_replay(
        self, interaction: discord.Interaction[Any], table_id: int, deal_no: int, seq: int | None
    ) -> None:
        """The Review's **Try another way** menu (``ReplayClicks``): answered privately."""
        await self.desk.guarded(
            interaction, lambda: self.coach.try_another_way(interaction, table_id, deal_no, seq)
        )

    async def on_action(
        self, interaction: discord.Interaction[Any], table_id: int, payload: dict[str, Any]
    ) -> None:
        mode: Ack = "update" if from_hand(interaction) else "private"
        await self.desk.guarded(
            interaction, lambda: self.play.act(interaction, table_id, payload), mode
        )

    async def on_amount(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        payload: dict[str, Any],
        typed: str,
        bounds: tuple[int, int],
    ) -> None:
        """A number typed in an amount modal (``AmountClicks``): a whole number within the
        bounds its field showed is made like a click; anything else changes nothing."""
        text = typed.strip().removeprefix("+")
        low, high = bounds
        if re.fullmatch(r"\d{1,4}", text, re.ASCII) is None or not low <= int(text) <= high:
            with for_interaction(interaction):
                await reply_error(
                    interaction,
                    _(
                        "A bid is a whole number from {low} to {high}. Nothing was bid.",
                        low=low,
                        high=high,
                    ),
                )
            return
        await self.on_action(interaction, table_id, {**payload, "amount": int(text)})

    async def on_choice(
        self, interaction: discord.Interaction[Any], table_id: int, selected: list[str]
    ) -> None:
        """A multi-card choice changed: redraw the hand with the picks (nothing is applied)."""
        mode: Ack = "update" if from_hand(interaction) else "private"
        await self.desk.guarded(
            interaction, lambda: self.play.choose(interaction, table_id, selected), mode
        )

    # ---- the way in: /play, practice, rules pages (``OnboardClicks``) -------------------------
    async def on_onboard(
        self, interaction: discord.Interaction[Any], verb: str, game_id: str, page: int | None
    ) -> None:
        await self.onboard.click(interaction, verb, game_id, page)

    async def on_pick(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        kind: str,
        what: str,
        deal: int | None,
    ) -> None:
        """A multi-card choice's toggle or Suggest (``PickClicks``)."""
        await self.picks.pick(interaction, table_id, kind, what, deal)

    # ---- a tournament's buttons (``TournamentClicks``) ----------------------------------------
    async def on_tournament(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> None:
        await self.tournament.click(interaction, tournament_id, verb)

    # ---- the record buttons (``RecordClicks``) ------------------------------------------------
    async def on_sheet(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        await self.records.sheet(interaction, table_id)

    async def on_board(self, interaction: discord.Interaction[Any], button: BoardButton) -> None:
        await self.records.board(interaction, button)

    async def on_forget(
        self, interaction: discord.Interaction[Any], user_id: int, verb: str
    ) -> None:
        await self.records.forget(interaction, user_id, verb)
