"""A game's time control in words (P-71): the lobby, `/bugs status`, How to play and the web
page show the preset's name and its numbers, read from ``bot/speeds.py`` and the settings."""

from __future__ import annotations

from typing import Protocol

from rules.core import Engine, get_game

from ..host.policy import SPEEDS
from ..settings import Settings
from ..speeds import control_of, numbers, reminders
from ..store.records import GameRecord


class Opened(Protocol):
    """A table or its view: what was opened, and with which control."""

    @property
    def slug(self) -> str: ...

    @property
    def game(self) -> GameRecord: ...


def duration(seconds: float) -> str:
    """``45 s``, ``3 min``, ``4.5 min``, ``1 h``, ``1 day``: as a member would say it."""
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    if seconds >= 120:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


def clock_words(settings: Settings, engine_cls: type[Engine], speed: str | None) -> str:
    """One game's control as it is played: its preset, each decision clock, the real-time
    rules it keeps, the reminders, and whether a missed clock counts towards a stand-in."""
    control = control_of(speed)
    found = numbers(settings, engine_cls, speed)
    clocks = [f"{duration(n.seconds)} — {_about(n.timer.about)}" for n in found if n.scaled]
    kept = [f"{duration(n.seconds)} — {_about(n.timer.about)}" for n in found if not n.scaled]
    lines = [f"⏱️ **{control.title}**"]
    lines += [f"• {line}" for line in clocks] or ["• no decision clock: a real-time game"]
    if kept:
        lines.append("• as the rules say, whatever the speed: " + "; ".join(kept))
    moments = reminders(settings.ping_after, speed)
    said = " and ".join(duration(s) for s in moments)
    lines.append(
        f"• a reminder ping after {said} of waiting"
        if any(moments)
        else "• a ping as soon as the game waits on you"
    )
    if not control.strikes:
        lines.append("• a clock running out plays a default move; nobody is replaced by a bot")
    return "\n".join(lines)


def table_clocks(settings: Settings, table: Opened) -> str:
    """A table's own control in words (what it was opened with)."""
    return clock_words(settings, get_game(table.slug), table.game.time_control)


def speeds_words(settings: Settings, engine_cls: type[Engine]) -> str:
    """Every preset of a game in one line each (How to play): the opener picks one with
    `/bugs new <game> speed:`."""
    lines = []
    for speed in SPEEDS:
        scaled = [n for n in numbers(settings, engine_cls, speed) if n.scaled]
        each = ", ".join(f"{duration(n.seconds)} {_short(n.timer.about)}" for n in scaled)
        lines.append(f"**{control_of(speed).title}**: {each or 'real time, as the rules say'}")
    return "\n".join(lines)


def _about(about: str) -> str:
    """A timer's description without its game's name and rule code (for players)."""
    text = about.split(": ", 1)[-1]
    return text.split(" (", 1)[0]


def _short(about: str) -> str:
    return _about(about).split(",", 1)[0]
