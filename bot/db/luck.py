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
