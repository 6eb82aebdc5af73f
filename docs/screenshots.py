"""Screenshots of every game's table and a hand, as a player sees them in Discord.

Plays a few decisions of each game on a simulated Discord (SimCord), opens SimCord's preview
of the channel and of a player's DMs, and takes a picture of each with headless Chromium:

    .venv/bin/pip install 'simcord[preview]' && apt-get install -y chromium
    .venv/bin/python -m docs.screenshots   # docs/screenshots/<game>_<moment>[_phone].png

The moments: ``table`` (the channel), ``turn`` (a DM at its player's decision), ``waiting``
(a DM while others decide), ``summary`` (the channel after the first deal), ``result`` (the
channel at the end), ``result_card`` (a player's DM at the end) and ``bid`` (a DM at its
player's first bidding decision, in the games that bid); and the multi-card choices
as toggles (issue 31): ``french_tarot_ecart`` (a 6-card écart, three cards picked, at a
practice table: Suggest beside Confirm) and ``queen_of_tarot_discard`` (the dealer's 3 of 28,
in the Italian suits' emojis); ``queen_of_tarot_lobby_it`` (an Italian table's lobby); a
tournament (issue 34): ``tournament_registration`` (the post with its players),
``tournament_pairings`` (round 2's tables and their threads, after round 1's standings) and
``tournament_final`` (the final standings with the podium), ``tournament_shared_channel``
(threads refused: a table command from someone seated at none of the channel's tables) and
``tournament_forget_me`` (the confirmation, which names tournaments); and the league nights
(issue 34): ``league_dm`` (an entry's set in its player's DMs), ``league_status``,
``league_standings`` and ``league_compare`` (after the window), ``league_table_lobby``,
``league_table_thread`` and ``league_table_channel`` (a table of several members, in its private
thread), ``league_status_left`` and ``league_lobby_night_over``; the computers' reasons, luck
and skill and "Try another way" (issue 33, ``coaching``) and a replay replaced by the next
(``replay_replaced``).

Needs ``/usr/bin/chromium`` (Debian's package); nothing here runs in the test suite.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

import simcord
from simcord.backend.cdn import CDN_BASE

from bot.client import TrionfiBot
from bot.services import step
from bot.ui.delivery.suit_emojis import ITALIAN_EMOJI_NAMES, SUIT_EMOJI_NAMES
from bot.ui.games import renderer
from bot.ui.pictures.suit_icons import suit_icon
from tests.e2e.helpers import components, dm_hand
from tests.e2e.test_french_tarot_e2e import seed_where_alice_takes
from tests.e2e.test_toggles_e2e import queen_choice, seed_where_alice_discards
from tests.resilience.drive import Table, landed_games, make_world, seat_counts

OUT = Path(__file__).resolve().parent / "screenshots"
STEPS = 10  # decisions played before the pictures are taken
PHONE_WIDTH = 390  # CSS pixels of a common phone, for the *_phone.png pictures
SETTLE = 60.0  # seconds SimCord waits for the bot (computer players on a busy machine)


async def shot(url: str, path: Path, height: int, width: int = 1000) -> None:
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    proc = await asyncio.create_subprocess_exec(
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--hide-scrollbars",
        f"--screenshot={path}",
        f"--window-size={width},{height}",
        "--virtual-time-budget=8000",
        url,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    before = path.stat().st_mtime_ns if path.exists() else None
    await asyncio.wait_for(proc.wait(), 120)
    if proc.returncode != 0 or not path.exists() or path.stat().st_mtime_ns == before:
        raise RuntimeError(f"chromium drew no {path.name} (exit status {proc.returncode})")


def suit_emoji_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The pictures of the suit emojis the bot uploaded (SimCord keeps names, not images)."""
    suits = {name: (suit, False) for suit, name in SUIT_EMOJI_NAMES.items()}
    suits |= {name: (suit, True) for suit, name in ITALIAN_EMOJI_NAMES.items()}
    return {
        f"{CDN_BASE}/emojis/{e.id}.png": ("image/png", suit_icon(*suits[e.name]))
        for e in env.backend.application_emojis.values()
        if e.name in suits
    }


def shots_bot(seed: int = 9, path: Path | None = None) -> TrionfiBot:
    """A bot for the pictures: dealt from ``seed``, its database at ``path`` (default: a new
    temporary folder's), the suit emojis uploaded, no background sweeper."""
    return TrionfiBot(
        path or Path(tempfile.mkdtemp()) / "shots.sqlite3",
        seed_source=lambda: seed,
        sweep_every=None,
        shard_count=1,
        suit_emojis=True,
    )


