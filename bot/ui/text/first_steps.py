"""Coach lines (issue 31): on the first deal of a practice table, one short line of guidance in
the hand at each new kind of decision ("Your first bid: …", "The écart: …").

Which decision is a player's first of its kind is read from their own view
(``bot.services.practice.first_decision``); the words are each game's, general advice that
reveals nothing of the deal.
"""

from __future__ import annotations

import discord

from bot.engine.views import SeatView
from bot.i18n import N_, _
from bot.services.models import TableInfo
from bot.services.practice import first_decision

#: (game, kind of decision) → the line.
LINES: dict[tuple[str, str], str] = {
    ("french_tarot", "bid"): N_(
        "Your first bid: count your bouts (the 21, the Petit, the Excuse) and your trumps. Two "
        "bouts, or one with many trumps and a King or two, make a fair Prise; otherwise pass."
    ),
    ("french_tarot", "call"): N_(
        "The call: name a King you don't hold. Whoever holds it is your secret partner until it "
        "is played."
    ),
    ("french_tarot", "discard"): N_(
        "The écart: put aside as many cards as the dog had; they count for you at the end. No "
        "Kings or bouts, and no trumps unless you must. Emptying a short suit lets you trump it "
        "sooner."
    ),
    ("french_tarot", "chelem"): N_(
        "The chelem: announce it only if you are sure to win every trick. An announced chelem "
        "that fails costs 200."
    ),
    ("french_tarot", "poignee"): N_(
        "The poignée: showing that many trumps before your first card is worth a bonus to the "
        "side that wins the deal, but tells everyone your trumps. You may skip it."
    ),
    ("french_tarot", "play"): N_(
        "Your first card: follow the suit led; with none, you must trump, and overtrump when you "
        "can; with neither, play anything. The Excuse may be played at any time."
    ),
    ("la_morte", "bid"): N_(
        "Your first auction: **Bid** the tricks you expect to take (more than the standing bid); "
        "**Accept** to defend against it (1 point a trick, plus the contract if it fails); "
        "**Drop** to score the contract − 1 if you then take no trick at all."
    ),
    ("la_morte", "muck"): N_(
        "Everyone dropped: as the dealer you may bid yourself, or **Muck** the deal (nobody "
        "scores)."
    ),
    ("la_morte", "play"): N_(
        "Your first card: follow suit if you can, otherwise play anything (no need to trump). "
        "La Morte played to a plain-suit trick makes its winner il Morto, out of the deal."
    ),
    ("early_french_tarot", "play"): N_(
        "Your first card: follow the suit led; with none, you must trump; with neither, play "
        "anything. The Fool may be played at any time and comes back to you. Kings, the World "
        "and the Magician are worth points: try to win them."
    ),
    ("losers_game", "trump"): N_(
        "You have the lowest score, so you name trump: the suit you hold most of is a good "
        "choice (each trump in your tricks is a point)."
    ),
    ("losers_game", "bid"): N_(
        "Your first bid: the points your tricks will hold — 1 per trump, 3 for three of a kind, "
        "9 for four. Reach it and score the bid; miss it and lose it. 0 is always safe."
    ),
    ("losers_game", "play"): N_(
        "Your first card: follow suit if you can; otherwise play anything, no need to trump. "
        "Take what your bid needs and no more risk than that."
    ),
    ("queen_of_tarot", "bargain"): N_(
        "The bargaining: a fair share is 43 of the 129 card points. A strong hand may "
        "**Demand** to be paid for giving the hand up, a weak one **Offer** to pay; "
        "**Continue** plays it, **Pass** keeps your position."
    ),
    ("queen_of_tarot", "discard"): N_(
        "The discard: as the dealer, put 3 cards aside; they count for you. Not Kings, the "
        "Angel (XX), the Bagatto (I) or the Fool."
    ),
    ("queen_of_tarot", "declare"): N_(
        "Declarations: show a bonus your hand holds and each opponent pays you its value, but "
        "everyone then knows those cards. You may declare nothing."
    ),
    ("queen_of_tarot", "play"): N_(
        "Your first card: follow suit, else trump, else anything. The Angel (XX) beats XXI. You "
        "score your card points − 43."
    ),
}

#: The field's name in the hand.
TITLE = N_("🎓 First time")


def coach_line(table: TableInfo, view: SeatView, deal_number: int) -> str | None:
    """The coach line for the seat's current decision at a practice table (None: no line)."""
    if not table.hints or table.in_dms:
        return None
    kind = first_decision(view, deal_number)
    if kind is None:
        return None
    line = LINES.get((table.game_id, kind))
    return None if line is None else _(line)


def with_first_steps(
    embed: discord.Embed, table: TableInfo, view: SeatView, deal_number: int
) -> discord.Embed:
    """``embed`` (a hand) with the coach line of its decision, if any, right after what to do
    ("Now")."""
    line = coach_line(table, view, deal_number)
    if line is None:
        return embed
    now = _("Now")
    at = max((i for i, f in enumerate(embed.fields) if f.name == now), default=None)
    if at is None:
        embed.add_field(name=_(TITLE), value=line, inline=False)
    else:
        embed.insert_field_at(at + 1, name=_(TITLE), value=line, inline=False)
    return embed
