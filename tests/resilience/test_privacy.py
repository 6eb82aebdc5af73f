"""Privacy scan: in whole SimCord games of every landed game at every player count, no public
message, ``/status`` answer or other player's DM ever shows a card hidden from its readers, nor
(French Tarot at 5) who the secret partner is before the called King is played.

After every decision the scan reads, from the simulated Discord backend: every public message
of the current deal (the table message and anything posted after it), each human's DM hand
and, every few decisions, an outsider's ``/<game> status``. What is hidden comes from the
stored state (the engine tests' rules of hiding, see ``checks.py``); a reader learns only the
cards in their own seat view.
"""

from __future__ import annotations

import pytest
import simcord

from bot.engine import match
from bot.engine.deck import shuffle
from bot.engine.registry import get_rules
from bot.ui.games import renderer
from bot.ui.text.cards import label
from tests.e2e.helpers import dm_hand, said
from tests.resilience.checks import CardReader, Ledger, leaks, message_text, partner_secret_from
from tests.resilience.drive import Table, group, landed_games, make_world, seat_counts

CASES = [(g, n) for g in landed_games() for n in seat_counts(g)]
STATUS_EVERY = 7


@pytest.mark.parametrize(("game_id", "seats"), CASES)
async def test_no_hidden_card_reaches_anyone_else(
    game_id: str, seats: int, simcord_env: simcord.Env
) -> None:
    env = simcord_env
    world = make_world(env, 4, pictures=False)
    humans = world.members[: min(3, seats)]
    outsider = world.members[3]
    table = Table(world, game_id, humans, seed=seats)
    await table.open(seats)
    ledger = Ledger(table.table_id)
    reader = CardReader(game_id)
    seen = {"steps": 0, "own_cards_read": 0, "secret_partner_steps": 0, "status": 0}

    def scan(text: str, seat: int | None, what: str) -> None:
        found = leaks(reader, m, seat, text)
        assert not found, f"step {table.steps}: {what} shows {found}:\n{text}"

    async def check() -> None:
        nonlocal m
        m = await ledger.check(world.service)
        assert m is not None
        info = await world.service.get_table(table.table_id)
        seen["steps"] += 1
        seen["secret_partner_steps"] += partner_secret_from(m, None)
        stored = env.backend.messages[world.channel.id]
        for message in stored.values():
            if message.id >= (info.message_id or 0) and not message.is_ephemeral:
                scan(message_text(message), None, "the channel")
        for member in humans:
            dm = dm_hand(member)
            seat = info.seat_of(member.id)
            if dm is None or seat is None:
                continue
            text = message_text(env.backend.get_message(dm.channel.id, dm.id))
            scan(text, seat, f"{member.name}'s DM")
            if not m.finished and m.deal is not None:
                # The scan reads this game's cards (the hand in words: all but a special card
                # or two, like Early French Tarot's "🃏 the Fool — play it any time").
                own = set(m.rules.observe(m.deal, seat).hand)
                assert len(own - reader.cards(text)) <= 1, "the scan cannot read these hands"
                seen["own_cards_read"] += bool(own)
        if table.steps % STATUS_EVERY == 0 and info.status == "playing":
            r = await outsider.slash(world.channel, f"{group(game_id)} status")
            assert said(r).ephemeral and r.response is not None
            scan(
                message_text(env.backend.get_message(world.channel.id, r.response.id)),
                None,
                "/status",
            )
            seen["status"] += 1

    m = await ledger.check(world.service)
    await check()
    await table.play(after_step=check)

    assert seen["steps"] > 10 and seen["own_cards_read"] > 10 and seen["status"] > 1, seen
    if game_id == "french_tarot" and seats == 5:
        assert seen["secret_partner_steps"] > 0, "no step had a secret partner to keep"


@pytest.mark.parametrize("game_id", landed_games())
def test_the_scan_sees_a_card_that_leaks(game_id: str) -> None:
    """The scan is not vacuous: another seat's cards, written as the game writes them, are
    caught in a DM and in the channel."""
    rules = get_rules(game_id)
    n = rules.min_players
    m = match.start_deal(match.new_match(game_id, n, None, 0), shuffle(rules.pack(n), 99))
    theirs = m.rules.observe(m.deal, 1).hand
    text = " · ".join(label(c, getattr(renderer(game_id), "CARD_LABELS", {})) for c in theirs)
    reader = CardReader(game_id)
    in_dm = set(leaks(reader, m, 0, text))
    in_public = set(leaks(reader, m, None, text))
    assert in_dm == in_public and in_dm <= set(theirs) and len(in_dm) >= len(theirs) - 1
