"""The words of the game picker of ``/play`` and ``/help`` (issue 31): each game in one line of
pitch, its player counts and a practice game's length (its **Practice** and **Rules** buttons
are ``bot.ui.components.onboard``'s).

The newcomer's game comes first: Early French Tarot has no bidding, so a first game is only
following suit and trumping.
"""

from __future__ import annotations

from bot.engine.registry import get_rules, implemented
from bot.i18n import N_, Words, _, n_
from bot.services.practice import PRACTICE_SEATS
from bot.ui.games import game_title, renderer
from bot.ui.text.mention import command

#: The picker's order: the easiest way in first.
ORDER = ("early_french_tarot", "french_tarot", "la_morte", "losers_game", "queen_of_tarot")

PITCH = Words(
    {
        "early_french_tarot": N_(
            "New to tarot? Start here: card play only, no bidding — follow suit, trump, and "
            "collect the honours."
        ),
        "french_tarot": N_(
            "France's national card game: bid to take the dog, then one plays against the rest."
        ),
        "la_morte": N_(
            "Bid the tricks you will take, accept the bid or drop out — and beware La Morte."
        ),
        "losers_game": N_(
            "The 52-card pack: name trump, bid the points you will take, and make it or lose it."
        ),
        "queen_of_tarot": N_(
            "A Piedmontese game for three: bargain to abandon a hand, or play it out."
        ),
    }
)

#: A practice game's length (``bot.services.practice``: the computers play at once).
LENGTH_MINUTES = {
    "early_french_tarot": 10,
    "french_tarot": 15,
    "la_morte": 10,
    "losers_game": 10,
    "queen_of_tarot": 20,
}


def games() -> list[str]:
    """The implemented games in the picker's order."""
    known = set(implemented())
    return [g for g in ORDER if g in known] + [g for g in implemented() if g not in ORDER]


def players(game_id: str) -> str:
    """ "2–6 players", "3 players"."""
    rules = get_rules(game_id)
    if rules.min_players == rules.max_players:
        return n_("{n} player", "{n} players", rules.min_players)
    return _("{least}–{most} players", least=rules.min_players, most=rules.max_players)


def game_section(game_id: str) -> str:
    """A game's words in the picker: its name, players and length, then its pitch."""
    facts = [players(game_id)]
    minutes = LENGTH_MINUTES.get(game_id)
    if minutes is not None:
        facts.append(
            _(
                "practice: about {minutes} min against {n} computers",
                minutes=minutes,
                n=PRACTICE_SEATS.get(game_id, 4) - 1,
            )
        )
    group = getattr(renderer(game_id), "GROUP", game_id)
    lines = [
        f"**{game_title(game_id)}** · " + " · ".join(facts),
        PITCH.get(game_id, ""),
        "-# "
        + _(
            "With friends: {new} · the rules: {rules}",
            new=command(f"{group} new"),
            rules=command(f"{group} rules"),
        ),
    ]
    return "\n".join(line for line in lines if line)


def play_head() -> str:
    """``/play``'s first words, above the games."""
    return "\n".join(
        [
            "## " + _("🃏 Play a tarot card game"),
            _(
                "**Practice** opens a table in this channel, fills it with computer players "
                "and deals at once; your hand comes by DM, and 💡 **Hint** shows what the "
                "expert would do. Nothing counts in the rankings."
            ),
        ]
    )
