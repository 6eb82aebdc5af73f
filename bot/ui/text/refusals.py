"""Refusals in words: every ``ServiceError`` code of the services, in the reader's language.

The services refuse with a code and its data (``bot.services.errors``); :func:`refusal` words
it with the catalogs, in the current language (``bot.ui.text.locale`` sets it: the language of the
client that asked). A code this module does not know is a sentence the Discord layer already
wrote in the reader's language (``ServiceError(_("…"))``), shown as it is.

A refused card play ends with the line the hand shows under the cards, saying which rule
forbids it (``bot.ui.text.restriction.restriction_line``): "You can't play 4♥ now. You must follow
♠ Spades."
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.views import SeatView
from bot.i18n import LANGUAGE_NAMES, Words, _, n_, p_
from bot.services.errors import ServiceError
from bot.ui.games import game_title, renderer
from bot.ui.text.cards import SUIT_SYMBOL, label, suit_word
from bot.ui.text.locale import for_game
from bot.ui.text.mention import command, options
from bot.ui.text.names import escape_name
from bot.ui.text.render import round_word, table_number
from bot.ui.text.restriction import restriction_line
from bot.ui.text.tournament import REFUSALS as TOURNAMENT_REFUSALS

Params = Mapping[str, Any]

#: What each action type does, as an infinitive after "You can't …" and "You may …" (a
#: context of its own: French and Italian conjugate a reflexive verb there, "vous retirer").
VERBS = Words(
    {
        "play": lambda: p_("refusal verb", "play a card"),
        "bid": lambda: p_("refusal verb", "bid"),
        "accept": lambda: p_("refusal verb", "accept"),
        "drop": lambda: p_("refusal verb", "drop"),
        "muck": lambda: p_("refusal verb", "muck the deal"),
        "call": lambda: p_("refusal verb", "call a card"),
        "discard": lambda: p_("refusal verb", "discard"),
        "chelem": lambda: p_("refusal verb", "announce a chelem"),
        "poignee": lambda: p_("refusal verb", "show a poignée"),
        "trump": lambda: p_("refusal verb", "name trumps"),
        "demand": lambda: p_("refusal verb", "demand"),
        "offer": lambda: p_("refusal verb", "offer"),
        "pass": lambda: p_("refusal verb", "pass"),
        "continue": lambda: p_("refusal verb", "continue"),
        "declare": lambda: p_("refusal verb", "declare"),
    }
)

# ---- the pieces ------------------------------------------------------------------------


def _or(items: Sequence[str]) -> str:
    """ "a, b or c" in the current language."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])


def _verb(kind: object) -> str:
    return VERBS.get(str(kind), str(kind))


def _game(p: Params) -> str:
    return str(p.get("game") or "")


def _card(p: Params, key: str = "card") -> str:
    """A card as the game's hand shows it (its own labels for the honours)."""
    code = str(p.get(key) or "")
    try:
        special = getattr(renderer(_game(p)), "CARD_LABELS", {})
    except KeyError:
        special = {}
    try:
        return label(code, special)
    except (IndexError, KeyError):  # not a card code
        return code.replace("`", "'")


def _title(p: Params) -> str:
    return game_title(_game(p))


def _is_hands(p: Params) -> bool:
    """The game calls a round of play a "hand" rather than a "deal"."""
    return round_word(_game(p)) == "hand"


def _table(p: Params) -> object:
    return p.get("table")


def _tables(p: Params) -> str:
    """Table numbers as each language writes them ("#7, #9"; "n°7, n°9")."""
    return ", ".join(table_number(t) for t in p.get("tables") or ())


def _codes(p: Params, key: str) -> str:
    """A list of option values, as typed (``off, relaxed, normal, fast``)."""
    return ", ".join(str(c) for c in p.get(key) or ())


# ---- tables and lobbies ----------------------------------------------------------------


def _channel_busy(p: Params) -> str:
    if _table(p) is None:
        return _("There is already a table in this channel.")
    if p.get("status") == "lobby":
        return _(
            "There is already a {game} table in this channel (table #{id}, waiting for "
            "players). Join it, or wait until it ends, or use another channel.",
            game=_title(p),
            id=_table(p),
        )
    return _(
        "There is already a {game} table in this channel (table #{id}, in play). Wait until "
        "it ends, or use another channel.",
        game=_title(p),
        id=_table(p),
    )


