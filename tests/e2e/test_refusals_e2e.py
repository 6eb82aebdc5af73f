"""Refusals reach each player in their own language (issue 19): the services refuse with
codes, the Discord layer words them in the language of the client that asked.

SimCord sends every interaction as ``en-US``; ``locales`` gives each simulated member the
Discord locale a real client would send.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions

from tests.e2e.helpers import dm_hand, has_controls, said


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """Member id → the Discord locale their client sends (default ``en-US``)."""
    known: dict[int, str] = {}
    original = sim_interactions.base_payload

    def localized(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        payload["locale"] = known.get(kw["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", localized)
    yield known


def refusal_text(result: Any) -> str:
    shown = said(result)
    assert shown.ephemeral, "refusals are private"
    text = shown.content or ""
    assert text.startswith("⚠️"), text
    return text


async def test_each_player_is_refused_in_their_own_language(
    simcord_env: simcord.Env, locales: dict[int, str]
) -> None:
    guild = simcord_env.create_guild("Tarot Club")
    channel = guild.create_text_channel("tarot")
    amelie = guild.add_member(simcord_env.create_user("amelie"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    carla = guild.add_member(simcord_env.create_user("carla"))
    locales.update({amelie.id: "fr", bob.id: "en-US", carla.id: "it"})

    opened = await amelie.slash(channel, "lamorte new", seats=3)
    assert opened.acknowledged
    lobby = channel.last_message
    # The lobby speaks the server's language; each refusal, its reader's.
    text = refusal_text(await amelie.click(lobby, label="Join"))
    assert "Vous êtes déjà assis à cette table." in text
    text = refusal_text(await carla.click(lobby, label="Add computer"))
    assert "Non sei seduto a questo tavolo." in text
    assert (await bob.click(channel.history()[0], label="Join")).acknowledged
    text = refusal_text(await bob.click(channel.history()[0], label="Start"))
    assert "Only the table's host (amelie) can start the game." in text
    text = refusal_text(await carla.slash(channel, "lamorte start"))
    assert "Solo chi ospita il tavolo (amelie) può iniziare la partita." in text
    assert (await carla.click(channel.history()[0], label="Join")).acknowledged
    assert (await amelie.click(channel.history()[0], label="Start")).acknowledged

    # Whoever waits tries to act: "not your turn", naming the player to act, in their language.
    players = (amelie, bob, carla)
    mover = next(m for m in players if has_controls(dm_hand(m)))
    expected = {
        amelie.id: f"Ce n’est pas votre tour — on attend {mover.user.name}.",
        bob.id: f"It's not your turn — waiting for {mover.user.name}.",
        carla.id: f"Non tocca a te — si aspetta {mover.user.name}.",
    }
    for member in players:
        if member is mover:
            continue
        text = refusal_text(await member.slash(channel, "lamorte drop"))
        assert expected[member.id] in text, text
    # The first to speak can't accept (nobody bid yet): what they may do, in their language.
    text = refusal_text(await mover.slash(channel, "lamorte accept"))
    assert {
        amelie.id: "Vous ne pouvez pas accepter maintenant. Vous pouvez enchérir ou vous retirer.",
        bob.id: "You can't accept now. You may bid or drop.",
        carla.id: "Non puoi accettare adesso. Puoi dichiarare o ritirarti.",
    }[mover.id] in text, text
