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
    """One wait of one seat: since when, and how many of its reminders were sent (or
    skipped); ``pinged`` once the first was."""

    since: datetime
    pinged: bool = False
    sent: int = 0
    """Reminders of this wait done (a turn-based game has two, P-71; others one)."""

    def done(self) -> int:
        return max(self.sent, 1 if self.pinged else 0)


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
    at: datetime | None = None
    """When the plan was made: every reminder due by then is done with its ping."""


@dataclass
class PingPolicy:
    """One game's waits and its one ping message. ``after``: seconds a seat is waited on before
    it is pinged (``PING_AFTER`` times ``TIMER_SCALE``; 0 pings at once)."""

    after: float
    again: tuple[float, ...] = ()
    """Later reminders in the same wait, in seconds from its start (turn-based: 12 h after
    the 1 h one, P-71), each times ``TIMER_SCALE`` like ``after``."""
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
        self,
        waiting: Iterable[int],
        since: datetime,
        *,
        pinged: bool,
        message: int | None,
        pinged_at: datetime | None = None,
    ) -> None:
        """After a restart: every wait is timed from ``since`` (when the game last changed), and
        ``pinged`` says its ping already went (a ping message newer than that change exists,
        sent at ``pinged_at``: the reminders due by then are done), so a restart neither pings
        again at once nor forgets a ping still due."""
        sent = 0
        if pinged:
            moments = self._moments()
            sent = max(1, sum(1 for m in moments if pinged_at and since + _s(m) <= pinged_at))
        self.waits = {seat: Wait(since, pinged, sent) for seat in waiting}
        self.message = message
        self.named = frozenset(self.waits) if pinged and message is not None else frozenset()

    def due(self, now: datetime) -> list[int]:
        """Seats whose wait has lasted to its next reminder (``after``, then each of
        ``again``) that has not gone yet."""
        return sorted(s for s, w in self.waits.items() if (at := self._at(w)) and at <= now)

    def next_due(self) -> datetime | None:
        """When the next seat falls due (``None``: nobody will without a change)."""
        return min((at for w in self.waits.values() if (at := self._at(w))), default=None)

    def plan(self, now: datetime) -> PingPlan:
        """The ping due now, and the messages to delete: the live one once the game waits on
        none of the seats it names (a new ping replaces it only if one is sent: ``sending``)."""
        due = self.due(now)
        if self.message is not None and not self.named & set(self.waits):
            self.doomed.append(self.message)
            self.message, self.named = None, frozenset()
        waits = tuple(self.waits[s] for s in due)
        replaces = self.message if due else None
        return PingPlan(tuple(self.doomed), tuple(due), waits, replaces, now)

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
        now = plan.at
        for seat, wait in zip(plan.ping, plan.waits, strict=True):
            if self.waits.get(seat) == wait:
                # Every reminder already due is done with this one (a restart may find two).
                passed = sum(1 for m in self._moments() if now and wait.since + _s(m) <= now)
                self.waits[seat] = Wait(wait.since, True, max(wait.done() + 1, passed))
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

    def _moments(self) -> tuple[float, ...]:
        return (self.after, *self.again)

    def _at(self, wait: Wait) -> datetime | None:
        """When the wait's next reminder falls due; None once all went."""
        moments = self._moments()
        done = wait.done()
        return wait.since + _s(moments[done]) if done < len(moments) else None


def _s(seconds: float) -> timedelta:
    return timedelta(seconds=seconds)
