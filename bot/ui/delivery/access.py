"""What the bot may do in a table's channel, and a message cut down to what it may send there.

Discord refuses (403, code 50013 Missing Permissions) an upload without **Attach Files**, shows
our suit emojis as ``:spades:`` words without **Use External Emojis**, refuses every request
without **View Channel** (50001 Missing Access) and every new message without **Send
Messages**. A server may deny any of these in a channel, or a moderator may lock a channel for
a while, so a missing permission must not end a table (issue 28, defect 1): delivery reads the
bot's permissions in the channel (the gateway keeps them current, so no request is wasted on a
sure refusal) and sends only what they allow — no picture (the table's full text instead), the
Unicode suit signs. A channel it cannot post in at all is retried with back-off and closed
only after ``UNREACHABLE_LIMIT`` (``publisher.Publisher``);
the host is told once what is missing (``host_notice.HostNotices``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, _
from bot.ui.delivery.pictures import without_picture
from bot.ui.delivery.protocols import Messenger
from bot.ui.text.cards import suit_emojis_on

#: The permissions a table's channel needs, by ``discord.Permissions`` attribute, with the
#: names Discord shows admins in a channel's settings. Not Embed Links: every message the bot
#: posts is in the newer layout (``bot.ui.components.layout``), which has no embed, and an
#: answer to an interaction may always carry embeds.
NEEDED: dict[str, str] = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
    "use_external_emojis": N_("Use External Emojis"),
}
#: Without these, ``/<game> new`` opens no table in a channel (it names the missing ones);
#: without the others a table runs degraded (no pictures, two-colour suits).
ESSENTIAL = ("view_channel", "send_messages", "read_message_history")
#: The invite's ``permissions`` integer (README, "Inviting the bot"): all of ``NEEDED``.
INVITE_PERMISSIONS = discord.Permissions(**dict.fromkeys(NEEDED, True)).value

#: How long a table's channel may stay closed to the bot (View Channel or Send Messages
#: missing, or Discord answering 403) before the table is closed, unrated: long enough for a
#: moderator's lockdown to pass, short enough that players are not left waiting for days.
UNREACHABLE_HOURS = 6
UNREACHABLE_LIMIT = UNREACHABLE_HOURS * 3600.0
#: A channel refusing the bot although its permissions look complete (``HostNotices``' key).
REFUSED = "refused"

#: What a running table loses without each permission, for its host. Read Message History is
#: not here: a table never reads the channel's history (it is asked for at ``new`` only).
_EFFECTS: dict[str, str] = {
    "view_channel": N_(
        "I can't show the table in the channel; you can all go on playing from your hands"
    ),
    "send_messages": N_("I can't post new table messages or deal results in the channel"),
    "attach_files": N_("the table has no pictures"),
    "use_external_emojis": N_("suits are shown as ♠ ♥ ♦ ♣, in two colours"),
}


def channel_permissions(bot: Messenger, channel_id: int) -> discord.Permissions | None:
    """The bot's permissions in a server channel, as the gateway last told them; None if the
    channel is not a server channel the bot knows (a DM: nothing to degrade)."""
    channel = bot.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    me = channel.guild.me
    return None if me is None else channel.permissions_for(me)


def missing(perms: discord.Permissions | None) -> frozenset[str]:
    """The permissions a running table uses that ``perms`` lacks (None: nothing known). Use
    External Emojis is used only once the bot's suit emojis are installed."""
    if perms is None:
        return frozenset()
    lacking = {attr for attr in _EFFECTS if not getattr(perms, attr)}
    if not suit_emojis_on():
        lacking.discard("use_external_emojis")
    return frozenset(lacking)


def to_tell(lacking: frozenset[str]) -> frozenset[str]:
    """What a host should hear of ``lacking``: its cause, not what follows from it. Without
    View Channel the bot has no permission in the channel at all, and without Send Messages
    none to attach (Discord's rules, which ``permissions_for`` applies)."""
    if "view_channel" in lacking:
        return frozenset({"view_channel"})
    if "send_messages" in lacking:
        return lacking - {"attach_files"}
    return lacking


def can_edit(lacking: frozenset[str]) -> bool:
    """The bot may edit its messages in the channel (View Channel is all that takes)."""
    return "view_channel" not in lacking


def can_post(lacking: frozenset[str]) -> bool:
    """The bot may post new messages in the channel."""
    return can_edit(lacking) and "send_messages" not in lacking


def blocks(lacking: frozenset[str]) -> bool:
    """The table cannot be shown as it goes (not merely degraded)."""
    return not can_post(lacking)


def names(lacking: frozenset[str]) -> list[str]:
    """Discord's names of ``lacking``, in ``NEEDED``'s order, in the current language."""
    return [_(name) for attr, name in NEEDED.items() if attr in lacking]


def effects(lacking: frozenset[str]) -> list[str]:
    """One line per missing permission: its name and what the table loses without it."""
    return [
        _("**{name}**: {effect}", name=_(NEEDED[attr]), effect=_(effect))
        for attr, effect in _EFFECTS.items()
        if attr in lacking
    ]


def within(fields: dict[str, Any], lacking: frozenset[str]) -> dict[str, Any]:
    """``fields`` as the bot may send them in the channel: without the picture when Attach
    Files is missing (a layout then shows its full text instead)."""
    return without_picture(fields) if "attach_files" in lacking else dict(fields)
