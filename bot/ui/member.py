"""What `/bugs settings` says: a member's own settings, in words."""

from __future__ import annotations

from ..store.records import MemberSettings


def settings_text(settings: MemberSettings, *, changed: bool, server_default: bool = True) -> str:
    """The answer to `/bugs settings` (private): the settings now, and how to change them.
    A member who never chose has this server's default (P-66)."""
    if settings.pings_on(server_default):
        pings = (
            "🔔 **Turn pings: on.** When a game waits on you (your turn, your choice, a grab "
            "window), I mention you once in its channel. `/bugs settings pings:False` turns "
            "them off."
        )
    else:
        pings = (
            "🔕 **Turn pings: off.** Boards still name you when a game waits on you, but I do "
            "not mention you. `/bugs settings pings:True` turns them back on."
        )
    head = "Saved. " if changed else ""
    if not settings.chosen:
        return f"{head}{pings}\nThat is this server's default: you have not chosen yet."
    return f"{head}{pings}\nThese settings are yours in every server and game."
