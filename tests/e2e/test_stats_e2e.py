"""Leaderboards, /stats, /history, /record and /privacy forget-me through SimCord.

Results are seeded the way a finished game writes them (``TableStore.commit`` with the real
rating maths); a few real games are played through the service for score sheets and records.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import discord

from bot.ai import choose_action
from bot.db.tables import TableStore
from bot.engine import scenario
from bot.engine.registry import get_rules
from bot.services import ratings
from bot.services.models import Outcome
from bot.services.tables import TableService
from tests.e2e.helpers import components, embed_text, said
from tests.seed import finished_table

DAY = 86_400.0
OTHERS = 25  # seeded players besides the members: three pages with alice and bob


class Seeder:
    """Finished games written straight to the bot's database."""

    def __init__(self, env: Any) -> None:
        self.store = TableStore(env.bot.db)
        self.channel = 9_000

    async def game(
        self,
        guild_id: int,
        seats: list[tuple[int | None, str, int]],  # (user id or None: computer, name, score)
        ago_days: float = 1.0,
        game_id: str = "la_morte",
    ) -> int:
        self.channel += 1
        totals = [score for _, _, score in seats]
        top = max(totals)
        places = ratings.placings(totals, [i for i, t in enumerate(totals) if t == top])
        return await finished_table(
            self.store,
            [
                (u, name, score, place)
                for (u, name, score), place in zip(seats, places, strict=True)
            ],
            guild_id=guild_id,
            channel_id=self.channel,
            now=time.time() - ago_days * DAY,
            rater=ratings.rate,
            game_id=game_id,
        )


def button(message: discord.Message, verb: str) -> Any:
    """The leaderboard button whose custom_id ends with ``verb``."""
    return next(
        c for c in components(message) if (getattr(c, "custom_id", "") or "").endswith(f":{verb}")
    )


async def seed_board(env: Any, guild_id: int, alice: Any, bob: Any) -> None:
    """25 players with 1–25 games won against the computer; alice has one, bob three."""
    seed = Seeder(env)
    for i in range(OTHERS):
        for _ in range(i + 1):
            await seed.game(guild_id, [(50_000 + i, f"Player {i:02}", 10), (None, "Bot", 0)])
    await seed.game(guild_id, [(alice.id, "alice", 3), (bob.id, "bob", 9)])
    for _ in range(2):
        await seed.game(guild_id, [(bob.id, "bob", 9), (None, "Bot", 1)])


async def test_leaderboard_pages_and_the_callers_own_line(
    world: tuple[Any, ...], make_bot: Any
) -> None:
    env, guild, channel, alice, bob, _carol = world
    await seed_board(env, guild.id, alice, bob)

    r = await alice.slash(channel, "leaderboard", game="la_morte", metric="games")
    assert r.acknowledged and not said(r).ephemeral
    board = channel.last_message
    text = embed_text(board)
    assert "La Morte — games played" in text and "this server · all time" in text
    assert "Page 1/3 · 27 players" in text
    lines = (board.embeds[0].description or "").splitlines()
    assert lines[0].startswith("`  1.` Player 24 — **25 games**")
    assert len(lines) == 12 and lines[10] == "…" and "alice" in lines[11] and "← you" in lines[11]
    assert button(board, "first").disabled and button(board, "prev").disabled
    assert not button(board, "next").disabled and not button(board, "me").disabled

    await alice.click(board, custom_id=button(board, "next").custom_id)
    board = channel.last_message
    assert "Page 2/3" in embed_text(board)
    assert not button(board, "prev").disabled

    await alice.click(board, custom_id=button(board, "last").custom_id)
    board = channel.last_message
    lines = (board.embeds[0].description or "").splitlines()
    assert "Page 3/3" in embed_text(board)
    assert button(board, "next").disabled and button(board, "last").disabled
    assert any("alice" in line and "← you" in line for line in lines)
    assert "…" not in lines  # her line is on this page: shown once
    assert button(board, "me").disabled

    # The buttons survive a restart.
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    await alice.click(board, custom_id=button(board, "first").custom_id)
    board = channel.last_message
    assert "Page 1/3" in embed_text(board)
    await alice.click(board, custom_id=button(board, "me").custom_id)
    board = channel.last_message
    assert "Page 3/3" in embed_text(board)

    # Someone else pressing a button gets their own copy, privately, with their line.
    shown = await bob.click(board, custom_id=button(board, "first").custom_id)
    assert said(shown).ephemeral
    mine = embed_text(said(shown).message)
    assert "Page 1/3" in mine and "bob" in mine and "← you" in mine
    assert "Page 3/3" in embed_text(channel.last_message)  # alice's message is unchanged


