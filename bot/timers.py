"""The start's check of the timers: what the settings set against what the games declare.

Engines declare their timers (``Engine.timers``: a name and its default seconds) and name them in
``Deadline.setting`` and ``pacing``; the settings hold one mapping of the ones this bot sets
(``TIMERS``). Checked once the games are loaded, so a misspelt name stops the bot at start in
one line instead of showing when (or never, if) the timer fires.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from rules.core import Engine, Timer

from .settings import Settings, SettingsError

log = logging.getLogger(__name__)


def declared(engines: Iterable[type[Engine]]) -> dict[str, Timer]:
    """Every engine's timers by name; an engine naming a timer it does not declare, or two
    engines declaring one name with different defaults, is an error of the game's code."""
    found: dict[str, Timer] = {}
    for cls in engines:
        own = {timer.name for timer in cls.timers}
        missing = sorted(set(cls.pacing.values()) - own)
        if missing:
            raise SettingsError(
                f"{cls.title} paces with timer {', '.join(missing)} but does not declare it "
                "(Engine.timers)."
            )
        for timer in cls.timers:
            other = found.setdefault(timer.name, timer)
            if other.seconds != timer.seconds:
                raise SettingsError(
                    f"Timer {timer.name!r} is declared twice, with {other.seconds} s and "
                    f"{timer.seconds} s."
                )
    return found


def check_timers(settings: Settings, engines: Iterable[type[Engine]]) -> dict[str, float]:
    """Every declared timer's seconds as this bot runs it; a set name no game declares stops
    the start (``SettingsError``, one line naming it and the known ones)."""
    timers = declared(engines)
    values = settings.timer_values()
    unknown = sorted(set(values) - set(timers))
    if unknown:
        names = ", ".join(f"TIMERS__{name.upper()}" for name in unknown)
        known = ", ".join(sorted(timers)) or "none"
        raise SettingsError(f"{names}: no game has such a timer (the timers are: {known}).")
    return {name: values.get(name, timer.seconds) for name, timer in sorted(timers.items())}


def warn_old_names(settings: Settings) -> None:
    """One log line if the bot is set with the timer names of before TIMERS (P-49)."""
    old = settings.old_timer_names()
    if old:
        new = ", ".join(f"TIMERS__{name}" for name in old)
        log.warning("%s: old timer names (they still apply); write them as %s", ", ".join(old), new)
