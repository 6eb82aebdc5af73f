"""DM hands redrawn through their player's own latest click (issue 30's REST budget), through
SimCord.

- When it becomes a player's turn, their DM hand is edited through the interaction of their
  latest click on it (``PATCH /webhooks/{application}/{token}/messages/@original``, which is
  outside Discord's global rate limit), and shows their turn with its controls.
- A click older than 14 minutes is not used (its token lapses at 15): a channel edit instead,
  and the token is forgotten; so is one Discord refuses (404).
- The click is remembered in the database: a restarted bot uses it too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.client import TrionfiBot
from bot.services.tables import TableService
from bot.ui.delivery.clicks import CLICK_FOR
from tests.e2e.helpers import dm_hand, embed_text, has_controls, mover_of, play_turn


def service_of(env: Any) -> TableService:
    return env.bot.service


async def start(channel: Any, alice: Any, bob: Any) -> None:
    """alice opens a La Morte table (table #1) with bob and a computer, and starts it."""
    await alice.slash(channel, "lamorte new", seats=3, computers=1, target=30)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.history()[0], label="Start")


async def click_path(env: Any, member: Any) -> str | None:
    """The webhook path that edits ``member``'s DM hand through their remembered click (None:
    none remembered)."""
    table = await service_of(env).get_table(1)
    seat = next(s for s in table.seats if s.user_id == member.id)
    if seat.click is None:
        return None
    return f"/webhooks/{seat.click.app_id}/{seat.click.token}/messages/@original"


def hand_path(member: Any) -> str:
    """The channel path that edits ``member``'s DM hand the usual way."""
    hand = dm_hand(member)
    assert hand is not None
    return f"/channels/{hand.channel.id}/messages/{hand.id}"


def patches(env: Any, since: int, path: str) -> int:
    return sum(1 for r in env.http_requests[since:] if r.method == "PATCH" and r.path == path)


async def first_click(env: Any, channel: Any, alice: Any, bob: Any) -> tuple[Any, Any, str]:
    """The table starts and its first mover plays once from their DM hand; returns them, the
    other player, and the path of the mover's remembered click."""
    await start(channel, alice, bob)
    first = await play_turn(alice, bob)
    second = bob if first is alice else alice
    path = await click_path(env, first)
    assert path is not None, "the click on the DM hand was remembered"
    assert await click_path(env, second) is None, "the other player has not clicked yet"
    return first, second, path


async def until_turn_of(member: Any, *members: Any) -> None:
    """The others play until it is ``member``'s turn."""
    while mover_of(*members) is not member:
        assert await play_turn(*members) is not member


async def test_the_next_hand_is_edited_through_its_players_click(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    first, second, path = await first_click(env, channel, alice, bob)
    mark = len(env.http_requests)
    await until_turn_of(first, alice, bob)

    assert patches(env, mark, path) >= 1, "edited through the click's token"
    assert patches(env, mark, hand_path(first)) == 0, "not by a channel edit"
    hand = dm_hand(first)
    assert has_controls(hand), "their turn, with its controls"
    assert "Your turn" in embed_text(hand)  # type: ignore[arg-type]
    assert await click_path(env, first) == path, "still remembered"
    # The other player's click is remembered as well, for their next turn.
    assert await click_path(env, second) is not None


async def test_a_click_older_than_14_minutes_is_not_used(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    clock = [0.0]
    service = service_of(env)
    base = service.now()
    service._clock = lambda: base + clock[0]  # type: ignore[attr-defined]  # moves with SimCord
    first, _second, path = await first_click(env, channel, alice, bob)
    await env.advance_time(CLICK_FOR + 5)  # SimCord would still take it (15 minutes)
    clock[0] += CLICK_FOR + 5
    mark = len(env.http_requests)
    await until_turn_of(first, alice, bob)

    assert patches(env, mark, path) == 0, "a token this old is not used"
    assert patches(env, mark, hand_path(first)) >= 1, "a channel edit instead"
    assert has_controls(dm_hand(first))
    assert await click_path(env, first) is None, "and it is forgotten"


async def test_a_refused_token_falls_back_and_is_forgotten(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    first, _second, path = await first_click(env, channel, alice, bob)
    env.inject_error("PATCH", path, status=404, code=10015, times=1)
    mark = len(env.http_requests)
    await until_turn_of(first, alice, bob)

    assert patches(env, mark, path) == 1, "tried once, then forgotten"
    assert patches(env, mark, hand_path(first)) >= 1, "the channel edit instead"
    assert has_controls(dm_hand(first))
    assert await click_path(env, first) is None
    table = await service_of(env).get_table(1)
    assert table.shown_seq == table.seq, "delivered all the same"


async def test_a_restarted_bot_uses_the_remembered_click(
    world: tuple[Any, ...], make_bot: Callable[[], TrionfiBot]
) -> None:
    env, _guild, channel, alice, bob, _carol = world
    first, _second, path = await first_click(env, channel, alice, bob)
    old = env.bot
    await env.restart_bot(make_bot())
    await old.close()
    mark = len(env.http_requests)
    await until_turn_of(first, alice, bob)

    assert patches(env, mark, path) >= 1, "the new process edited through the stored token"
    assert patches(env, mark, hand_path(first)) == 0
    assert has_controls(dm_hand(first))


async def test_the_tokens_go_when_the_table_ends(world: tuple[Any, ...]) -> None:
    env, _guild, channel, alice, bob, _carol = world
    await first_click(env, channel, alice, bob)
    r = await alice.slash(channel, "lamorte end")
    assert r.acknowledged
    table = await service_of(env).get_table(1)
    assert table.status in ("abandoned", "finished")
    assert all(s.click is None for s in table.seats)
