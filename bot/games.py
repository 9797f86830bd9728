"""One record per game: everything the bot knows of a game besides its engine's rules.

A game registers once, with ``register_game`` at the bottom of its presenter module; the shipped
games' presenters are imported by ``bot.ui.games``, any other game's module (the test game's)
through ``EXTRA_GAME_MODULES`` (``load_game_modules``). Whatever differs by game (its board, its
`/bugs rules` text, its option words, its picture, its timers, what its leak scans look for)
is read from its record, so adding a game touches no list elsewhere.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.core import GAMES, Engine, Timer

if TYPE_CHECKING:
    from .ui.howto import RulesPage
    from .ui.options import OptionWords
    from .ui.presenter import Presenter


@dataclass(frozen=True, eq=False)
class Game:
    """A registered game. Only ``engine`` and ``presenter`` are needed; the rest has defaults
    that fit a game without them (the engine's docstring as its rules, its options' own
    descriptions, no picture, nothing hidden but the RNG)."""

    engine: type[Engine]
    presenter: Presenter
    rules_text: str | None = None
    """A short how-to-play, for a game without ``rules_pages`` (``None``: the engine's
    docstring)."""
    rules_pages: tuple[RulesPage, ...] = ()
    """The game's rules as pages (`/bugs rules`, How to play, ``/rules/<game>``)."""
    option_words: Mapping[str, OptionWords] = field(default_factory=dict)
    """Option name -> how players read it (an option without words falls back to its
    engine's description, rule codes taken out)."""
    picture: str | None = None
    """The module drawing its board picture (``render_board``, ``board_fingerprint``), or
    ``None`` for a game that has none."""
    secrets: tuple[str, ...] = ()
    """Dotted paths into ``to_dict()`` of what players may not see (besides the RNG state
    every game keeps): what the leak scans look for in logs and pages."""
    demo_timers: Mapping[str, float] = field(default_factory=dict)
    """Shorter timers for ``python -m bot demo`` (name -> seconds), which nobody waits on."""
    shipped: bool = True
    """A game members play. ``False`` for the test game, which exists to prove the host: it
    has no rulebook, golden logs, planted canaries (tests/support/canaries.py) or request
    budget, and keeps its own ``apply``; the cross-game tests of those skip it by this flag."""

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def timers(self) -> tuple[Timer, ...]:
        """The timers its engine declares (names and default seconds)."""
        return self.engine.timers

    @property
    def hides_anything(self) -> bool:
        """Whether any seat holds something the others may not see (besides the RNG)."""
        return bool(self.secrets)


REGISTRY: dict[str, Game] = {}
"""Slug -> record; read it through ``game_for`` and ``games`` (a test may swap a record)."""


def register_game(game: Game) -> Game:
    """Add a game (its engine to ``rules.GAMES`` too); a second game on one slug is an error."""
    existing = REGISTRY.get(game.slug)
    if existing is not None and existing is not game:
        raise ValueError(f"two games claim the slug {game.slug!r}")
    if GAMES.get(game.slug) not in (None, game.engine):
        raise ValueError(f"game {game.slug!r} is not the engine rules.GAMES has on its slug")
    GAMES[game.slug] = game.engine
    REGISTRY[game.slug] = game
    return game


def game_for(slug: str) -> Game | None:
    """The record of a registered game, or ``None``."""
    return REGISTRY.get(slug)


def games() -> list[Game]:
    """Every registered game, by slug."""
    return [REGISTRY[slug] for slug in sorted(REGISTRY)]


def load_game_modules(modules: Iterable[str]) -> None:
    """Import the shipped games' presenters and then ``modules`` (``EXTRA_GAME_MODULES``),
    each of which registers its game on import."""
    importlib.import_module("bot.ui.games")
    for module in modules:
        importlib.import_module(module)
