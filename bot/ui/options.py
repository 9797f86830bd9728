"""Game options in players' words, for `/bugs new` and the lobby.

Engines describe their options for the people who maintain them (with rule codes such as
"BO-4"); players read the words of the game's record instead (``Game.option_words``). An option
without words there (a new engine's, the test game's) falls back to its engine's description
with any rule code taken out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rules.core import GAMES
from rules.core.engine import GameOption

from ..games import game_for

MAX_DESCRIPTION = 100
"""Discord's limit for an option's description and for a choice's name."""

RULE_CODE = re.compile(r"\s*\(?\b[A-Z]{2,3}-X?\d+\b\)?")
"""A rule reference like ``BC-3``, ``BO-X7`` or ``(BB-22)``."""


@dataclass(frozen=True)
class OptionWords:
    """How players read one option: ``label`` in the lobby, ``description`` in `/bugs new`,
    and each choice's words by value."""

    label: str
    description: str
    choices: Mapping[str, str]


def plain(text: str) -> str:
    """``text`` without rule codes, clipped to Discord's limit."""
    cleaned = RULE_CODE.sub("", text).strip()
    return cleaned if len(cleaned) <= MAX_DESCRIPTION else cleaned[: MAX_DESCRIPTION - 1] + "…"


def words_for(slug: str, option: GameOption) -> OptionWords:
    """The words for one option of one game (its engine's own, cleaned, if none are written)."""
    game = game_for(slug)
    known = game.option_words.get(option.name) if game is not None else None
    choices = {
        value: plain((known.choices.get(value) if known else None) or value.replace("-", " "))
        for value in option.choices
    }
    if known is None:
        return OptionWords(
            option.name.replace("_", " ").capitalize(), plain(option.description), choices
        )
    return OptionWords(known.label, plain(known.description), choices)


def chosen_in_words(slug: str, options: Mapping[str, str]) -> list[str]:
    """One line per option of a lobby, e.g. ``First player: drawn at random``."""
    cls = GAMES.get(slug)
    lines = []
    for option in cls.options if cls is not None else ():
        if option.name not in options:
            continue
        words = words_for(slug, option)
        value = options[option.name]
        chosen = words.choices.get(value, value)
        lines.append(f"{words.label}: {chosen[:1].lower() + chosen[1:]}")
    return lines