async def test_rating_board_puts_provisional_players_last(world: tuple[Any, ...]) -> None:
    env, guild, channel, alice, bob, carol = world
    seed = Seeder(env)
    for _ in range(5):  # alice: established, mostly losing to the computer
        await seed.game(guild.id, [(alice.id, "alice", 1), (None, "Bot", 5)])
    for _ in range(3):  # bob: three wins, still provisional
        await seed.game(guild.id, [(bob.id, "bob", 9), (None, "Bot", 5)])
    r = await carol.slash(channel, "leaderboard", game="la_morte")
    lines = (said(r).message.embeds[0].description or "").splitlines()
    assert lines[0].startswith("`  1.` alice — **")
    assert "provisional" in lines[1] and lines[2].startswith("*`  2.` bob")
    footer = said(r).message.embeds[0].footer.text or ""
    assert "μ − 3σ" in footer and "🤖 computer" in footer
    assert said(r).message.components == []  # one page: no buttons


async def test_scopes_and_periods(world: tuple[Any, ...]) -> None:
    env, guild, channel, alice, bob, carol = world
    seed = Seeder(env)
    other_guild = 777
    await seed.game(guild.id, [(alice.id, "alice", 9), (bob.id, "bob", 1)], ago_days=45)
    await seed.game(guild.id, [(bob.id, "bob", 9), (None, "Bot", 1)], ago_days=2)
    for _ in range(3):
        await seed.game(other_guild, [(70_001, "Faraway", 9), (None, "Bot", 1)], ago_days=3)

    def names(r: Any) -> list[str]:
        lines = (said(r).message.embeds[0].description or "").splitlines()
        ranked = [re.match(r"^\*?`[ 0-9]+\.` (.+?) — ", line) for line in lines]
        return [m[1] for m in ranked if m]

    here = await alice.slash(channel, "leaderboard", game="la_morte", metric="wins")
    assert names(here) == ["bob", "alice"]  # one win each; bob has more points
    assert "Faraway" not in embed_text(here.response.message)
    world_board = await alice.slash(
        channel, "leaderboard", game="la_morte", metric="wins", scope="global"
    )
    assert names(world_board)[0] == "Faraway" and "all servers" in embed_text(
        world_board.response.message
    )
    recent = await alice.slash(channel, "leaderboard", game="la_morte", metric="wins", period="30d")
    assert names(recent) == ["bob"]  # alice's only game is 45 days old
    assert "last 30 days" in embed_text(recent.response.message)
    empty = await carol.slash(channel, "leaderboard", game="french_tarot")
    assert "No finished French Tarot games on this server yet" in embed_text(empty.response.message)
    # Admins can keep their server's games off global boards; the board says so.
    admin = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[admin])
    await boss.slash(channel, "trionfi settings", global_leaderboards=False)
    hidden = await alice.slash(channel, "leaderboard", game="la_morte", scope="global")
    assert names(hidden) == ["Faraway"]
    assert "not counted here" in embed_text(hidden.response.message)
    # The default game is the one this server plays most.
    default = await carol.slash(channel, "leaderboard")
    assert "La Morte" in embed_text(default.response.message)


async def play(
    env: Any, owner: Any, others: list[Any], game_id: str, options: dict[str, Any]
) -> Outcome:
    """A real game on the bot's service: the humans play like the computer."""
    svc: TableService = env.bot.service
    guild_id = owner.guild.id
    channel_id = 4_000 + random.Random(game_id).randrange(1000)
    t = await svc.open_lobby(
        guild_id, channel_id, owner.id, owner.name, game_id, 3, options, 2 - len(others)
    )
    for m in others:
        await svc.join(t.id, m.id, m.name)
    out = await svc.start(t.id, owner.id, seed=7)
    rng = random.Random(7)
    rules = get_rules(game_id)
    while not out.finished:
        assert out.public is not None and out.public.to_act is not None
        seat = out.public.to_act
        user = out.table.seats[seat].user_id
        assert user is not None
        payload = choose_action(rules, out.seat_views[seat], rng).to_json()
        del payload["seat"]
        out = await svc.act(t.id, user, payload)
    return out