def _bad_option(p: Params) -> str:
    option, value = p.get("option"), p.get("value")
    least, most = p.get("least"), p.get("most")
    number = isinstance(value, int) and not isinstance(value, bool)
    if option is None:
        return _("One of the options has a value this game doesn't take.")
    if number and least is not None and value < least:
        return _("Option '{option}' must be at least {least}.", option=option, least=least)
    if number and most is not None and value > most:
        return _("Option '{option}' must be at most {most}.", option=option, most=most)
    return _("Option '{option}' can't take that value.", option=option)


def _host_only(p: Params) -> str:
    if p.get("host") is None:
        return _("Only the table's host can start the game.")
    host = escape_name(str(p["host"]))
    return _("Only the table's host ({host}) can start the game.", host=host)


def _not_full(p: Params) -> str:
    return n_(
        "The table needs {n} player and has {seated}. Wait for someone to join, or add a "
        "computer player.",
        "The table needs {n} players and has {seated}. Wait for someone to join, or add a "
        "computer player.",
        int(p.get("players") or 0),
        seated=p.get("seated"),
    )


def _earlier(p: Params) -> str:
    if _is_hands(p):
        return _(
            "That choice was for an earlier hand, so nothing was played. Your cards show the "
            "current hand."
        )
    return _(
        "That choice was for an earlier deal, so nothing was played. Your hand shows the "
        "current deal."
    )


def _waiting(p: Params, hint: bool = False) -> str:
    waiting = p.get("waiting")
    name = None if waiting is None else escape_name(str(waiting))
    if hint:
        if name is None:
            return _("A hint is for your own decision, and it's not your turn.")
        return _(
            "A hint is for your own decision, and it's not your turn — waiting for {name}.",
            name=name,
        )
    if name is None:
        return _("It's not your turn.")
    return _("It's not your turn — waiting for {name}.", name=name)


def _still_seated(p: Params) -> str:
    count = len(p.get("tables") or ())
    return n_(
        "You are still seated at table {tables}. Leave it (or resign) first, then ask again.",
        "You are still seated at tables {tables}. Leave them (or resign) first, then ask again.",
        count,
        tables=_tables(p),
    )


# ---- decisions the engine refused --------------------------------------------------------


def _deal_over(p: Params) -> str:
    if _is_hands(p):
        return _("This hand is already over.")
    return _("This deal is already over.")


def _malformed(p: Params) -> str:
    reason = p.get("reason")
    if reason == "unknown_card":
        card = str(p.get("card") or "").replace("`", "'")  # what the player typed
        return _("That isn't a valid choice: there is no card '{card}'.", card=card)
    if reason == "unknown_bonus":
        bonus = str(p.get("bonus") or "").replace("`", "'")
        return _("That isn't a valid choice: there is no bonus '{bonus}'.", bonus=bonus)
    if reason == "bonus_twice":
        return _("That isn't a valid choice: name each bonus only once.")
    return _("That isn't a valid choice.")


def _kind_not_now(p: Params) -> str:
    text = _("You can't {verb} now.", verb=_verb(p.get("kind")))
    allowed = [_verb(k) for k in p.get("allowed") or ()]
    if allowed:
        text += " " + _("You may {choices}.", choices=_or(allowed))
    return text


def _bad_amount(p: Params) -> str:
    kind, amount, least, most = p.get("kind"), p.get("amount"), p.get("least"), p.get("most")
    if kind == "bid":
        return _(
            "You can't bid {amount} now: bid from {least} to {most}.",
            amount=amount,
            least=least,
            most=most,
        )
    if kind == "demand":
        return _(
            "You can't demand {amount} now: demand from {least} to {most}.",
            amount=amount,
            least=least,
            most=most,
        )
    if kind == "offer":
        return _(
            "You can't offer {amount} now: offer from {least} to {most}.",
            amount=amount,
            least=least,
            most=most,
        )
    return _(
        "{amount} isn't possible now: choose from {least} to {most}.",
        amount=amount,
        least=least,
        most=most,
    )


def _wrong_count(p: Params) -> str:
    sizes = [int(s) for s in p.get("sizes") or ()] or [0]
    kind = p.get("kind")
    if kind == "discard":
        return n_(
            "Discard exactly {n} different card.",
            "Discard exactly {n} different cards.",
            sizes[-1],
        )
    if kind == "poignee":
        return _(
            "A poignée shows exactly {sizes} of your trumps.", sizes=_or([str(s) for s in sizes])
        )
    return n_("Choose exactly {n} card.", "Choose exactly {n} cards.", sizes[-1])


