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


def card_buttons(message: discord.Message) -> list[discord.Button]:
    """The one-tap card buttons (``tb:<table>:act:play:card=<code>``), in display order."""
    return [
        c
        for c in components(message)
        if isinstance(c, discord.Button) and ":act:play:card=" in (c.custom_id or "")
    ]


def button_card(button: discord.Button) -> str:
    """The card a one-tap button plays (its custom_id without the deal stamp)."""
    return (button.custom_id or "").split(":card=")[1].split("@")[0]


def play_selects(message: discord.Message) -> list[discord.SelectMenu]:
    """The "Play …" card menus (``ts:<table>:play:card``), shown when the cards do not fit."""
    return [
        c
        for c in components(message)
        if isinstance(c, discord.SelectMenu) and ":play:card" in (c.custom_id or "")
    ]


def playable(message: discord.Message) -> list[str]:
    """Every card the message offers to play, as one-tap buttons or in play menus."""
    return [button_card(b) for b in card_buttons(message)] + [
        o.value for m in play_selects(message) for o in m.options
    ]


async def play_card(who: Any, message: discord.Message, card: str | None = None) -> Any:
    """Play ``card`` (default: the first offered) as a person would: tap its button, or pick
    it in the menu holding it."""
    card = card or playable(message)[0]
    for b in card_buttons(message):
        if button_card(b) == card:
            return await who.click(message, custom_id=b.custom_id)
    menu = next(m for m in play_selects(message) if card in [o.value for o in m.options])
    return await who.select(message, [card], custom_id=menu.custom_id)


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

    A fixed policy, so two runs of one seed can be compared: play the first card offered
    (one-tap button or menu), else the first option of a menu, else Accept, else the lowest
    bid, else Drop, else Muck.
    ``actor`` is who clicks (``member.user`` for DMs, the member for channel messages).
    """
    who = actor if actor is not None else member.user
    values = select_values(message)
    if playable(message):
        result = await play_card(who, message)
    elif values:
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
