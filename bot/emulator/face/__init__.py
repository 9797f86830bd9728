"""The emulator's face: a web page where a person plays as the emulator's members (a member
switcher, their channel, DMs and private replies, and a command box with completion)."""

from __future__ import annotations

from .server import Face

__all__ = ["Face"]
