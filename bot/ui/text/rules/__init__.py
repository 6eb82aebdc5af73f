"""Each game's rules as short pages (issue 31): a page per phase of a deal (the deal, the
bidding, the discard where there is one, the play, the scoring), each a few lines and the cards
it speaks of, drawn under its title (``bot.ui.pictures.showcase``).

The pages of a game live in ``bot/ui/text/rules/<game_id>.py`` (its catalog area, so its words
are the game's own: ``pages()`` returns them in the current language), condensed from the rules
specifications (``rules/<game>.md``) and faithful to what the engine applies. The handler
(``bot.ui.handlers.onboard``) puts a page on a message with its buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.engine.registry import implemented, optional_module
from bot.ui.games import renderer


@dataclass(frozen=True, slots=True)
class RulePage:
    """One page: its title and words (markdown, in the current language) and the example cards
    it draws, as (caption, card codes) groups."""

    title: str
    text: str
    cards: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _module(game_id: str) -> ModuleType | None:
    if game_id not in implemented():
        return None
    module = optional_module(f"bot.ui.text.rules.{game_id}")
    return module if isinstance(module, ModuleType) else None


def has_pages(game_id: str) -> bool:
    """Whether ``game_id`` is a game with rules pages (a button naming another is refused)."""
    return _module(game_id) is not None


def pages(game_id: str) -> list[RulePage]:
    """The pages of ``game_id``'s rules in the current language (empty: no such game)."""
    module = _module(game_id)
    return [] if module is None else list(module.pages())


def has_full(game_id: str) -> bool:
    """Whether the game has a complete version of its rules beyond the pages
    (``/<game> rules full:True``)."""
    try:
        return getattr(renderer(game_id), "rules_full_embeds", None) is not None
    except KeyError:
        return False


def full_embeds(game_id: str) -> list[Any]:
    """The complete rules of ``game_id`` as embeds (``has_full`` must hold)."""
    return list(renderer(game_id).rules_full_embeds())
