"""Who may change what (the fuzz's authority check, issue 28): read the rows that matter
before an interaction, read them again after, and refuse any change its sender had no right
to make.

- A table (its status, options, host, action log or snapshot) changes only through someone
  seated at it, before or after the interaction (joining counts), or its host; from a channel
  of the table's own server, or from a DM (a seat's hand, a daily deal: ``guild_id`` 0).
- A player's seat comes, goes or changes (resigned, handed to a computer) only through that
  player or the host (replacing someone away); computers filling empty seats are anyone's at
  the table.
- A table that appears was opened by the sender, in the server they sent from.
- Ratings move only when a table finishes or closes in the same interaction.
- A daily attempt changes only through its own player.

The rows are read straight from the SQLite file (the services expose no "everything" query,
and a test must not depend on the code it checks to report what changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.services.tables import TableService

_TABLES = (
    "SELECT id, guild_id, status, owner_id, options_json, seq, length(snapshot_json), "
    "updated_at FROM tables"
)
_SEATS = "SELECT table_id, seat, user_id, is_bot, resigned, dm_message_id FROM seats"
_RATINGS = "SELECT game_id, player_id, games, mu, sigma, rated FROM player_games"
_DAILY = "SELECT day, game_id, user_id, status, score, table_id FROM daily_attempts"


@dataclass(frozen=True)
class Rows:
    """The rows the rights are about, at one moment."""

    tables: dict[int, tuple[Any, ...]]
    #: table -> seat -> (user_id, is_bot, resigned, dm_message_id)
    seats: dict[int, dict[int, tuple[Any, ...]]]
    ratings: dict[tuple[str, int], tuple[Any, ...]]
    daily: dict[tuple[str, str, int], tuple[Any, ...]]

    def users(self, table_id: int) -> set[int]:
        return {s[0] for s in self.seats.get(table_id, {}).values() if s[0] is not None}


def _players(seats: dict[int, tuple[Any, ...]]) -> dict[int, tuple[Any, ...]]:
    """Each human's (is_bot, resigned) at a table: whether they hold a seat, and how."""
    return {s[0]: s[1:3] for s in seats.values() if s[0] is not None}


class Authority:
    """``read()`` before an interaction, ``check()`` after it (which reads again)."""

    def __init__(self) -> None:
        self.changes = 0  # tables changed, each by someone with the right to
        # SQLite counts the rows its connection changed (``total_changes()``): while the
        # count stands still nothing was written, and the last rows read are still true.
        self._last: tuple[object, int, Rows] | None = None

    async def read(self, service: TableService) -> Rows:
        db = service.db
        async with db.read() as conn:
            row = await conn.fetchone("SELECT total_changes()")
            assert row is not None
            written = int(row[0])
            if self._last is not None and self._last[0] is db and self._last[1] == written:
                return self._last[2]
            tables = await conn.fetchall(_TABLES)
            seats = await conn.fetchall(_SEATS)
            ratings = await conn.fetchall(_RATINGS)
            daily = await conn.fetchall(_DAILY)
        by_table: dict[int, dict[int, tuple[Any, ...]]] = {}
        for table_id, seat, *rest in seats:
            by_table.setdefault(table_id, {})[seat] = tuple(rest)
        rows = Rows(
            {row[0]: tuple(row[1:]) for row in tables},
            by_table,
            {(row[0], row[1]): tuple(row[2:]) for row in ratings},
            {(row[0], row[1], row[2]): tuple(row[3:]) for row in daily},
        )
        self._last = (db, written, rows)
        return rows

    async def check(
        self, service: TableService, before: Rows, user_id: int, guild_id: int | None
    ) -> set[int]:
        """Assert that ``user_id``, sending from ``guild_id`` (None: a DM), changed nothing
        beyond their rights; returns the tables that changed."""
        after = await self.read(service)
        if after is before:
            return set()  # nothing written
        who = f"user {user_id} from {'a DM' if guild_id is None else f'server {guild_id}'}"
        changed: set[int] = set()
        finished = False
        for table_id, row in after.tables.items():
            old = before.tables.get(table_id)
            seats_then, seats_now = before.seats.get(table_id, {}), after.seats.get(table_id, {})
            if old == row and seats_then == seats_now:
                continue
            changed.add(table_id)
            table_guild, status, owner = row[0], row[1], row[2]
            if old is None:
                assert owner == user_id, f"{who} made table {table_id} for {owner}"
                assert guild_id is None or table_guild in (guild_id, 0), (
                    f"{who} opened table {table_id} in server {table_guild}"
                )
                continue
            if table_guild != 0 and guild_id is not None:
                assert table_guild == guild_id, (
                    f"{who} changed table {table_id} of server {table_guild}: {old} -> {row}"
                )
            present = before.users(table_id) | after.users(table_id) | {owner}
            assert user_id in present, (
                f"{who} changed table {table_id} without a seat at it: {old} -> {row}, "
                f"seats {seats_then} -> {seats_now}"
            )
            # Per player, not per seat: a lobby closes up its seats when someone leaves.
            players_then, players_now = _players(seats_then), _players(seats_now)
            for player in players_then.keys() | players_now.keys():
                was, now = players_then.get(player), players_now.get(player)
                assert was == now or player == user_id or user_id == owner, (
                    f"{who} changed player {player}'s seat at table {table_id}: {was} -> {now}"
                )
            if old[1] != status and status in ("finished", "abandoned"):
                finished = True
            self.changes += 1
        if after.ratings != before.ratings:
            assert finished, f"ratings moved without a table ending, after {who}"
        for key in before.daily.keys() | after.daily.keys():
            if before.daily.get(key) != after.daily.get(key):
                assert key[2] == user_id, f"{who} changed the daily attempt {key}"
        return changed
