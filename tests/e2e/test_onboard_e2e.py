"""The way in (issue 31) end to end through SimCord: ``/play`` → **Practice** is a started table
with computers and hints in one click; ``/help`` has the same buttons; the rules come as pages
turned with Previous/Next, with a complete version offered only where one exists; a practice
table's first deal has one coach line at each new kind of decision, never again; all of it in
French and Italian too; crafted buttons change nothing.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.ui.components.onboard import OnboardButton
from tests.e2e.helpers import (
    components,
    embed_text,
    has_controls,
    labels,
    pictures,
    private_answer,
    said,
    texts,
)
from tests.e2e.test_languages_e2e import Locales, world_in
from tests.e2e.test_languages_e2e import locales as locales  # the fixture
from tests.e2e.test_server_checks_e2e import crafted_click
from tests.resilience.drive import Table, make_world

GAMES = ("early_french_tarot", "french_tarot", "la_morte", "losers_game", "queen_of_tarot")


def buttons(message: discord.Message, verb: str) -> dict[str, discord.Button]:
    """The picker's ``verb`` buttons by game."""
    out: dict[str, discord.Button] = {}
    for c in components(message):
        custom_id = getattr(c, "custom_id", "") or ""
        if isinstance(c, discord.Button) and custom_id.startswith(f"ob:{verb}:"):
            out[custom_id.split(":")[2]] = c
    return out


def dm_card(member: Any) -> discord.Message | None:
    history = [m for m in member.user.dm_channel.history() if m.components]
    return history[-1] if history else None


async def test_play_then_practice_is_a_started_table_in_one_click(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 2)
    alice, bob = world.members
    picker = private_answer(world.channel, alice, await alice.slash(world.channel, "play"))
    assert picker.flags.ephemeral
    text = embed_text(picker)
    assert "New to tarot? Start here" in text and "2–6 players" in text and "3 players" in text
    assert "practice: about 10 min against 3 computers" in text
    assert set(buttons(picker, "practice")) == set(GAMES) == set(buttons(picker, "rules"))

    # One tap: the decision's message is the picker, the confirmed action a dealt table.
    r = await alice.click(picker, custom_id="ob:practice:early_french_tarot")
    assert r.acknowledged
    answer = said(r)
    assert answer.ephemeral and "practice table #1" in (answer.content or ""), answer
    table = await world.service.get_table(1)
    assert table.status == "playing" and table.hints and table.game_id == "early_french_tarot"
    assert [s.is_bot for s in table.seats] == [False, True, True, True]
    posted = world.channel.history()[0]
    assert "Hint" in labels(posted)
    hand = dm_card(alice)
    assert hand is not None and has_controls(hand)

    # A second practice in the same channel is refused clearly, and creates nothing.
    theirs = private_answer(world.channel, bob, await bob.slash(world.channel, "play"))
    r = await bob.click(theirs, custom_id="ob:practice:la_morte")
    assert "⚠️" in (said(r).content or "") and "table" in (said(r).content or "")
    assert await world.service.table_in_channel(world.channel.id) == table


async def test_practice_is_refused_where_computers_are_off(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 1)
    (alice,) = world.members
    await world.service.update_guild_settings(world.guild.id, computers_allowed=False)
    picker = private_answer(world.channel, alice, await alice.slash(world.channel, "play"))
    r = await alice.click(picker, custom_id="ob:practice:french_tarot")
    assert "computer players off" in (said(r).content or "")
    assert await world.service.table_in_channel(world.channel.id) is None


@pytest.mark.pictures
async def test_help_has_the_same_buttons_and_rules_turn_page_by_page(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 1)
    (alice,) = world.members
    help_ = private_answer(world.channel, alice, await alice.slash(world.channel, "help"))
    assert help_.flags.ephemeral and set(buttons(help_, "practice")) == set(GAMES)
    page = private_answer(
        world.channel, alice, await alice.click(help_, custom_id="ob:rules:french_tarot")
    )
    assert page.flags.ephemeral
    text = embed_text(page)
    assert "French Tarot rules — Deal (1/5)" in text and "bouts" in text
    assert pictures(page), "the page draws its cards"
    assert not buttons(page, "full"), "French Tarot has no longer version"
    titles = ["Deal"]
    for n in range(2, 6):
        await alice.click(page, label="Next")  # the same private message, turned in place
        page = next(m for m in world.channel.history(viewer=alice) if m.id == page.id)
        titles.append(embed_text(page).split("—", 1)[1].split("(")[0].strip())
        assert f"({n}/5)" in embed_text(page)
    assert titles == ["Deal", "Bidding", "The dog and the écart", "Play", "Scoring"]
    nxt = next(c for c in components(page) if getattr(c, "label", "") == "Next")
    assert nxt.disabled  # the last page
    await alice.click(page, label="Previous")
    page = next(m for m in world.channel.history(viewer=alice) if m.id == page.id)
    assert "(4/5)" in embed_text(page)

    # Where a complete version exists, the pages offer it.
    eft = private_answer(
        world.channel, alice, await alice.click(help_, custom_id="ob:rules:early_french_tarot")
    )
    assert "ob:full:early_french_tarot" in [getattr(c, "custom_id", "") for c in components(eft)]
    full = private_answer(
        world.channel, alice, await alice.click(eft, custom_id="ob:full:early_french_tarot")
    )
    assert full.embeds and "the complete rules" in (full.embeds[0].title or "")


