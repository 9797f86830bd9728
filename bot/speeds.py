"""Time controls (issue #24 item 2, P-71): what each preset does to a game's clocks.

A game's control is chosen when its lobby opens and stored with it (``games.time_control``),
so a running game never changes under its players. Only *decision clocks* scale (a timer its
engine declares with ``kind="decision"``: a player's own clock for one choice); real-time rules
and platform caps (Bugs & Co's countdowns and cap, Bag of Bugs' reveal pacing and idle Drawer)
keep their declared time under every preset. ``normal`` is the bot's timers as they are
(``TIMERS``, else as declared). ``TIMER_SCALE`` (tests) still multiplies everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from rules.core import Engine, Timer

from .host.policy import SPEEDS, Speed
from .settings import Settings

HOUR: Final = 3600.0
DAY: Final = 24 * HOUR


@dataclass(frozen=True)
class TimeControl:
    """One preset: how it sets each decision clock, when a waiting member is reminded, and
    whether a clock that runs out counts towards a stand-in (P-31)."""

    speed: Speed
    title: str
    factor: float = 1.0
    """Each decision clock times this (``per_decision`` overrides it)."""
    per_decision: float | None = None
    """Every decision clock lasts this long, whatever the game declares (turn-based)."""
    reminders: tuple[float, ...] | None = None
    """Seconds into a wait at which the member is pinged; None: ``PING_AFTER`` (once)."""
    strikes: bool = True
    """Whether a member's clock running out counts towards ``AFK_LIMIT`` (P-31)."""
    rests: bool = False
    """Whether a game waiting on its members is unloaded from memory between moves (P-74)."""

    def scales(self, timer: Timer) -> bool:
        return timer.kind == "decision"

    def seconds(self, timer: Timer, base: float) -> float:
        """A timer's length under this control, from its length at ``normal`` (``base``)."""
        if not self.scales(timer):
            return base
        if self.per_decision is not None:
            return self.per_decision
        return base * self.factor


CONTROLS: Final[dict[Speed, TimeControl]] = {
    control.speed: control
    for control in (
        TimeControl("fast", "Fast", factor=0.5),
        TimeControl("normal", "Normal"),
        TimeControl("slow", "Slow", factor=3.0),
        TimeControl(
            "turn-based",
            "Turn-based",
            per_decision=DAY,
            reminders=(HOUR, 12 * HOUR),
            strikes=False,
            rests=True,
        ),
    )
}
assert tuple(CONTROLS) == SPEEDS, "one preset per Speed, in their order"

DEFAULT_SPEED: Final[Speed] = "normal"


def control_of(speed: str | None) -> TimeControl:
    """A stored game's control; a game stored before time controls (None) is ``normal``."""
    if speed is None:
        return CONTROLS[DEFAULT_SPEED]
    found = CONTROLS.get(speed)  # type: ignore[call-overload]
    if found is None:
        raise ValueError(f"unknown time control {speed!r}")
    return found


def speed_of(text: str) -> Speed | None:
    """A preset named by a member (a command's value), or None if it is not one."""
    for speed in SPEEDS:
        if speed == text:
            return speed
    return None


def timer_of(engine_cls: type[Engine], setting: str) -> Timer | None:
    return next((t for t in engine_cls.timers if t.name == setting), None)


def deadline_seconds(
    settings: Settings,
    engine_cls: type[Engine],
    speed: str | None,
    setting: str | None,
    default: float | None,
) -> float:
    """When a deadline falls due under the game's control: its timer as the bot sets it
    (``TIMERS``), scaled by the control if it is a decision clock, times ``TIMER_SCALE``."""
    base = settings.timer_seconds(setting, default)
    timer = None if setting is None else timer_of(engine_cls, setting)
    seconds = base if timer is None else control_of(speed).seconds(timer, base)
    return seconds * settings.timer_scale


@dataclass(frozen=True)
class ClockNumbers:
    """One timer of a game under one control, for the lobby, status, rules and web page."""

    timer: Timer
    seconds: float
    scaled: bool


def numbers(settings: Settings, engine_cls: type[Engine], speed: str | None) -> list[ClockNumbers]:
    """A game's timers under a control, decision clocks first (unscaled by ``TIMER_SCALE``:
    these are the numbers players are told)."""
    control = control_of(speed)
    found = [
        ClockNumbers(
            timer,
            control.seconds(timer, settings.timer_seconds(timer.name, None)),
            control.scales(timer),
        )
        for timer in engine_cls.timers
    ]
    return sorted(found, key=lambda n: not n.scaled)


def reminders(ping_after: float, speed: str | None) -> tuple[float, ...]:
    """Seconds into a wait at which a member is pinged under a control (before TIMER_SCALE):
    the control's own reminders, else once, ``ping_after`` (the server's or the bot's)."""
    control = control_of(speed)
    return (ping_after,) if control.reminders is None else control.reminders


def allowed(speeds: Iterable[Speed]) -> list[Speed]:
    """The presets in their order, of those given."""
    wanted = set(speeds)
    return [s for s in SPEEDS if s in wanted]