async def test_stats_history_score_sheet_and_record(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, carol = world
    first = await play(env, alice, [bob], "la_morte", {"round_limit": 2})
    second = await play(env, alice, [], "losers_game", {"hand_limit": 1})

    r = await carol.slash(channel, "stats", user=alice)
    text = embed_text(said(r).message)
    assert "alice — Trionfi stats" in text and "**2** games" in text
    assert "La Morte" in text and "Loser's Game" in text and "Rating **" in text
    assert "Best result:" in text and "provisional" in text
    nothing = await carol.slash(channel, "stats")
    assert "carol hasn't finished a game yet" in embed_text(nothing.response.message)

    r = await carol.slash(channel, "history", user=alice)
    message = said(r).message
    text = embed_text(message)
    assert f"**#{second.table.id}**" in text and f"**#{first.table.id}**" in text
    assert text.index(f"#{second.table.id}") < text.index(f"#{first.table.id}")  # newest first
    assert "with 🤖 Bot Arturo, bob" in text
    sheet_buttons = [c for c in components(message) if (c.custom_id or "").startswith("hs:")]
    assert [c.label for c in sheet_buttons] == [f"#{second.table.id}", f"#{first.table.id}"]
    shown = await carol.click(channel.last_message, custom_id=f"hs:{first.table.id}")
    assert said(shown).ephemeral
    sheet = embed_text(said(shown).message)
    assert f"table #{first.table.id} — score sheet" in sheet and "Deal" in sheet
    # The command as a mention (the sync gave it an id), its option typed after it.
    assert re.search(rf"</record:\d+> `table:{first.table.id}`", sheet), sheet
    only = await carol.slash(channel, "history", user=alice, game="losers_game")
    assert f"#{first.table.id}" not in embed_text(only.response.message)

    r = await alice.slash(channel, "record", table=first.table.id)
    assert said(r).ephemeral and "python -m bot.engine.scenario" in said(r).content
    (attachment,) = r.response.attachments
    assert attachment.filename == f"trionfi-table-{first.table.id}-la_morte.json"
    data = json.loads(await attachment.read())
    result = scenario.run(data)
    assert scenario.check(result, data["expect"]) == {}
    assert result["totals"] == list(first.totals)

    choices = await alice.autocomplete(channel, "record", "table", "")
    assert [c["value"] for c in choices] == [second.table.id, first.table.id]

    missing = await alice.slash(channel, "record", table=4242)
    assert said(missing).ephemeral and "no table #4242" in said(missing).content
    lobby = await alice.slash(channel, "lamorte new", seats=3)
    assert lobby.acknowledged
    table_id = (await env.bot.service.table_in_channel(channel.id)).id
    refused = await alice.slash(channel, "record", table=table_id)
    assert said(refused).ephemeral and "never started" in said(refused).content


async def test_forget_me_after_a_confirmation(world: tuple[Any, ...]) -> None:
    env, guild, channel, alice, bob, _carol = world
    seed = Seeder(env)
    table_id = await seed.game(guild.id, [(alice.id, "alice", 9), (bob.id, "bob", 1)])

    r = await alice.slash(channel, "privacy forget-me")
    assert said(r).ephemeral and "cannot be undone" in embed_text(said(r).message)
    prompt = said(r).message
    assert [c.label for c in components(prompt)] == ["Forget me", "Cancel"]
    cancelled = await alice.click(prompt, label="Cancel")
    assert cancelled.acknowledged
    assert "alice" in embed_text((await alice.slash(channel, "leaderboard")).response.message)

    r = await alice.slash(channel, "privacy forget-me")
    done = await alice.click(said(r).message, label="Forget me")
    assert done.acknowledged
    after = await alice.slash(channel, "stats")
    assert "hasn't finished a game yet" in embed_text(after.response.message)
    board = embed_text((await bob.slash(channel, "leaderboard", metric="games")).response.message)
    assert "alice" not in board and "bob" in board
    hist = embed_text((await bob.slash(channel, "history")).response.message)
    assert "Former player" in hist and "alice" not in hist
    rec = await env.bot.service.store.get(table_id)
    assert all(s.user_id != alice.id for s in rec.seats)