def _cannot_discard(p: Params) -> str:
    game, card = _game(p), _card(p)
    if game == "french_tarot":
        return _("You can't discard {card}: no Kings, no bouts.", card=card)
    if game == "queen_of_tarot":
        return _("You can't discard {card}: no Kings and no honours.", card=card)
    return _("You can't discard {card}.", card=card)


def _bad_suit(p: Params) -> str:
    suits = [f"{SUIT_SYMBOL[s]} {suit_word(s)}" for s in SUIT_SYMBOL]
    return _("Name one of the suits: {suits}.", suits=_or(suits))


def _contract(p: Params) -> str:
    code = str(p.get("contract") or "")
    try:
        words = getattr(renderer(_game(p)), "CONTRACT", {})
    except KeyError:
        words = {}
    return str(words.get(code, code))


REASONS: dict[str, Callable[[Params], str]] = {
    "kind_not_now": _kind_not_now,
    "not_held": lambda p: _("You don't hold {card}.", card=_card(p)),
    "cannot_play": lambda p: _("You can't play {card} now.", card=_card(p)),
    "cannot_call": lambda p: _("You can't call {card}.", card=_card(p)),
    "bid_too_low": lambda p: _(
        "You can't bid {contract} now: bid higher than the last bid, or pass.",
        contract=_contract(p),
    ),
    "bad_amount": _bad_amount,
    "bad_suit": _bad_suit,
    "cannot_declare": lambda p: _("Your hand can't make that set of bonuses."),
    "twice": lambda p: _("Choose each card only once."),
    "wrong_count": _wrong_count,
    "cannot_discard": _cannot_discard,
    "cannot_show": lambda p: _(
        "You can't show {card} in a poignée: it shows trumps only (and the Excuse).",
        card=_card(p),
    ),
    "poignee_excuse": lambda p: _("A poignée may show the Excuse only with all your trumps."),
    "too_few_trumps": lambda p: n_(
        "Your discard must include exactly {n} trump.",
        "Your discard must include exactly {n} trumps.",
        int(p.get("n") or 0),
    ),
    "too_many_trumps": lambda p: _("Trumps may be discarded only when nothing else can be."),
    "picked_enough": lambda p: n_(
        "You have already picked {n} card: tap it again to put it back first.",
        "You have already picked {n} cards: tap one of them to put it back first.",
        int(p.get("n") or 0),
    ),
    "other": lambda p: _("You can't do that now."),
}


def _illegal(p: Params) -> str:
    return REASONS.get(str(p.get("reason")), REASONS["other"])(p)


# ---- every code --------------------------------------------------------------------------

