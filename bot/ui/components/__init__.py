"""Restart-proof components and the views built from them: custom_ids only, parsed only.

Each ``DynamicItem`` hands its click to the bot's handlers (``interaction.client.controller``),
described by a small ``Protocol`` beside it; nothing here decides what a click does.
"""
