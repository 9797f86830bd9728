"""`/bugs rules`: a game's short how-to-play, from its record (the rulebooks are the full
reference); an engine without one (or without a record) shows its docstring."""

from __future__ import annotations

import inspect

from rules.core import GAMES

from ..games import game_for
from .specs import EmbedSpec, MessageSpec


def rules_message(slug: str) -> MessageSpec:
    cls = GAMES.get(slug)
    if cls is None:
        return MessageSpec(embed=EmbedSpec(title="Unknown game", description="No such game."))
    game = game_for(slug)
    text = (game.rules_text if game else None) or inspect.getdoc(cls) or "No summary yet."
    return MessageSpec(
        embed=EmbedSpec(
            title=f"How to play {cls.title}",
            description=text,
            footer="Open a game with /bugs new; friends join with the Join button.",
        )
    )