#: Every code the services refuse with, and its words (each takes the error's params).
REFUSALS: dict[str, Callable[[Params], str]] = {
    # a table's state
    "table_gone": lambda p: _("That table no longer exists."),
    "not_started": lambda p: _("The game hasn't started yet."),
    "game_over": lambda p: _("This game is over."),
    "already_started": lambda p: _("This table's game has already started."),
    "table_closed": lambda p: _("This table is closed."),
    "already_ended": lambda p: _("This table has already ended."),
    "not_seated": lambda p: _("You are not seated at this table."),
    "changed_while_acting": lambda p: _(
        "The table changed while you were acting, so nothing was applied. Please try again."
    ),
    "changed_meanwhile": lambda p: _("The table changed meanwhile; please try again."),
    "table_busy": lambda p: _("The table is busy right now; please try again."),
    # too busy to answer now (issue 29): nothing changed, and a moment later it works
    "database_busy": lambda p: _(
        "I'm very busy right now and couldn't do that; nothing was changed. Please try again "
        "in a few seconds."
    ),
    "expert_busy": lambda p: _(
        "The expert is busy with other players' questions right now; please ask again in a minute."
    ),
    "expert_late": lambda p: _(
        "The expert couldn't answer in time, so I stopped it before this message expired; "
        "please ask again in a minute."
    ),
    "out_of_date": lambda p: _("That choice is out of date: the table has moved on."),
    "earlier_deal": _earlier,
    # opening a table
    "bad_language": lambda p: _(
        "Trionfi speaks {languages}: pick one of them.",
        languages=_or(list(LANGUAGE_NAMES.values())),
    ),
    "channel_not_allowed": lambda p: _(
        "This server's admins allow game tables only in {places}.",
        places=", ".join(f"<#{c}>" for c in p.get("channels") or ()),
    ),
    "computers_off": lambda p: _("This server's admins have turned computer players off."),
    "bad_clock": lambda p: _("Turn clocks are {clocks}.", clocks=_codes(p, "clocks")),
    "unknown_game": lambda p: _(
        "There is no game called '{game}'. Games: {games}.",
        game=str(p.get("game")).replace("`", "'"),
        games=", ".join(game_title(g) for g in p.get("games") or ()),
    ),
    "bad_level": lambda p: _("Computer levels are {levels}.", levels=_codes(p, "levels")),
    "no_expert": lambda p: _(
        "The expert doesn't play {game} yet, so its tables have no expert level and no hints "
        "for now. Open a casual table without hints.",
        game=_title(p),
    ),
    "bad_players": lambda p: _(
        "{game} is for {least} to {most} players.",
        game=_title(p),
        least=p.get("least"),
        most=p.get("most"),
    ),
    "unknown_option": lambda p: _("Unknown option '{option}'.", option=p.get("option")),
    "bad_option": _bad_option,
    "too_many_computers": lambda p: n_(
        "A {players}-player table has room for at most {n} computer player besides you.",
        "A {players}-player table has room for at most {n} computer players besides you.",
        int(p.get("most") or 0),
        players=p.get("players"),
    ),
    "channel_busy": _channel_busy,
    "not_seated_in_channel": lambda p: _(
        "Several tables are played in this channel, and you sit at none of them: commands here "
        "go to your own table. To follow a game, use the buttons on its table message."
    ),
    # the lobby
    "already_seated": lambda p: _("You are already seated at this table."),
    "table_full": lambda p: _("This table is full."),
    "leave_started": lambda p: _("The game has started: resign instead of leaving."),
    "host_only_start": _host_only,
    "table_not_full": _not_full,
    "rematch_unfinished": lambda p: _("A rematch can only follow a finished game."),
    "rematch_players_only": lambda p: _("Only the game's players can ask for a rematch."),
    "rematch_daily": lambda p: _(
        "A daily deal has no rematch: there is one {game} deal a day, and tomorrow's comes "
        "with {daily}.",
        game=_title(p),
        daily=command("daily"),
    ),
    "rematch_replay": lambda p: _(
        "A replay has no rematch: try another way again from the Review of the deal it replays."
    ),
    "no_human": lambda p: _(
        "A table starts only with at least one human player seated: computer players don't "
        "play on their own."
    ),
    # where a table may be used from, and how many one person may hold
    "not_here": lambda p: _(
        "That table is in another server (or in someone's DMs), so it can't be used from "
        "here. Nothing was changed."
    ),
    "too_many_lobbies": lambda p: n_(
        "You already host {n} open table, the most one player may host at a time: start it or "
        "close it before opening another.",
        "You already host {n} open tables, the most one player may host at a time: start or "
        "close one of them before opening another.",
        int(p.get("most") or 0),
    ),
    "too_many_seats": lambda p: n_(
        "You already have a seat at {n} open table (a lobby or a game in play), the most one "
        "player may hold: leave it or finish the game first.",
        "You already have seats at {n} open tables (lobbies or games in play), the most one "
        "player may hold: leave one or finish a game first.",
        int(p.get("most") or 0),
    ),
    # hosts, admins and absent players
    "not_away": lambda p: _("You are already playing your seat yourself."),
    "member_not_playing": lambda p: _("That member is not playing at this table."),
    "replace_not_away": lambda p: n_(
        "That player is still playing: you can replace a player only once they are away (their "
        "turn clock ran out, or the game has waited on them for {n} minute).",
        "That player is still playing: you can replace a player only once they are away (their "
        "turn clock ran out, or the game has waited on them for {n} minutes).",
        int(p.get("minutes") or 0),
    ),
    "replace_self": lambda p: _("You can't replace yourself: to leave the game, resign."),
    "other_server": lambda p: _(
        "Table #{id} is not on this server: only its host or that server's admins can end it.",
        id=_table(p),
    ),
    "host_or_admin": lambda p: _(
        "Only the table's host or someone with the Manage Server permission can do that."
    ),
    # hints and reviews
    "hints_practice_only": lambda p: _(
        "Hints are only for practice tables, opened with {hints} — those are never rated. "
        "Table #{id} is a rated table, so you're on your own here.",
        id=_table(p),
        hints=options(hints=True),
    ),
    "hint_not_your_turn": lambda p: _waiting(p, hint=True),
    "review_players_only": lambda p: _(
        "Only the players of table #{id} can review its deals, and you didn't sit at this one.",
        id=_table(p),
    ),
    "no_expert_review": lambda p: _(
        "The expert doesn't play {game} yet, so it can't review this deal.", game=_title(p)
    ),
    "deal_not_over": lambda p: (
        _("That hand isn't over yet: it can be reviewed once it ends.")
        if _is_hands(p)
        else _("That deal isn't over yet: it can be reviewed once it ends.")
    ),
    "replay_no_such_decision": lambda p: _(
        "That isn't one of your decisions in this deal, so there is nothing to try again."
    ),
    "replay_dm_busy": lambda p: _(
        "A daily deal or a league set is still under way in your DMs: finish it before "
        "trying another way."
    ),
    "replay_replaced": lambda p: _(
        "This replay was replaced by a new game in your DMs: nothing was played here."
    ),
    # settings
    "bad_delay": lambda p: _(
        "The delay goes from 0 to {most} seconds (0: right away).", most=p.get("most")
    ),
    # leaderboards, records, privacy
    "bad_metric": lambda p: _("Leaderboards rank by {metrics}.", metrics=_codes(p, "metrics")),
    "bad_scope": lambda p: _("A leaderboard's scope is server or global."),
    "bad_period": lambda p: _("A leaderboard's period is all or 30d."),
    "board_needs_server": lambda p: _(
        "Server leaderboards need a server: use {scope} here.", scope=options(scope="All servers")
    ),
    "no_such_table": lambda p: _("There is no table #{id} on this server.", id=_table(p)),
    "never_started": lambda p: _("Table #{id} never started, so it has no record.", id=_table(p)),
    "still_playing": lambda p: _(
        "Table #{id} is still being played; its record opens when the game ends.", id=_table(p)
    ),
    "still_seated": _still_seated,
    # the daily deal
    "daily_unknown_game": lambda p: _(
        "There is no daily deal of that game. The daily games: {games}.",
        games=", ".join(game_title(str(g)) for g in p.get("games") or ()),
    ),
    "daily_played": lambda p: (
        _(
            "You already have today's {game} deal under way in your DMs: finish it there. "
            "One attempt a day and game.",
            game=_title(p),
        )
        if p.get("status") == "playing"
        else _(
            "You already played today's {game} deal: one attempt a day and game. See where you "
            "stand with {board}, and compare with {compare}.",
            game=_title(p),
            board=command("daily", action="Board"),
            compare=command("daily", action="Compare (after your finish)"),
        )
    ),
    "daily_played_forgotten": lambda p: _(
        "You already played today's {game} deal before asking to be forgotten: one attempt a "
        "day and game. Tomorrow's deal is yours to play.",
        game=_title(p),
    ),
    "daily_in_progress": lambda p: _(
        "Your {game} daily deal of {day} is still under way in your DMs: finish it (or "
        "{resign}) before starting another.",
        game=_title(p),
        resign=command("daily", action="Resign (the computer finishes your hand)"),
        day=p.get("day"),
    ),
    "daily_not_playing": lambda p: _(
        "You have no {game} daily deal under way to resign.", game=_title(p)
    ),
    "daily_not_yours": lambda p: _("This button is for the player of that daily deal."),
    "daily_reveal_unfinished": lambda p: _(
        "Finish your own attempt at today's {game} deal first: nothing of the deal is shown "
        "before that (the boards show scores only).",
        game=_title(p),
    ),
    # league nights (issue 34)
    "league_unknown_game": lambda p: _(
        "League nights have no set of that game. The league's games: {games}.",
        games=", ".join(game_title(str(g)) for g in p.get("games") or ()),
    ),
    "league_not_joined": lambda p: _(
        "This server hasn't joined the league nights: its admins can join with {settings}.",
        settings=command("trionfi settings", league="True"),
    ),
    "league_closed": lambda p: (
        _(
            "This week's league session opens {starts} and closes {ends}.",
            starts=f"<t:{int(p.get('starts') or 0)}:F>",
            ends=f"<t:{int(p.get('ends') or 0)}:t>",
        )
        if (p.get("now") or 0) < (p.get("starts") or 0)
        else _(
            "This week's league session closed {ends}; the next one opens {next}.",
            ends=f"<t:{int(p.get('ends') or 0)}:R>",
            next=f"<t:{int(p.get('next') or 0)}:F>",
        )
    ),
    "league_entered": lambda p: _(
        "You already entered this week's {game} set: one entry a week and game. See where you "
        "stand with {standings}.",
        game=_title(p),
        standings=command("league standings"),
    ),
    "league_dm_busy": lambda p: _(
        "You already have a deal under way in your DMs (a daily deal or another league set): "
        "finish it first."
    ),
    "league_not_playing": lambda p: _(
        "You have no {game} league set under way to leave.", game=_title(p)
    ),
    "league_compare_early": lambda p: _(
        "The comparison of the tables opens when this week's session closes ({ends}): nothing "
        "of a deal is shown before then.",
        ends=f"<t:{int(p.get('ends') or 0)}:R>",
    ),
    "league_compare_playing": lambda p: _(
        "Finish your own {game} set first: nothing of its deals is shown before that.",
        game=_title(p),
    ),
    "league_sees_threads": lambda p: _(
        "You can read other members' private threads in this server's league channel (Manage "
        "Threads or Administrator there), so you could see another table's deals before "
        "playing them: you can't enter the league from this server."
    ),
    "league_in_lobby": lambda p: _(
        "You already sit at a league table of this week's {game} set that hasn't started: "
        "play it there, or leave it first.",
        game=_title(p),
    ),
    "league_table_channel": lambda p: _(
        "League tables are opened in this server's league channel: <#{channel}>.",
        channel=p.get("channel"),
    ),
    "league_table_stale": lambda p: _(
        "This league table was opened for a past session: open a new one with {table}.",
        table=command("league table"),
    ),
    "league_seat_entered": lambda p: _(
        "**{name}** already entered this week's {game} set: they must leave this table before "
        "it can start.",
        name=escape_name(str(p.get("name") or "")),
        game=_title(p),
    ),
    "league_table_starting": lambda p: _(
        "This league table is being started already: its thread comes in a moment. If nothing "
        "happens, press **Start** again in a minute."
    ),
    "league_table_taken": lambda p: _(
        "Someone at this table entered this week's set meanwhile: press **Start** again to see who."
    ),
    "league_computers_at_start": lambda p: _(
        "At a league table the expert computers take the empty seats when the host presses "
        "**Start**."
    ),
    "league_no_end": lambda p: _(
        "A league table can't be ended by its host: it is every player's entry of the set. "
        "Each player may leave it with {leave} (the computer finishes their deal in progress).",
        leave=command("league leave"),
    ),
    "league_start_button": lambda p: _(
        "A league table starts with the **Start** button under its lobby (it opens the "
        "table's private thread)."
    ),
    "league_bad_deal": lambda p: _("This week's set has deals 1 to {most}.", most=p.get("most")),
    # decisions (``IllegalMove``: the engine's codes)
    "not_your_turn": _waiting,
    "already_played": lambda p: _("You already played that."),
    "deal_over": _deal_over,
    "bad_action": _malformed,
    "illegal_action": _illegal,
    # tournaments (issue 34)
    **TOURNAMENT_REFUSALS,
}


def known(code: str) -> bool:
    """Whether ``code`` is a refusal code of the services (not a sentence already written)."""
    return code in REFUSALS


def refusal(err: ServiceError, view: SeatView | None = None) -> str:
    """``err`` in words, in the current language.

    ``view``: the refused seat's current view, for a refused card play: the line saying which
    rule forbids the card follows (as the hand shows it).
    """
    words = REFUSALS.get(err.code)
    if words is None:  # a sentence the Discord layer wrote itself, in the reader's language
        return err.code
    game = _game(err.params) or (view.public.game_id if view is not None else "")
    with for_game(game):  # a card named in the game's own suits (Queen of Tarot's Coins)
        text = words(err.params)
        if view is not None and err.params.get("reason") == "cannot_play":
            why = restriction_line(view)
            if why:
                text = f"{text} {why}"
    return text
