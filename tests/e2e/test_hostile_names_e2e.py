"""Names are shown as the text they are (issue 28, defect 7), through SimCord.

Six members whose display names are markup (masked links, emphasis, spoilers, code,
mentions of a bystander and of a role, a heading and a quote on two lines, an ordered list)
sit at one Loser's Game table on a server whose own name is markup. They meet a refusal
naming the host, open, join and start the table, run out of time, are refused out of turn,
resign, play the hand to its end, ask for a rematch and end it, and read stats, history, a
score sheet and the leaderboard. Every text the bot sent in all that (channel, DMs,
ephemeral answers: every REST call, deleted messages included) shows the names escaped where
Discord renders markdown and on one line where it does not, and nobody outside the table
was pinged.
"""

from __future__ import annotations

import re

import pytest
import simcord

from bot.ui.text.names import escape_name
from tests.e2e.helpers import components, said
from tests.hostile_names import SERVER_NAME, Shown, hostile_names, live_markup, message_texts
from tests.resilience.drive import Table, World, refusal

GAME = "losers_game"
#: Where the bot's messages go: channel and DM messages, interaction answers and follow-ups.
_MESSAGE_PATH = re.compile(r"/(messages|callback|webhooks)\b")


def sent_texts(env: simcord.Env) -> list[Shown]:
    """Every text of every message the bot sent or edited."""
    out: list[Shown] = []
    for r in env.http_requests:
        if r.method in ("POST", "PATCH") and _MESSAGE_PATH.search(r.path) and r.json:
            out += list(message_texts(r.json, f"{r.method} {r.path}"))
    return out


@pytest.mark.pictures
async def test_hostile_names_are_plain_text_in_every_message(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild(SERVER_NAME)
    channel = guild.create_text_channel("tarot")
    role = guild.create_role("players", mentionable=True)
    victim = guild.add_member(env.create_user("victor"))
    names = hostile_names(victim.id, role.id)
    members = [
        guild.add_member(env.create_user(f"player{i}"), nick=name) for i, name in enumerate(names)
    ]
    world = World(env, guild, channel, members)
    table = Table(world, GAME, members, seed=5)

    async def strangers_start() -> None:  # refused: "Only the table's host (…)"
        lobby = channel.last_message
        assert lobby is not None
        r = await victim.click(lobby, custom_id=f"tb:{table.table_id}:start")
        assert refusal(r) is not None

    options = {"target": 10, "hand_limit": 1, "clock": "fast"}
    await table.open(len(members), options, in_lobby=strangers_start)

    # The first player to decide runs out of time: a notice names them.
    info = await world.service.get_table(table.table_id)
    assert info.turn_deadline is not None
    await env.bot.controller.life.sweep(info.turn_deadline + 1)  # type: ignore[attr-defined]
    # They are back ("I'm back" on their hand): another notice names them.
    away = next(s for s in (await world.service.get_table(table.table_id)).seats if s.expiries)
    member = next(m for m in members if m.id == away.user_id)
    hand = await table.hand(member)
    assert hand is not None
    r = await member.user.click(hand, custom_id=f"tb:{table.table_id}:back")
    assert refusal(r) is None
    # Someone else plays out of turn: "… waiting for <name>".
    found = await table.mover()
    assert found is not None
    idle = next(m for m in members if m is not found[0])
    tries = [
        ("losers bid", {"amount": 0}),
        ("losers trump", {"suit": "S"}),
        ("losers play", {"card": "S2"}),
    ]
    refused = [said(await idle.slash(channel, c, **o)).content for c, o in tries]
    assert any("waiting for" in t for t in refused), refused
    # One resigns: a notice names them, and their seat is the computer's.
    resigner = next(m for m in reversed(members) if m is not found[0] and m is not idle)
    r = await resigner.slash(channel, "losers resign")
    assert refusal(r) is None
    await table.play()

    # The result, a rematch lobby, and its host ending it: another notice with a name.
    final = next(
        m
        for m in reversed(channel.history())
        if any((c.custom_id or "").endswith(":rematch") for c in components(m))
    )
    host = members[0]
    r = await host.click(final, label="Rematch")
    assert refusal(r) is None
    r = await host.slash(channel, "losers end")
    assert refusal(r) is None

    # Records: stats, history and a score sheet, the leaderboard.
    reader = members[1]
    await reader.slash(channel, "stats", user=host)
    r = await reader.slash(channel, "history", user=host)
    sheet = next(
        c.custom_id for c in components(said(r).message) if (c.custom_id or "").startswith("hs:")
    )
    await reader.click(said(r).message, custom_id=sheet)
    await reader.slash(channel, "leaderboard", game=GAME, metric="games")

    texts = sent_texts(env)
    seated = {m.id for m in members}
    problems = [
        p for shown in texts for p in live_markup(shown, [*names, SERVER_NAME], seated, victim.id)
    ]
    assert not problems, "\n".join(problems[:20])
    # Each name went through the one helper (seen escaped), the server's in the hand header.
    markdown = "\n".join(s.text for s in texts if s.markdown)
    for name in names:
        assert escape_name(name) in markdown, name
    assert any(" ".join(SERVER_NAME.split()) in s.text for s in texts if not s.markdown)

    # Nobody outside the table was pinged, nor a role, nor everyone.
    for message in env.backend.messages.get(channel.id, {}).values():
        assert set(message.ping_user_ids) <= seated
        assert not message.ping_role_ids and not message.mention_everyone
    for r in env.http_requests:
        mentions = (r.json or {}).get("allowed_mentions") if isinstance(r.json, dict) else None
        if mentions:
            assert not mentions.get("parse"), mentions
            assert {int(u) for u in mentions.get("users", [])} <= seated, mentions
