"""Reading what a simulated member sees, and acting on it as a person would."""

from __future__ import annotations

from typing import Any

import discord


def components(message: discord.Message) -> list[Any]:
    """Every button/select on a message, walking its action rows."""
    out: list[Any] = []
    for row in message.components:
        out.extend(getattr(row, "children", [row]))
    return out


def labels(message: discord.Message) -> list[str]:
    return [c.label for c in components(message) if isinstance(c, discord.Button) and c.label]


def select_values(message: discord.Message) -> list[str]:
    values: list[str] = []
    for c in components(message):
        if isinstance(c, discord.SelectMenu):
            values.extend(o.value for o in c.options)
    return values


def select_id(message: discord.Message) -> str | None:
    for c in components(message):
        if isinstance(c, discord.SelectMenu):
            return c.custom_id
    return None


def embed_text(message: discord.Message) -> str:
    """All visible text of a message: content, embed title/description/fields/footer."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or "" if e.footer else ""]
        if e.author and e.author.name:
            parts.append(e.author.name)
        for f in e.fields:
            parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def dm_hand(member: Any) -> discord.Message | None:
    """The bot's latest hand message in a member's DMs (one per table; plain-text notes such
    as turn reminders are skipped)."""
    history = [m for m in member.user.dm_channel.history() if m.embeds]
    return history[-1] if history else None


def has_controls(message: discord.Message | None) -> bool:
    return message is not None and bool(components(message))


async def take_turn(member: Any, message: discord.Message, *, actor: Any = None) -> Any:
    """Make the member's current decision on ``message`` (their DM or ephemeral hand).

    A fixed policy, so two runs of one seed can be compared: play the first card offered,
    else Accept, else the lowest bid, else Drop, else Muck.
    ``actor`` is who clicks (``member.user`` for DMs, the member for channel messages).
    """
    who = actor if actor is not None else member.user
    values = select_values(message)
    if values:
        result = await who.select(message, [values[0]], custom_id=select_id(message))
    else:
        offered = labels(message)
        bids = [label for label in offered if label.startswith("Bid")]
        if "Accept" in offered:
            choice = "Accept"
        elif bids:
            choice = bids[0]
        else:
            choice = "Drop" if "Drop" in offered else "Muck"
        result = await who.click(message, label=choice)
    assert result.acknowledged, "the bot did not answer the interaction"
    return result


def said(result: Any) -> Any:
    """The message an interaction's presser got last: the follow-up of a deferred answer (a
    refusal after a deferred update, say), else the response itself."""
    return result.followups[-1] if result.followups else result.response
