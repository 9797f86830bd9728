"""When a game's turn pings go out (P-46): a pure policy, no Discord in it, so every rule about
who is pinged and when is tested on its own with a moved clock.

A *wait* of a seat begins when the game starts waiting on it, and ends when the seat acts or the
game stops waiting on it (a seat that acts and is still waited on begins a new wait). A seat is
due a ping once per wait, ``after`` seconds into it; one that acts sooner is never pinged. A game
has at most one ping message: a new ping replaces it (the old one is deleted first), and it is
deleted once the game waits on none of the seats it names (P-28).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class Wait:
    """One wait of one seat: since when, and whether its ping was sent (or skipped)."""

    since: datetime
    pinged: bool = False


@dataclass(frozen=True, slots=True)
class PingPlan:
    """What to do now: delete ``delete`` (message ids), then mention ``ping`` in one new
    message, which replaces ``replaces`` (deleted first: ``PingPolicy.sending``). ``waits``
    holds each pinged seat's wait, so a wait that ended meanwhile (the seat acted while the
    message was being sent) is not marked pinged by mistake."""

    delete: tuple[int, ...] = ()
    ping: tuple[int, ...] = ()
    waits: tuple[Wait, ...] = ()
    replaces: int | None = None


@dataclass
class PingPolicy:
    """One game's waits and its one ping message. ``after``: seconds a seat is waited on before
    it is pinged (``PING_AFTER`` times ``TIMER_SCALE``; 0 pings at once)."""

    after: float
    waits: dict[int, Wait] = field(default_factory=dict)
    message: int | None = None
    """The game's one live ping message."""
    named: frozenset[int] = frozenset()
    """The seats ``message`` mentions."""
    doomed: list[int] = field(default_factory=list)
    """Ping messages to delete (replaced, or naming nobody the game waits on)."""

    def observe(self, waiting: Iterable[int], acted: Iterable[int], now: datetime) -> None:
        """After a committed change: the seats the game now waits on (members only), and those
        that acted in the change. A seat's wait ends when it acts or is no longer waited on."""
        waiting, acted = frozenset(waiting), frozenset(acted)
        for seat in list(self.waits):
            if seat not in waiting or seat in acted:
                del self.waits[seat]
        for seat in waiting:
            self.waits.setdefault(seat, Wait(now))

    def restore(
        self, waiting: Iterable[int], since: datetime, *, pinged: bool, message: int | None
    ) -> None:
        """After a restart: every wait is timed from ``since`` (when the game last changed), and
        ``pinged`` says its ping already went (a ping message newer than that change exists),
        so a restart neither pings again at once nor forgets a ping still due."""
        self.waits = {seat: Wait(since, pinged) for seat in waiting}
        self.message = message
        self.named = frozenset(self.waits) if pinged and message is not None else frozenset()

    def due(self, now: datetime) -> list[int]:
        """Seats whose wait has lasted ``after`` seconds and that were not pinged in it."""
        return sorted(s for s, w in self.waits.items() if not w.pinged and self._at(w) <= now)

    def next_due(self) -> datetime | None:
        """When the next seat falls due (``None``: nobody will without a change)."""
        return min((self._at(w) for w in self.waits.values() if not w.pinged), default=None)

    def plan(self, now: datetime) -> PingPlan:
        """The ping due now, and the messages to delete: the live one once the game waits on
        none of the seats it names (a new ping replaces it only if one is sent: ``sending``)."""
        due = self.due(now)
        if self.message is not None and not self.named & set(self.waits):
            self.doomed.append(self.message)
            self.message, self.named = None, frozenset()
        waits = tuple(self.waits[s] for s in due)
        replaces = self.message if due else None
        return PingPlan(tuple(self.doomed), tuple(due), waits, replaces)

    def sending(self, plan: PingPlan) -> None:
        """The plan's ping is about to be sent (someone due wants it): the live ping it
        replaces is deleted first, so the game never shows two."""
        if plan.replaces is not None and self.message == plan.replaces:
            self.doomed.append(self.message)
            self.message, self.named = None, frozenset()

    def deleted(self, message_id: int) -> None:
        """A doomed message is gone (or was already)."""
        if message_id in self.doomed:
            self.doomed.remove(message_id)

    def pinged(self, plan: PingPlan, named: Iterable[int], message: int | None) -> None:
        """The plan's ping went out as ``message`` naming ``named`` (``None``: nobody wanted
        it, pings off, and the live ping stays): each planned seat still in the same wait is
        done for that wait."""
        for seat, wait in zip(plan.ping, plan.waits, strict=True):
            if self.waits.get(seat) == wait:
                self.waits[seat] = Wait(wait.since, pinged=True)
        if message is not None:
            if self.message is not None:
                self.doomed.append(self.message)
            self.message, self.named = message, frozenset(named)

    def clear(self) -> None:
        """The game is over: no waits, and its ping goes."""
        self.waits.clear()
        if self.message is not None:
            self.doomed.append(self.message)
            self.message, self.named = None, frozenset()

    def _at(self, wait: Wait) -> datetime:
        return wait.since + timedelta(seconds=self.after)
