"""Board pictures for the games that draw one (Bug Run), found by module name.

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

log = logging.getLogger(__name__)

MODULES: dict[str, str] = {"bug-run": "bot.ui.images.bug_run"}
"""Game slug → the module that draws its board."""


@dataclass(frozen=True)
class Picture:
    render: Callable[[Mapping[str, Any], Sequence[str]], bytes]
    fingerprint: Callable[[Mapping[str, Any], Sequence[str]], str]


_loaded: dict[str, Picture | None] = {}


def picture_for(slug: str) -> Picture | None:
    """The game's picture functions, or None if it has none here."""
    name = MODULES.get(slug)
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
