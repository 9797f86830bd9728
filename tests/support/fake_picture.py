"""A stand-in board picture module for the web tests: the same functions as a real one
(``render_board``, ``board_fingerprint``), drawing nothing but a PNG signature and the turn."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

PNG = b"\x89PNG\r\n\x1a\n"
renders: list[int] = []
"""The turn of every picture really drawn (the server should draw each scene once)."""


def render_board(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
    renders.append(int(view["turn"]))
    return PNG + json.dumps({"turn": view["turn"], "names": list(names)}).encode()


def board_fingerprint(view: Mapping[str, Any], names: Sequence[str]) -> str:
    return f"turn-{view['turn']}"
