"""Links to the game pages, for the Discord side: none at all unless the web server is on."""

from __future__ import annotations

from dataclasses import replace

from ..settings import Settings
from ..ui.presenter import MAX_ROWS, with_button
from ..ui.specs import ButtonSpec, MessageSpec

REPLAY_LABEL = "Replay this game"


def game_url(settings: Settings, token: str | None) -> str | None:
    """The page of the game with this token, or None when there are no pages."""
    if not settings.web_enabled or not token:
        return None
    return f"{settings.web_root()}/games/{token}"


def with_replay_link(spec: MessageSpec, url: str | None) -> MessageSpec:
    """A finished game's board with a link button to its replay, beside the end buttons
    (Rematch) when their row has room (unchanged without a URL)."""
    if url is None:
        return spec
    button = ButtonSpec(REPLAY_LABEL, url=url, emoji="📺")
    last = spec.rows[-1] if spec.rows else None
    if isinstance(last, tuple) and len(last) < MAX_ROWS:
        return replace(spec, rows=(*spec.rows[:-1], (*last, button)))
    return with_button(spec, button)
