"""The Discord layer, by room, lowest first; a room imports only the rooms before it.

- ``text``: words (cards, refusals, locale, shared and feature renderers).
- ``pictures``: the table and hand pictures.
- ``components``: restart-proof buttons and selects, and the views built from them.
- ``games``: each game's look (``games/<game_id>.py``); the package itself is the registry
  every room may use (``renderer``, ``game_title``).
- ``delivery``: answering interactions and publishing tables and hands.
- ``handlers``: what a click or a command does (``controller``: ``TrionfiBot.controller``).
"""
