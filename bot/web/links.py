"""Links to the game pages, for the Discord side: none at all unless the web server is on."""

from __future__ import annotations

from dataclasses import replace

from ..settings import Settings
from ..ui.specs import ButtonSpec, MessageSpec

REPLAY_LABEL = "Replay this game"
MAX_ROWS = 5
"""Discord's limit of component rows per message."""


def game_url(settings: Settings, token: str | None) -> str | None:
    """The page of the game with this token, or None when there are no pages."""
    if not settings.web_enabled or not token:
        return None
    return f"{settings.web_root()}/games/{token}"


def with_replay_link(spec: MessageSpec, url: str | None) -> MessageSpec:
    """A finished game's board with a link button to its replay (unchanged without a URL)."""
    if url is None or len(spec.rows) >= MAX_ROWS:
        return spec
    button = ButtonSpec(REPLAY_LABEL, url=url, emoji="🔁")
    return replace(spec, rows=(*spec.rows, (button,)))