async def game(game_id: str) -> list[str]:
    """Every moment of one game worth a picture; returns the names taken."""
    bot = shots_bot()
    taken: list[str] = []
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 2)
        table = Table(world, game_id, world.members[:2], 9)
        seats = seat_counts(game_id)
        await table.open(min(max(seats.start, 4), seats.stop - 1))  # the short options
        for _ in range(STEPS):
            if not await table.step():
                break
        found = await table.mover()
        member = found[0] if found is not None else world.members[0]
        waiting = next(m for m in world.members[:2] if m is not member)
        emojis = suit_emoji_assets(env)

        async def pair(where: Any, viewer: Any, name: str, **layout: Any) -> None:
            """``name``.png at desktop width, and ``name``_phone.png drawn by the preview
            as a phone's screen (fixed at its width: the media scale to it, as a phone's
            Discord does)."""
            async with env.preview(where, viewers=[viewer], assets=emojis, **layout) as p:
                await shot(p.url, OUT / f"{game_id}_{name}.png", 1100)
            async with env.preview(
                where,
                viewers=[viewer],
                assets=emojis,
                display="fixed",
                width=PHONE_WIDTH,
                height=1600,
                **layout,
            ) as p:
                await shot(p.url, OUT / f"{game_id}_{name}_phone.png", 1600, PHONE_WIDTH)
            taken.append(name)

        async def channel(name: str) -> None:
            await pair(world.channel, member, name, layout="channel")

        async def dm(who: Any, name: str) -> None:
            await pair(who.user.dm_channel, who.user, name)

        await channel("table")  # the spectators' view
        await dm(member, "turn")  # a DM at its player's decision: the whole table
        await dm(waiting, "waiting")  # a DM while others decide
        # On to the first deal's end: its summary in the channel.
        store = table.service.store
        while not await store.deal_results(table.table_id) and await table.step():
            pass
        await channel("summary")
        await table.play()  # to the end: the final sheet, and each player's result card
        await channel("result")
        await dm(member, "result_card")
    await bot.close()
    return taken


async def shots(
    env: simcord.Env, where: Any, viewer: Any, stem: str, height: int = 1100, **layout: Any
) -> None:
    """``stem``.png at desktop width (``height`` pixels) and ``stem``_phone.png as a phone's
    screen."""
    emojis = suit_emoji_assets(env)
    async with env.preview(where, viewers=[viewer], assets=emojis, **layout) as p:
        await shot(p.url, OUT / f"{stem}.png", height)
    async with env.preview(
        where,
        viewers=[viewer],
        assets=emojis,
        display="fixed",
        width=PHONE_WIDTH,
        height=1600,
        **layout,
    ) as p:
        await shot(p.url, OUT / f"{stem}_phone.png", 1600, PHONE_WIDTH)


async def way_in() -> list[str]:
    """The way in (issue 31): ``/play`` (``trionfi_play``), French Tarot's rules pages
    (``french_tarot_rules_1``, ``_3``) and Queen of Tarot's first (``queen_of_tarot_rules_1``),
    and a practice table's first deal with its coach lines (``french_tarot_practice_1``, ``_2``:
    the DM at the first two decisions)."""
    bot = shots_bot()
    taken: list[str] = []
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice = world.members[0]
        # One channel per moment, so each picture shows that moment alone.
        here = world.guild.create_text_channel("play")
        await alice.slash(here, "play")
        await shots(env, here, alice, "trionfi_play", layout="channel")
        taken.append("trionfi_play")
        for game_id, turns in (("french_tarot", (1, 3)), ("queen_of_tarot", (1,))):
            here = world.guild.create_text_channel(f"rules-{game_id}")
            await alice.slash(here, f"{renderer(game_id).GROUP} rules")
            page = 1
            for wanted in turns:
                while page < wanted:
                    message = here.history(viewer=alice)[0]
                    await alice.click(message, label="Next")
                    page += 1
                await shots(env, here, alice, f"{game_id}_rules_{page}", layout="channel")
                taken.append(f"{game_id}_rules_{page}")
        here = world.guild.create_text_channel("practice")
        await alice.slash(here, "play")
        await alice.click(here.history(viewer=alice)[0], custom_id="ob:practice:french_tarot")
        table = Table(world, "french_tarot", [alice], 9, table_id=1)
        for n in (1, 2):
            await shots(env, alice.user.dm_channel, alice.user, f"french_tarot_practice_{n}")
            taken.append(f"french_tarot_practice_{n}")
            await table.step()
    await bot.close()
    return taken


