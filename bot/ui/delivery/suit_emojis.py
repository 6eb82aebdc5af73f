"""The bot's own four-colour suit emojis, so ♠ and ♣ (♥ and ♦) never look alike in text.

Discord draws the Unicode suits in two colours only. At start-up the bot makes sure its
application has one emoji per suit (``bot.ui.pictures.suit_icons`` draws them), uploading the
missing ones, and message text then shows those emojis (``bot.ui.text.cards.suit_mark``). Their
names are the suits' names, which is what screen readers say and notifications show
(":spades:"). Queen of Tarot's Italian pack has four more (``swords``, ``cups``, ``coins``,
``batons``). Buttons and menu options show them in their ``emoji`` field (Discord shows no
custom emoji inside a label: ``bot.ui.components.faces``). Anything that goes wrong (no
permission, Discord down, a rate limit) leaves the Unicode signs in place: the text stays
complete, just in two colours (and the Italian suits as ⚔️ 🏆 🪙 🪵).
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.ui.pictures.suit_icons import suit_icon
from bot.ui.text.cards import set_suit_marks

log = logging.getLogger(__name__)

SUIT_EMOJI_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: Queen of Tarot's Italian suits, by the same codes (the engine's S H D C).
ITALIAN_EMOJI_NAMES = {"S": "swords", "H": "cups", "D": "coins", "C": "batons"}
INSTALL_TIMEOUT = 20.0  # seconds; start-up goes on without them after that


async def _ensure(
    client: discord.Client,
    have: dict[str, discord.Emoji],
    names: dict[str, str],
    italian: bool,
) -> dict[str, str]:
    """Suit code → emoji markup of one pack's suits (``names``), uploading the ones the
    application lacks (``have``: its emojis by name)."""
    marks: dict[str, str] = {}
    for suit, name in names.items():
        emoji = have.get(name)
        if emoji is None:
            try:
                emoji = await client.create_application_emoji(
                    name=name, image=suit_icon(suit, italian)
                )
            except discord.HTTPException:
                # Another process of a cluster may have uploaded it a moment ago.
                again = {e.name: e for e in await client.fetch_application_emojis()}
                if name not in again:
                    raise
                emoji = again[name]
            log.info("uploaded the %s suit emoji", name)
        marks[suit] = str(emoji)
    return marks


async def install(client: discord.Client) -> bool:
    """Make text use the application's suit emojis; True if it does (else Unicode signs).

    Each pack on its own: the Italian suits failing (an application at its emoji limit, say)
    leaves the French ones in use, and the Italian suits as their Unicode stand-ins; the
    French ones failing skips the Italian ones (Discord refuses, or is out of reach).
    """
    packs: list[dict[str, str]] = []
    have: dict[str, discord.Emoji] | None = None
    for names, italian in ((SUIT_EMOJI_NAMES, False), (ITALIAN_EMOJI_NAMES, True)):
        try:
            async with asyncio.timeout(INSTALL_TIMEOUT):
                if have is None:
                    have = {e.name: e for e in await client.fetch_application_emojis()}
                packs.append(await _ensure(client, have, names, italian))
        except (discord.HTTPException, TimeoutError, OSError) as e:
            log.warning("suit emojis unavailable (%s); text keeps the Unicode suit signs", e)
            break
    set_suit_marks(*packs)
    return bool(packs)