async def test_rules_command_offers_full_only_where_it_exists(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 1)
    (alice,) = world.members
    tree = world.bot.tree
    for group, full in (
        ("tarot", False),
        ("lamorte", False),
        ("oldtarot", True),
        ("losers", True),
        ("tarocchi", True),
    ):
        command = tree.get_command(group)
        assert isinstance(command, discord.app_commands.Group)
        rules = command.get_command("rules")
        assert isinstance(rules, discord.app_commands.Command)
        assert ("full" in [p.name for p in rules.parameters]) is full, group
    page = private_answer(world.channel, alice, await alice.slash(world.channel, "lamorte rules"))
    assert page.flags.ephemeral and "La Morte rules — Deal (1/4)" in embed_text(page)
    full = private_answer(
        world.channel, alice, await alice.slash(world.channel, "losers rules", full=True)
    )
    assert full.embeds and "complete rules" in (full.embeds[0].title or "")


async def test_crafted_onboarding_buttons_change_nothing(simcord_env: simcord.Env) -> None:
    world = make_world(simcord_env, 1)
    (alice,) = world.members
    picker = private_answer(world.channel, alice, await alice.slash(world.channel, "play"))
    for custom_id in (
        "ob:practice:chess",
        "ob:page:french_tarot:99",
        "ob:full:french_tarot",
        "ob:dance:la_morte",
        "ob:page:la_morte",
    ):
        r = await crafted_click(world, alice, picker, custom_id)
        assert "no longer valid" in (said(r).content or ""), custom_id
    assert await world.service.table_in_channel(world.channel.id) is None


def coach(message: discord.Message) -> list[str]:
    """The coach lines a hand shows (its text, not the picture's alt text, which repeats it)."""
    return [line for t in texts(message) for line in t.splitlines() if "First time" in line]


async def test_coach_lines_once_per_kind_on_the_first_deal_only(
    simcord_env: simcord.Env,
) -> None:
    world = make_world(simcord_env, 1)
    (alice,) = world.members
    picker = private_answer(world.channel, alice, await alice.slash(world.channel, "play"))
    await alice.click(picker, custom_id="ob:practice:losers_game")
    table = Table(world, "losers_game", [alice], seed=3, table_id=1)
    seen: list[str] = []
    deal_two = False
    for _ in range(200):
        found = await table.mover()
        if found is None:
            break
        _mover, hand = found
        info = await world.service.get_table(1)
        snapshot = await world.service.snapshot(1, alice.id)
        lines = coach(hand)
        if snapshot.deal_number > 1:
            deal_two = True
            assert not lines, "no coach line after the first deal"
            break
        assert len(lines) <= 1
        seen += lines
        assert info.hints
        await table.step(found=found)
    assert deal_two
    # Each kind of decision once: the bid and the first card (and trump if alice named it).
    assert len(seen) == len(set(seen)), seen
    assert any("Your first bid" in line for line in seen), seen
    assert any("Your first card" in line for line in seen), seen


async def test_the_way_in_speaks_french_and_italian(
    simcord_env: simcord.Env, locales: Locales
) -> None:
    world = world_in(simcord_env, locales, "en-US", {"amelie": "fr", "bianca": "it"})
    amelie, bianca = world.members
    for member, practice, rules, words in (
        (amelie, "Entraînement", "Règles", "Nouveau au tarot"),
        (bianca, "Allenamento", "Regole", "Nuovo ai tarocchi"),
    ):
        picker = private_answer(world.channel, member, await member.slash(world.channel, "play"))
        assert practice in labels(picker) and rules in labels(picker)
        assert words in embed_text(picker), embed_text(picker)
        page = private_answer(
            world.channel, member, await member.click(picker, custom_id="ob:rules:queen_of_tarot")
        )
        assert "(1/5)" in embed_text(page)
    r = await amelie.click(
        private_answer(world.channel, amelie, await amelie.slash(world.channel, "play")),
        custom_id="ob:practice:french_tarot",
    )
    assert "table d’entraînement" in (said(r).content or ""), said(r).content
    hand = dm_card(amelie)
    assert hand is not None and "Première fois" in embed_text(hand), embed_text(hand)


def test_onboard_ids_fit_and_parse() -> None:
    for game in GAMES:
        for verb, page in (("practice", None), ("rules", None), ("page", 4), ("full", None)):
            button = OnboardButton(verb, game, page)
            assert button.custom_id is not None and len(button.custom_id) <= 100
            match = OnboardButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
            assert match is not None and match["game"] == game