async def tap_toggles(member: Any, count: int) -> None:
    """Tap ``count`` of the hand's card toggles (suit cards first), one tap each."""
    for _ in range(count):
        hand = dm_hand(member)
        assert hand is not None
        free = [
            c.custom_id
            for c in components(hand)
            if (c.custom_id or "").startswith("tp:")
            and "suggest" not in (c.custom_id or "")
            and not (c.label or "").startswith("✓")
        ]
        free.sort(key=lambda custom_id: custom_id.split(":")[3].startswith("T"))
        await member.user.click(hand, custom_id=free[0])


async def ecart() -> None:
    """A 3-player French Tarot écart (6 of 30 cards) at a practice table, half picked."""
    scratch = Path(tempfile.mkdtemp())
    seed = await seed_where_alice_takes(scratch / "seed.sqlite3", 3, 2, False)
    bot = shots_bot(seed, scratch / "shots.sqlite3")
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice = world.members[0]
        await alice.slash(world.channel, "tarot new", seats=3, computers=2, deals=1, hints=True)
        await alice.click(world.channel.last_message, label="Start")
        hand = dm_hand(alice)
        assert hand is not None
        await alice.user.click(hand, label="Garde ×2")
        await tap_toggles(alice, 3)
        await shots(env, alice.user.dm_channel, alice.user, "french_tarot_ecart", 1800)
    await bot.close()


async def queen_discard() -> None:
    """Queen of Tarot's dealer discarding 3 of 28 cards, one picked."""
    scratch = Path(tempfile.mkdtemp())
    seed = await seed_where_alice_discards(scratch / "seed.sqlite3")
    bot = shots_bot(seed, scratch / "shots.sqlite3")
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice = world.members[0]
        await alice.slash(world.channel, "tarocchi new", computers=2)
        await alice.click(world.channel.last_message, label="Start")
        table = await bot.service.table_in_channel(world.channel.id)
        assert table is not None
        for _ in range(40):
            view = (await bot.service.snapshot(table.id, alice.id)).seat_views[0]
            if view.legal[0].type == "discard":
                break
            kind = queen_choice(view.legal).type
            hand = dm_hand(alice)
            assert hand is not None
            button = next(c for c in components(hand) if f":act:{kind}" in (c.custom_id or ""))
            await alice.user.click(hand, custom_id=button.custom_id)
        await tap_toggles(alice, 1)
        await shots(env, alice.user.dm_channel, alice.user, "queen_of_tarot_discard", 1800)
    await bot.close()


#: A hand's controls that make a bidding decision (issue 31's guided bids): a bid, Accept or
#: Drop, a bargaining call, or the Other… field of a typed bid.
_BIDDING = (":act:bid", ":act:accept", ":act:drop", ":act:pass", ":act:continue", "ta:")


def offers_bid(message: Any) -> bool:
    return any(
        any(mark in (getattr(c, "custom_id", None) or "") for mark in _BIDDING)
        for c in components(message)
    )


async def bid(game_id: str) -> list[str]:
    """``bid``: a player's DM at their first bidding decision (guided: the line on the hand,
    the multipliers, the quick bids, what Accept and Drop score)."""
    bot = shots_bot()
    taken: list[str] = []
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 2)
        table = Table(world, game_id, world.members[:2], 9)
        seats = seat_counts(game_id)
        await table.open(min(max(seats.start, 4), seats.stop - 1))
        found = await table.mover()
        for _ in range(200):
            if found is None or offers_bid(found[1]):
                break
            await table.step(found=found)
            found = await table.mover()
        if found is not None and offers_bid(found[1]):
            member = found[0]
            await shots(env, member.user.dm_channel, member.user, f"{game_id}_bid", height=1500)
            taken.append("bid")
    await bot.close()
    return taken


async def queen_lobby_it() -> None:
    """``queen_of_tarot_lobby_it``: an Italian table's lobby (its title and number in Italian)."""
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        italian = make_world(env, 1, server="Circolo dei Tarocchi")
        host = italian.members[0]
        await host.slash(italian.channel, "tarocchi new", language="it")
        await shots(env, italian.channel, host, "queen_of_tarot_lobby_it", 700, layout="channel")
    await bot.close()


