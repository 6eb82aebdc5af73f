"""Reading what a simulated member sees, and acting on it as a person would."""

from __future__ import annotations

import re
from typing import Any

import discord


def parts(message: discord.Message) -> list[Any]:
    """Every component of a message in the order Discord shows them, nested ones included
    (action rows, and the newer layout's containers, sections, texts and galleries)."""
    out: list[Any] = []
    stack: list[Any] = list(reversed(message.components))
    while stack:
        c = stack.pop()
        out.append(c)
        children = list(getattr(c, "children", None) or [])
        accessory = getattr(c, "accessory", None)
        stack.extend(reversed([*children, *([accessory] if accessory is not None else [])]))
    return out


def components(message: discord.Message) -> list[Any]:
    """Every button/select on a message, walking its action rows (wherever they sit)."""
    return [c for c in parts(message) if isinstance(c, discord.Button | discord.SelectMenu)]


def rows(message: discord.Message) -> list[Any]:
    """The action rows of a message, wherever they sit (top level, or in a container)."""
    return [c for c in parts(message) if isinstance(c, discord.ActionRow)]


def texts(message: discord.Message) -> list[str]:
    """The text displays of a message in the newer layout, in order (the first is what a
    phone's notification shows)."""
    return [c.content for c in parts(message) if isinstance(c, discord.TextDisplay)]


def pictures(message: discord.Message) -> list[tuple[str, str]]:
    """The pictures a message's media galleries show: (url, alt text)."""
    return [
        (item.media.url, item.description or "")
        for c in parts(message)
        if isinstance(c, discord.MediaGalleryComponent)
        for item in c.items
    ]


def accent(message: discord.Message) -> discord.Colour | None:
    """The accent colour of a message's container (None: none)."""
    for c in parts(message):
        if isinstance(c, discord.components.Container):
            return c.accent_colour
    return None


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
    """All text of a message: content, embed title/description/fields/footer, the newer
    layout's text displays and its pictures' alt text (what a screen reader reads: the full
    text, which a picture's brief leaves out)."""
    out = [message.content or ""]
    for e in message.embeds:
        out += [e.title or "", e.description or "", e.footer.text or "" if e.footer else ""]
        if e.author and e.author.name:
            out.append(e.author.name)
        for f in e.fields:
            out += [f.name or "", f.value or ""]
    out += texts(message)
    out += [alt for _url, alt in pictures(message)]
    return "\n".join(out)


def is_card(message: discord.Message) -> bool:
    """A message drawn by the bot as a card (an embed, or the newer layout), not a plain note."""
    return bool(message.embeds) or any(
        isinstance(c, discord.components.Container) for c in message.components
    )


def dm_hand(member: Any) -> discord.Message | None:
    """The bot's latest hand message in a member's DMs (one per table; plain-text notes such
    as turn reminders are skipped)."""
    history = [m for m in member.user.dm_channel.history() if is_card(m)]
    return history[-1] if history else None


#: What a finished game's result card offers (not a decision): its link to the results,
#: Rematch, Review.
_AFTER_THE_GAME = re.compile(r"^tb:\d+:(rematch|review:\d+|compare)$")


def has_controls(message: discord.Message | None) -> bool:
    """The message offers a decision (a result card's buttons are not one)."""
    return message is not None and any(
        not getattr(c, "url", None) and not _AFTER_THE_GAME.match(c.custom_id or "")
        for c in components(message)
    )


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
        # La Morte's Accept and Drop say what they score after the word ("Drop — +2 …").
        accept = [label for label in offered if label.startswith("Accept")]
        drop = [label for label in offered if label.startswith("Drop")]
        if accept:
            choice = accept[0]
        elif bids:
            choice = bids[0]
        else:
            choice = drop[0] if drop else "Muck"
        result = await who.click(message, label=choice)
    assert result.acknowledged, "the bot did not answer the interaction"
    return result


def said(result: Any) -> Any:
    """The message an interaction's presser got last: the follow-up of a deferred answer (a
    refusal after a deferred update, say), else the response itself."""
    return result.followups[-1] if result.followups else result.response


def mover_of(*members: Any) -> Any:
    """The member whose DM hand offers a decision (None: nobody's)."""
    return next((m for m in members if has_controls(dm_hand(m))), None)


async def play_turn(*members: Any) -> Any:
    """The member whose turn it is decides from their DM hand; returns them."""
    mover = mover_of(*members)
    assert mover is not None
    hand = dm_hand(mover)
    assert hand is not None
    await take_turn(mover, hand)
    return mover


def private_answer(channel: Any, member: Any, result: Any) -> discord.Message:
    """The private answer ``member`` got to ``result`` in ``channel``, as their client shows it
    (a whole message: answers in the newer layout or with embeds sent as a follow-up are not
    whole in the interaction's own record)."""
    answer = said(result)
    return next(m for m in channel.history(viewer=member) if m.id == answer.id)
