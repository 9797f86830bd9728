"""``rules.GAMES``: the engines by slug, so tools and tests can drive any game by name."""

from __future__ import annotations

from .engine import Engine

GAMES: dict[str, type[Engine]] = {}


def register(cls: type[Engine]) -> type[Engine]:
    """Class decorator adding an engine to ``GAMES`` under its slug."""
    existing = GAMES.get(cls.slug)
    if existing is not None and existing is not cls:
        raise ValueError(f"two engines claim the slug {cls.slug!r}")
    GAMES[cls.slug] = cls
    return cls


def get_game(slug: str) -> type[Engine]:
    try:
        return GAMES[slug]
    except KeyError:
        raise KeyError(f"no game {slug!r}; known: {', '.join(sorted(GAMES))}") from None
