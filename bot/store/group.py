"""Group commit, whatever the database: the actions that arrive while the previous group is
being written are committed together, and every caller is answered only after the COMMIT that
holds its action (P-34, P-56).

``GroupWriter`` owns the queue and the one writer task; a database's writer (``writer.py`` for a
SQLite file, ``pg_writer.py`` for PostgreSQL) only says how one group is written. An action
whose version compare-and-set fails is refused alone; the others in its group stand.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from .records import GameRecord, TimerSpec

#: Most actions one transaction takes: a burst larger than this is written in several.
GROUP_LIMIT = 256


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One applied action to commit (see ``Store.record_action``): the log entry and version
    always, the snapshot when ``snapshot_every`` actions have passed since the stored one, and
    the timers when ``timers`` is not None. ``game`` is the game as the caller holds it: its
    version is the one expected, and the record answered is it as the commit moved it."""

    game: GameRecord
    seat: int
    action: dict[str, Any]
    snapshot: dict[str, Any] | None
    timers: Sequence[TimerSpec] | None
    at: datetime
    snapshot_every: int

    @property
    def game_id(self) -> int:
        return self.game.id

    @property
    def expected_version(self) -> int:
        return self.game.version

    def committed(self, last_seq: int, snapshot_seq: int) -> GameRecord:
        """The game as this commit left it. Only the counters are read back: a commit whose
        version compare-and-set passed found the game as the caller holds it (every change
        moves the version), so the rest (its policy, options, …) need not be read again."""
        return replace(
            self.game,
            version=self.game.version + 1,
            updated_at=self.at,
            last_seq=last_seq,
            snapshot_seq=snapshot_seq,
            snapshot=self.snapshot,
        )


class ActionWriter(Protocol):
    """What the store needs of a writer: commit one action (grouped as the writer likes),
    answering only once it is durable, and close."""

    groups: int
    inline_commits: int

    async def record(self, write: ActionWrite) -> GameRecord: ...

    async def close(self) -> None: ...


Answer = GameRecord | Exception
Pending = tuple[ActionWrite, "asyncio.Future[GameRecord]"]


class GroupWriter(ABC):
    """The queue and the writer task; subclasses write one group (``_write``)."""

    def __init__(self) -> None:
        self._pending: list[Pending] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.groups = 0
        """Transactions committed (the benches report actions per transaction)."""
        self.inline_commits = 0
        """Of them, those committed on the event loop rather than in a thread of the writer's
        (``writer.py``, while a COMMIT costs less than its budget)."""

    async def record(self, write: ActionWrite) -> GameRecord:
        """Queue the action and wait until the group holding it is committed (or refused)."""
        if self._closed:
            raise RuntimeError("the writer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[GameRecord] = loop.create_future()
        self._pending.append((write, future))
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run(), name=f"{type(self).__name__}")
        assert self._wake is not None
        self._wake.set()
        return await future

    def _take(self) -> list[Pending]:
        """The next group: the oldest queued actions, at most ``_group_limit()``."""
        limit = self._group_limit()
        group = self._pending[:limit]
        del self._pending[:limit]
        return group

    def _group_limit(self) -> int:
        """The most actions the next group may hold."""
        return GROUP_LIMIT

    @abstractmethod
    async def _write(self, group: list[Pending]) -> None:
        """Commit ``group`` and answer each of its callers (``answer``); raising fails them all."""

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                group = self._take()
                try:
                    await self._write(group)
                except BaseException as exc:  # cancelled with the loop, or the connection died
                    failed = exc if isinstance(exc, Exception) else RuntimeError("closed")
                    answer(group, [failed] * len(group))
                    if not isinstance(exc, Exception):
                        raise
                    continue
                self.groups += 1
            if self._closed:
                return

    async def _drain(self) -> None:
        """Refuse new actions, and write what is queued."""
        self._closed = True
        if self._task is not None and self._wake is not None:
            self._wake.set()  # the task writes what is queued, then ends
            await asyncio.gather(self._task, return_exceptions=True)


def answer(group: Sequence[Pending], answers: Sequence[Answer]) -> None:
    """On the event loop: each caller gets its record or its refusal."""
    for (_, future), given in zip(group, answers, strict=True):
        if future.done():  # the caller gave up waiting; the write stands
            continue
        if isinstance(given, Exception):
            future.set_exception(given)
        else:
            future.set_result(given)


def snapshot_due(seq: int, snapshot_seq: int, every: int, *, ending: bool = False) -> bool:
    """Whether the action numbered ``seq`` stores the game's snapshot (P-33): ``every`` actions
    after the stored one, and the game's last action. The one place the policy lives: the host
    asks it before making a snapshot, every write path before storing one."""
    return ending or seq - snapshot_seq >= every
