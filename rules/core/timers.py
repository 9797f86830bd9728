"""What an engine declares of the timers it asks the host for (DESIGN.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

TimerKind = Literal["decision", "rule"]
"""``decision``: a player's own clock for one choice, which a time control (fast, slow,
turn-based) scales (P-71); ``rule``: a real-time rule or a platform cap, kept as declared
whatever the time control."""
TIMER_KINDS: Final[tuple[TimerKind, ...]] = get_args(TimerKind)


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
    kind: TimerKind = "rule"
    """Whether a time control scales it (P-71); a timer not said to be a decision clock keeps
    its declared time, as a rulebook's own time would."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"timer name {self.name!r} must be a lower-case identifier")
        if self.seconds < 0:
            raise ValueError(f"timer {self.name!r} cannot last {self.seconds} s")
        if self.kind not in TIMER_KINDS:
            raise ValueError(f"timer {self.name!r}: kind {self.kind!r} is not one of {TIMER_KINDS}")