TOURNAMENT_NAMES = ("Ana", "Ben", "Chiara", "Dario", "Élodie", "Fabio", "Gaëlle", "Hugo", "Irene")


async def tournament() -> None:
    """A tournament of nine players, three rounds of one-deal La Morte tables: its
    registration post, round 2's pairings, the final standings."""
    from bot.services import tournaments
    from tests.e2e.test_tournament_e2e import _stand_in  # the humans' stand-in

    # Casual computers: the pictures show the tournament, not the expert's thinking (which
    # takes minutes over nine tables on a busy machine).
    tournaments.expert_ready = lambda game_id: False  # pyright: ignore[reportAttributeAccessIssue]
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        guild = env.create_guild("Tarot Club")
        here = guild.create_text_channel("tournament")
        people = [guild.add_member(env.create_user(n)) for n in TOURNAMENT_NAMES]
        host = people[0]
        await host.slash(here, "tournament open", game="la_morte", rounds=3, seats=4, deals=1)
        for member in people:
            await member.slash(here, "tournament register")
        await shots(env, here, host, "tournament_registration", 700, layout="channel")
        await host.slash(here, "tournament start")
        await env.settle()
        service = bot.service
        for round_no in (1, 2, 3):
            info = await service.tournament_here(guild.id, here.id)
            if round_no == 2:
                # (SimCord's preview does not show threads: a table looks as in any channel.)
                await shots(env, here, host, "tournament_pairings", 1100, layout="channel")
            await _stand_in(
                service, [b.table_id for b in info.round_boards(round_no) if b.table_id]
            )
            await bot.controller.tournament.upkeep()
            await env.settle()
        await shots(env, here, host, "tournament_final", 1300, layout="channel")


async def tournament_shared() -> None:
    """A tournament where threads are refused (its tables share the channel): a member who
    sits at none of them types a table command there, and a player's ``/privacy forget-me``
    confirmation (it withdraws them from the tournament)."""
    import discord

    from bot.services import tournaments

    tournaments.expert_ready = lambda game_id: False  # pyright: ignore[reportAttributeAccessIssue]
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        guild = env.create_guild("Tarot Club")
        assert bot.user is not None
        here = guild.create_text_channel(
            "tournament",
            overwrites={bot.user: discord.PermissionOverwrite(create_public_threads=False)},
        )
        people = [guild.add_member(env.create_user(n)) for n in TOURNAMENT_NAMES[:4]]
        outsider = guild.add_member(env.create_user("zeno"))
        await bot.service.update_guild_settings(guild.id, pictures=False)
        await people[0].slash(here, "tournament open", game="la_morte", seats=3, rounds=1)
        for member in people:
            await member.slash(here, "tournament register")
        await people[0].slash(here, "tournament start")
        await env.settle()
        await outsider.slash(here, "lamorte status")
        await shots(env, here, outsider, "tournament_shared_channel", 1300, layout="channel")
        await people[1].slash(here, "privacy forget-me")
        await shots(env, here, people[1], "tournament_forget_me", 1300, layout="channel")


class _Clock:
    """The league pictures' clock: in a session's window, then after it."""

    now = 1_764_352_800.0 + 3600  # Friday 2025-11-28 19:00 UTC

    def __call__(self) -> float:
        return self.now


async def league() -> None:
    """League nights (issue 34): ``league_dm``, ``league_status``, ``league_standings`` (two
    servers' entrants, some of whom left a deal) and ``league_compare``."""
    clock = _Clock()
    step.EXPERT_EFFORT = 0.05  # quick computers: the pictures are of the words around them
    bot = shots_bot()
    bot.clock = clock
    bot.daily_salt = "the screenshots' secret salt"
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 3)
        other = make_world(env, 2, server="Circolo di Bologna")
        service = bot.service
        for w in (world, other):
            await service.set_league(w.guild.id, w.channel.id)
        alice = world.members[0]
        await alice.slash(world.channel, "league join")
        for _ in range(2):
            await Table(world, "french_tarot", [alice], 9, table_id=1).step()
        await shots(env, alice.user.dm_channel, alice.user, "league_dm", 1500)
        for i, (w, member) in enumerate(
            [(world, m) for m in world.members] + [(other, m) for m in other.members]
        ):
            if member is not alice:
                await member.slash(w.channel, "league join")
            if i % 2:
                await Table(w, "french_tarot", [member], 9, table_id=i + 1).step()
            await member.slash(w.channel, "league leave")
        here = world.guild.create_text_channel("league-standings")
        await alice.slash(here, "league status")
        await alice.slash(here, "league standings")
        await alice.slash(here, "league standings", of="servers")
        await shots(env, here, alice, "league_standings", 1400, layout="channel")
        clock.now += 6 * 3600  # the window is over
        here = world.guild.create_text_channel("league-compare")
        await alice.slash(here, "league compare", deal=1)
        await shots(env, here, alice, "league_compare", 1400, layout="channel")
    await bot.close()


