"""The bot's own four-colour suit emojis, so ♠ and ♣ (♥ and ♦) never look alike in text.

Discord draws the Unicode suits in two colours only. At start-up the bot makes sure its
application has one emoji per suit (``bot.ui.pictures.suit_icons`` draws them), uploading the
missing ones, and message text then shows those emojis (``bot.ui.text.cards.suit_mark``). Their
names are the suits' names, which is what screen readers say and notifications show
(":spades:"). Buttons and option labels keep the Unicode signs: Discord shows no custom emoji
there. Anything that goes wrong (no permission, Discord down, a rate limit) leaves the Unicode
signs in place: the text stays complete, just in two colours.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.ui.pictures.suit_icons import suit_icon
from bot.ui.text.cards import set_suit_marks

log = logging.getLogger(__name__)

SUIT_EMOJI_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
INSTALL_TIMEOUT = 20.0  # seconds; start-up goes on without them after that


async def _ensure(client: discord.Client) -> dict[str, str]:
    """Suit code → emoji markup, uploading the suits the application lacks."""
    have = {e.name: e for e in await client.fetch_application_emojis()}
    marks: dict[str, str] = {}
    for suit, name in SUIT_EMOJI_NAMES.items():
        emoji = have.get(name)
        if emoji is None:
            try:
                emoji = await client.create_application_emoji(name=name, image=suit_icon(suit))
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
    """Make text use the application's suit emojis; True if it does (else Unicode signs)."""
    try:
        async with asyncio.timeout(INSTALL_TIMEOUT):
            marks = await _ensure(client)
    except (discord.HTTPException, TimeoutError, OSError) as e:
        log.warning("suit emojis unavailable (%s); text keeps the Unicode suit signs", e)
        set_suit_marks(None)
        return False
    set_suit_marks(marks)
    return True
