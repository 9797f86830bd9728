"""What an engine declares of the timers it asks the host for (DESIGN.md §2)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timer:
    """A host timer an engine uses by name: a ``Deadline.setting`` or a ``pacing`` value.

    ``seconds`` is its length unless the host's settings say otherwise (``TIMERS``), so the
    default lives with the game that uses it and a name the bot does not know fails at start.
    """

    name: str
    seconds: float
    about: str
    """What it times, for the settings' documentation and error messages."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"timer name {self.name!r} must be a lower-case identifier")
        if self.seconds < 0:
            raise ValueError(f"timer {self.name!r} cannot last {self.seconds} s")