async def league_table() -> None:
    """League tables of several members (issue 34): ``league_table_lobby`` (the lobby in the
    league channel, two members seated), ``league_table_thread`` (the table in its private
    thread, as one of its players sees it) and ``league_table_channel`` (the league channel once
    it started, as a member who is not at the table sees it: where it went, nothing of it)."""
    clock = _Clock()
    step.EXPERT_EFFORT = 0.05
    bot = shots_bot()
    bot.clock = clock
    bot.daily_salt = "the screenshots' secret salt"
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 3, channel="league")
        await bot.service.set_league(world.guild.id, world.channel.id)
        alice, bob, carol = world.members
        await alice.slash(world.channel, "league table", game="french_tarot")
        lobby = world.channel.last_message
        await bob.click(lobby, label="Join")
        await shots(env, world.channel, alice, "league_table_lobby", 900, layout="channel")
        await alice.click(lobby, label="Start")
        [thread] = world.channel.threads
        await shots(env, thread, alice, "league_table_thread", 1400, layout="channel")
        await shots(env, world.channel, carol, "league_table_channel", 900, layout="channel")
    await bot.close()


async def league_leftovers() -> None:
    """``league_status_left`` (``/league status`` of a player who left a table that plays on:
    left at the deal they left in, with their matchpoints) and ``league_lobby_night_over`` (a
    French server's lobby that did not start before the night ended: closed, and when the
    next night opens)."""
    from bot.services import league as league_service
    from bot.services import league_tables

    clock = _Clock()
    # One deal a set and casual computers: the pictures are of the words around the play.
    league_service.expert_ready = league_tables.expert_ready = lambda game_id: False
    bot = shots_bot()
    bot.clock = clock
    bot.daily_salt = "the screenshots' secret salt"
    game_id = "early_french_tarot"
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 2, channel="league")
        service = bot.service
        service.league_deals = 1
        await service.set_league(world.guild.id, world.channel.id)
        alice, bob = world.members
        await alice.slash(world.channel, "league table", game=game_id)
        await bob.click(world.channel.last_message, label="Join")
        await alice.click(world.channel.last_message, label="Start")
        [thread] = world.channel.threads
        table = await service.table_in_channel(thread.id)
        assert table is not None
        await Table(world, game_id, [alice, bob], 9, table_id=table.id).step()
        await bob.slash(world.channel, "league leave", game=game_id)
        await Table(world, game_id, [alice], 9, table_id=table.id).play()
        # Four entrants of another server leave at once: the 4th holds bob's seat.
        other = make_world(env, 4, server="Circolo di Bologna")
        await service.set_league(other.guild.id, other.channel.id)
        for member in other.members:
            await member.slash(other.channel, "league join", game=game_id)
            await member.slash(other.channel, "league leave", game=game_id)
        here = world.guild.create_text_channel("league-status")
        clock.now += 120
        await bob.slash(here, "league status")
        await shots(env, here, bob, "league_status_left", 900, layout="channel")

        french = make_world(env, 2, channel="ligue", server="Club de tarot de Lyon")
        await service.set_league(french.guild.id, french.channel.id)
        await service.update_guild_settings(french.guild.id, language="fr")
        host, guest = french.members
        await host.slash(french.channel, "league table", game="french_tarot")
        await guest.click(french.channel.last_message, label="Rejoindre")
        clock.now += 6 * 3600  # the night is over
        await bot.controller.league.upkeep()
        await env.settle()
        await shots(env, french.channel, host, "league_lobby_night_over", 700, layout="channel")
    await bot.close()


