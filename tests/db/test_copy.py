"""``python -m bot db copy``: a SQLite database with games in every state, ratings and settings
moves to PostgreSQL row for row, replays there, and the bot carries on with it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.db import bot_state, daily, guild_settings, user_settings
from bot.db.backends import open_database
from bot.db.copy import TABLES, copy_database, verify
from bot.db.database import DatabaseError
from bot.dbcli import copy, main
from bot.engine import match
from bot.services.tables import TableService
from tests.backends import PostgresServer
from tests.services.conftest import ANA, BEN, CAL, Clock, smart_payload, user_to_act

GUILD = 987_654_321_098_765_432  # a real snowflake: beyond 32 bits


async def _fill(path: Path) -> dict[str, int]:
    """A bot's life on SQLite: finished games (rated), an abandoned one, one in play with a
    turn clock, a lobby, settings and bot state. Returns the table ids by state."""
    clock = Clock()
    db = await open_database(path)
    await db.migrate()
    svc = TableService(db, seed_source=lambda: 7, clock=clock)
    rng = random.Random(4)
    ids: dict[str, int] = {}
    try:
        for n in range(3):
            t = await svc.open_lobby(GUILD, 100 + n, ANA, "Ana", "la_morte", 3, {"target": 9}, 1)
            await svc.join(t.id, BEN, "Ben")
            out = await svc.start(t.id, ANA, seed=n)
            while not out.finished:
                assert out.public is not None and out.public.to_act is not None
                view = out.seat_views[out.public.to_act]
                out = await svc.act(t.id, user_to_act(out), smart_payload(view, rng))
                clock.now += 1
            ids[f"finished{n}"] = t.id
        t = await svc.open_lobby(GUILD, 200, CAL, "Cal", "la_morte", 3, {}, 2)
        await svc.start(t.id, CAL, seed=9)
        ids["abandoned"] = (await svc.end_table(t.id, CAL)).table.id
        t = await svc.open_lobby(GUILD, 201, BEN, "Ben", "la_morte", 3, {}, 2, clock="normal")
        out = await svc.start(t.id, BEN, seed=10)
        ids["playing"] = t.id
        ids["lobby"] = (await svc.open_lobby(GUILD, 202, CAL, "Cal", "la_morte", 4, {})).id
        await guild_settings.put(db, guild_settings.GuildSettingsRecord(GUILD, (202, 300)), 1.0)
        await user_settings.set_notify_delay(db, ANA, 60, 1.0)
        await bot_state.put(db, "alive_at", "1700000000.0", 1.0)
        # The daily deal's rows (issue 20): an attempt and its result, an announcement.
        claim = daily.Claim("2026-11-26", "la_morte", ANA, GUILD, 0, "Ana")
        async with db.transaction() as conn:
            await daily.insert_attempt(conn, ids["finished0"], claim, 1.0)
            await daily.record_result(conn, ids["finished0"], daily.Result("finished", 7), 2.0)
        await daily.set_channel(db, GUILD, 202, 1.0)
        assert await daily.claim_post(db, GUILD, "2026-11-26", 202, 1.0)
    finally:
        await db.close()
    return ids


async def test_postgres_copy_is_verified_and_the_bot_carries_on(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "trionfi.sqlite3"
    ids = await _fill(path)
    url = await postgres_server.create(migrated=False)  # the copy migrates it
    try:
        assert await copy(path, url)
        printed = capsys.readouterr().out
        assert "Copy verified." in printed
        assert "Replay: 5 started tables rebuild their stored snapshot" in printed
        assert "(1 lobbies have none)" in printed

        source = await open_database(path)
        target = await open_database(url)
        try:
            for table, _ in TABLES:
                async with source.read() as a, target.read() as b:
                    q = f"SELECT COUNT(*) FROM {table}"
                    assert await a.fetchone(q) == await b.fetchone(q), table
            async with source.read() as a, target.read() as b:
                q = "SELECT game_id, player_id, mu, sigma, rating, rated FROM player_games"
                assert sorted(await a.fetchall(q)) == sorted(await b.fetchall(q))
            # The verification sees a changed row.
            async with target.transaction() as conn:
                await conn.execute(
                    "UPDATE players SET name = 'Mallory' WHERE player_id = ?", (ANA,)
                )
            assert [t.name for t in await verify(source, target) if not t.ok] == ["players"]
            # A second copy into the now full database is refused, and changes nothing.
            with pytest.raises(DatabaseError, match="already holds data"):
                await copy_database(source, target)

            # The bot goes on on PostgreSQL: the game in play continues, new tables get new ids.
            svc = TableService(target, clock=Clock(1_700_000_500.0))
            playing = await svc.snapshot(ids["playing"])
            assert playing.table.status == "playing" and playing.table.guild_id == GUILD
            assert playing.public is not None and playing.public.to_act is not None
            view = playing.seat_views[playing.public.to_act]
            after = await svc.act(
                ids["playing"], user_to_act(playing), smart_payload(view, random.Random(1))
            )
            assert after.table.seq > playing.table.seq
            record = await svc.store.get(ids["playing"])
            assert record is not None and record.snapshot is not None
            assert await svc.replay(ids["playing"]) == match.from_json(record.snapshot)
            lobby = await svc.open_lobby(GUILD, 300, ANA, "Ana", "la_morte", 3, {})
            assert lobby.id == max(ids.values()) + 1
            assert (await guild_settings.get(target, GUILD)).channels == (202, 300)
            assert await user_settings.notify_delay(target, ANA) == 60
            moved = await daily.attempt(target, "2026-11-26", "la_morte", ANA)
            assert moved is not None and moved.score == 7 and moved.table_id == ids["finished0"]
        finally:
            await source.close()
            await target.close()
    finally:
        await postgres_server.drop(url)


def test_copy_command_refuses_what_it_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["copy", "--to", "mysql://db/x", "--from", str(tmp_path / "x.sqlite3")]) == 2
    assert "postgresql://" in capsys.readouterr().err
    assert main(["copy", "--to", "postgresql://db/x", "--from", str(tmp_path / "none")]) == 2
    assert "no SQLite database" in capsys.readouterr().err
