"""A finished table's stored log as a scenario file (``design/SCENARIOS.md``).

The file replays with ``python -m bot.engine.scenario FILE --check``: its ``expect`` block holds
the deal outcomes, deltas, totals and winners the bot recorded, so the replay proves the record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.db.tables import DealResultRecord, LogEntry, TableRecord
from bot.services.step import game_title


def scenario(
    rec: TableRecord,
    log: Sequence[LogEntry],
    deals: Sequence[DealResultRecord],
    guild_name: str | None = None,
) -> dict[str, Any]:
    """The table's whole match: every deal's dealer, deck order and actions, in log order.

    Actions keep their ``by`` key (``ai`` for a computer seat, ``timeout`` for a decision the
    computer made when a clock ran out); the runner ignores extra keys.
    """
    played: list[dict[str, Any]] = []
    for e in log:
        if e.kind == "deal":
            played.append(
                {"dealer": e.payload["dealer"], "deck": list(e.payload["deck"]), "actions": []}
            )
        elif e.kind == "act" and played:
            played[-1]["actions"].append(dict(e.payload))
    results = {d.deal_no: d for d in deals}
    outcomes: list[dict[str, Any]] = []
    for no in range(1, len(played) + 1):
        d = results.get(no)
        outcomes.append(
            {"outcome": d.outcome, "deltas": list(d.deltas)}
            if d
            else {"outcome": None, "deltas": None}
        )
    totals = [sum(col) for col in zip(*(d.deltas for d in deals), strict=True)] or [0] * (
        rec.players
    )
    snapshot = rec.snapshot or {}
    finished = rec.status == "finished"
    when = datetime.fromtimestamp(rec.finished_at or rec.updated_at, UTC).strftime("%Y-%m-%d")
    names = ", ".join(s.name for s in rec.seats)
    where = f", {guild_name}" if guild_name else ""
    state = "finished" if finished else "abandoned"
    # The scenario file's own description (data for the runner, like tests/scenarios), not
    # a message: it stays in English whatever the reader's language.
    description = f"Trionfi table #{rec.id} ({game_title(rec.game_id)}{where}), "  # i18n: code
    return {
        "description": f"{description}{state} {when}: {names}",
        "game": rec.game_id,
        "players": rec.players,
        "options": dict(rec.options),
        "deals": played,
        "seats": [
            {"seat": s.seat, "name": s.name, "computer": s.is_bot, "resigned": s.resigned}
            for s in rec.seats
        ],
        "expect": {
            "deals": outcomes,
            "totals": totals,
            "finished": finished,
            "winners": sorted(snapshot.get("winners", [])) if finished else [],
        },
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON laid out like ``tests/scenarios``: one deal header, deck and action per line."""
    top = {k: v for k, v in data.items() if k != "deals"}
    lines = ["{"]
    for key in ("description", "game", "players", "options"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(top.pop(key))},")
    lines.append('  "deals": [')
    for i, deal in enumerate(data["deals"]):
        lines.append(f'    {{"dealer": {deal["dealer"]},')
        lines.append(f'     "deck": {json.dumps(deal["deck"])},')
        lines.append('     "actions": [')
        if deal["actions"]:
            lines.append(",\n".join(f"       {json.dumps(a)}" for a in deal["actions"]))
        lines.append("     ]}" + ("," if i < len(data["deals"]) - 1 else ""))
    lines.append("  ],")
    rest = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in top.items()]
    lines.append(",\n".join(rest))
    lines.append("}")
    return "\n".join(lines) + "\n"