async def coaching() -> list[str]:
    """Issue 33: ``french_tarot_why`` (the table with the computers' reasons after their bids),
    ``early_french_tarot_review`` (a Review with luck and skill and the **Try another way**
    menu), ``early_french_tarot_another_way`` (the replay in the player's DMs) and
    ``trionfi_stats_luck`` (``/stats`` with the average play)."""
    from bot.services import step
    from tests.e2e.helpers import private_answer
    from tests.e2e.test_levels_hints_review_e2e import open_table, play_out

    step.EXPERT_EFFORT = 0.1  # the pictures need the moments, not the expert's best play
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice = world.members[0]
        await alice.slash(world.channel, "tarot new", seats=4, computers=3)
        await alice.click(world.channel.last_message, label="Start")
        # alice speaks first: once she passed, the computers bid, each with its reason.
        await alice.slash(world.channel, "tarot bid", contract="pass")
        await env.settle()
        await shots(env, world.channel, alice, "french_tarot_why", 1300, layout="channel")
        await alice.slash(world.channel, "tarot end")
    await bot.close()
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice, channel = world.members[0], world.channel
        lobby = await open_table(channel, alice, computers=1, level="expert")
        await alice.click(lobby, label="Start")
        await play_out([alice])
        summary = next(m for m in channel.history() if "hand 1 score sheet" in _text(m))
        r = await alice.click(summary, label="Review")
        answer = private_answer(channel, alice, r)
        await shots(env, channel, alice, "early_french_tarot_review", 1500, layout="channel")
        menu = next(c for c in components(answer) if (c.custom_id or "").startswith("rp:"))
        await alice.select(answer, [menu.options[1].value], custom_id=menu.custom_id)
        dm = alice.user.dm_channel
        await shots(env, dm, alice.user, "early_french_tarot_another_way", 1500)
        await alice.slash(channel, "stats")
        await shots(env, channel, alice, "trionfi_stats_luck", 1100, layout="channel")
    await bot.close()
    return ["french_tarot_why", "early_french_tarot_review", "early_french_tarot_another_way"]


async def replay_replaced() -> list[str]:
    """Issue 33: ``early_french_tarot_replay_replaced`` (the player's DMs once an unfinished
    replay was replaced by another: the old one's messages say so, without controls, above the
    new one's hand)."""
    from bot.services import step
    from tests.e2e.helpers import private_answer
    from tests.e2e.test_levels_hints_review_e2e import open_table, play_out

    step.EXPERT_EFFORT = 0.1  # the pictures need the moments, not the expert's best play
    bot = shots_bot()
    async with simcord.run(bot, settle_timeout=SETTLE) as env:
        world = make_world(env, 1)
        alice, channel = world.members[0], world.channel
        lobby = await open_table(channel, alice, computers=1, level="expert")
        await alice.click(lobby, label="Start")
        await play_out([alice])
        summary = next(m for m in channel.history() if "hand 1 score sheet" in _text(m))
        answer = private_answer(channel, alice, await alice.click(summary, label="Review"))
        menu = next(c for c in components(answer) if (c.custom_id or "").startswith("rp:"))
        await alice.select(answer, [menu.options[0].value], custom_id=menu.custom_id)
        await alice.select(answer, [menu.options[-1].value], custom_id=menu.custom_id)
        await env.settle()
        dm = alice.user.dm_channel
        await shots(
            env, dm, alice.user, "early_french_tarot_replay_replaced", 2600, layout="channel"
        )
    await bot.close()
    return ["early_french_tarot_replay_replaced"]


def _text(message: Any) -> str:
    from tests.e2e.helpers import embed_text

    return embed_text(message)


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game_id in landed_games():
        taken = await game(game_id)
        taken += await bid(game_id)
        print(f"{game_id}: " + ", ".join(f"{game_id}_{n}[_phone].png" for n in taken))
    print("the way in: " + ", ".join(f"{n}[_phone].png" for n in await way_in()))
    await ecart()
    await queen_discard()
    await queen_lobby_it()
    print("french_tarot_ecart, queen_of_tarot_discard, queen_of_tarot_lobby_it [_phone].png")
    await tournament()
    print("tournament_registration, _pairings, _final [_phone].png")
    await tournament_shared()
    print("tournament_shared_channel, tournament_forget_me [_phone].png")
    await league()
    print("league_dm, league_standings, league_compare [_phone].png")
    await league_table()
    print("league_table_lobby, _thread, _channel [_phone].png")
    await league_leftovers()
    print("league_status_left, league_lobby_night_over [_phone].png")

    print("issue 33: " + ", ".join(f"{n}[_phone].png" for n in await coaching()))
    print("issue 33: " + ", ".join(f"{n}[_phone].png" for n in await replay_replaced()))


if __name__ == "__main__":
    asyncio.run(main())
