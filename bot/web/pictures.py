"""Board pictures for the games that draw one (Bug Run), found by the module name in the
game's record (``Game.picture``).

A picture module offers ``render_board(view, names) -> bytes`` (a PNG of the public view) and
``board_fingerprint(view, names) -> str`` (equal fingerprints, equal pictures). It is imported on
first use, so a game whose module is missing (or whose drawing library is not installed) simply
has no picture and every other page works.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..games import game_for

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Picture:
    render: Callable[[Mapping[str, Any], Sequence[str]], bytes]
    fingerprint: Callable[[Mapping[str, Any], Sequence[str]], str]


_loaded: dict[str, Picture | None] = {}


def picture_for(slug: str) -> Picture | None:
    """The game's picture functions, or None if it has none here."""
    game = game_for(slug)
    name = game.picture if game is not None else None
    if name is None:
        return None
    if name not in _loaded:
        try:
            module = importlib.import_module(name)
            _loaded[name] = Picture(module.render_board, module.board_fingerprint)
        except (ImportError, AttributeError):
            log.info("no board picture for %s: %s cannot be loaded", slug, name)
            _loaded[name] = None
    return _loaded[name]
