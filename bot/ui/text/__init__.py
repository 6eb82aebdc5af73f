"""Words: cards, refusals, the shared and the features' renderers, who reads which language.

The lowest room of ``bot/ui``: pure functions of the services' data and the engine's views to
text and embeds, in the current language. Nothing here builds a component or talks to Discord.
"""
