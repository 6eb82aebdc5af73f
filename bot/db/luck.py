"""Luck and skill per deal (``deal_luck``, issue 33): each human seat's "cards" (the expert's
value of the hand it was dealt) and "play" (the points its decisions gained or lost against
the expert's), stored once a deal's Review is computed, and averaged for ``/stats``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.database import Database


@dataclass(frozen=True, slots=True)
class DealLuck:
    """One seat's luck and skill in one deal (points of the game's score, expected)."""

    table_id: int
    deal_no: int
    seat: int
    user_id: int
    game_id: str
    cards: float
    play: float
    judged: int  # decisions the Review judged
    decisions: int  # decisions with a choice the player made in the deal


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's average luck and skill over their latest deals (``deals`` of them)."""

    deals: int
    play: float
    cards: float


async def put(db: Database, luck: DealLuck, now: float) -> None:
    """Store ``luck`` (a recomputation replaces the row)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO deal_luck (table_id, deal_no, seat, user_id, game_id, cards, play, "
            "judged, decisions, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, deal_no, seat) DO UPDATE SET cards = excluded.cards, "
            "play = excluded.play, judged = excluded.judged, decisions = excluded.decisions",
            (
                luck.table_id,
                luck.deal_no,
                luck.seat,
                luck.user_id,
                luck.game_id,
                luck.cards,
                luck.play,
                luck.judged,
                luck.decisions,
                now,
            ),
        )


async def get(db: Database, table_id: int, deal_no: int, seat: int) -> DealLuck | None:
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT user_id, game_id, cards, play, judged, decisions FROM deal_luck "
            "WHERE table_id = ? AND deal_no = ? AND seat = ?",
            (table_id, deal_no, seat),
        )
    if row is None:
        return None
    return DealLuck(
        table_id,
        deal_no,
        seat,
        int(row[0]),
        str(row[1]),
        float(row[2]),
        float(row[3]),
        int(row[4]),
        int(row[5]),
    )


async def skill(db: Database, user_id: int, last: int) -> Skill:
    """The user's average play and cards over their ``last`` latest deals with a judged
    decision (a deal without one says nothing about their play)."""
    async with db.read() as conn:
        row = await conn.fetchone(
            "SELECT COUNT(*), AVG(play), AVG(cards) FROM (SELECT play, cards FROM deal_luck "
            "WHERE user_id = ? AND judged > 0 ORDER BY at DESC, table_id DESC, deal_no DESC "
            "LIMIT ?) latest",
            (user_id, last),
        )
    if row is None or not row[0]:
        return Skill(0, 0.0, 0.0)
    return Skill(int(row[0]), float(row[1]), float(row[2]))


# ---- catching up (``TableLuck.catch_up_luck``) ------------------------------------------------
#: A deal's claim in ``bot_state`` (``luck:<table>:<deal>``): its value is the claiming
#: process while it computes, then ``done``.
CLAIM_PREFIX = "luck:"
DONE = "done"


@dataclass(frozen=True, slots=True)
class LostDeal:
    """A finished deal with a human seat whose luck and skill were never stored."""

    table_id: int
    deal_no: int
    finished_at: float


async def lost(
    db: Database, *, since: float, until: float, games: list[str], stale: float, limit: int
) -> list[LostDeal]:
    """Deals finished from ``since`` to ``until``, oldest first, of tables that keep luck rows
    (not practice, a game of ``games``: those the expert plays), not mucked, with a human
    seat without a row, and unclaimed (no claim, or a claim from before ``stale`` not done:
    its process stopped)."""
    if not games:
        return []
    marks = ", ".join("?" for _ in games)
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT d.table_id, d.deal_no, d.finished_at FROM deal_results d "
            "JOIN tables t ON t.id = d.table_id "
            "WHERE d.finished_at >= ? AND d.finished_at <= ? AND d.outcome <> 'mucked' "
            f"AND t.hints = 0 AND t.game_id IN ({marks}) "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = d.table_id "
            "AND s.user_id IS NOT NULL AND s.is_bot = 0 AND NOT EXISTS (SELECT 1 FROM deal_luck l "
            "WHERE l.table_id = d.table_id AND l.deal_no = d.deal_no AND l.seat = s.seat)) "
            "AND NOT EXISTS (SELECT 1 FROM bot_state b "
            f"WHERE b.key = '{CLAIM_PREFIX}' || d.table_id || ':' || d.deal_no "
            "AND (b.value = ? OR b.updated_at >= ?)) "
            "ORDER BY d.finished_at, d.table_id, d.deal_no LIMIT ?",
            (since, until, *games, DONE, stale, limit),
        )
    return [LostDeal(int(r[0]), int(r[1]), float(r[2])) for r in rows]


def _claim_key(table_id: int, deal_no: int) -> str:
    return f"{CLAIM_PREFIX}{table_id}:{deal_no}"


async def claim(
    db: Database, table_id: int, deal_no: int, owner: str, now: float, stale: float
) -> bool:
    """Claim the deal for ``owner``: True for exactly one caller of every process, unless a
    claim made before ``stale`` was never done (its process stopped): then it is taken over."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at "
            "WHERE bot_state.value <> ? AND bot_state.updated_at < ?",
            (_claim_key(table_id, deal_no), owner, now, DONE, stale),
        )
    return changed == 1


async def claim_done(db: Database, table_id: int, deal_no: int, now: float) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE bot_state SET value = ?, updated_at = ? WHERE key = ?",
            (DONE, now, _claim_key(table_id, deal_no)),
        )


async def drop_claims(db: Database, before: float) -> int:
    """Forget claims older than ``before`` (their deals are out of the catch-up's window)."""
    async with db.transaction() as conn:
        return await conn.execute(
            "DELETE FROM bot_state WHERE key LIKE ? AND updated_at < ?",
            (f"{CLAIM_PREFIX}%", before),
        )
