"""Any moment of any game, rebuilt from its seed and action log and shown as the public sees it.

A ``Replay`` replays a game's log once, keeping each move's public log lines and a copy of the
engine every few steps; the position after ``k`` moves is then the nearest earlier copy plus a
few moves. Nothing but ``view(None)``, the seat names and the presenters' public boards and log
lines leaves this module: the snapshots (which hold every secret) stay in memory.

``Replays`` keeps the replays of the games being watched (least recently used go first) and
brings a live one up to date when the host says it changed, reading only its new moves.
"""

from __future__ import annotations

import asyncio
import bisect
import copy
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import GAMES, SYSTEM, Engine

from ..host.table import Outcome, Table
from ..standings import final_result
from ..store import ActionRecord, GameRecord, SeatRecord, Store
from ..ui.lobby import lobby_message
from ..ui.presenter import playable, presenter_for
from ..ui.public_log import LOG_LINES
from .html import boards_html, lines_html, message_html, view_html

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 32
"""Steps between two kept engines (at first; doubled whenever a game keeps too many)."""
MAX_SNAPSHOTS = 64
"""Engines kept per game, so memory stays bounded however long a game is."""
MAX_GAMES = 16
"""Replays kept at once."""
MAX_FRAMES = 256
"""Rendered positions kept at once (across games)."""
RECHECK_SECONDS = 5.0
"""How old an unfinished game's replay may get without news from the host before the store is
asked again (the host normally says at once)."""
BOARD_LOG_LINES = LOG_LINES
"""Log lines a board sees, as ``PublicLog`` keeps them."""
TIMER = "⏰ Timer"


@dataclass(frozen=True)
class Move:
    """One action as the public saw it: who acted, the public log lines it produced (what the
    board's log showed) and the move in words for the move list (P-60)."""

    step: int
    who: str
    lines: tuple[str, ...]
    words: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "who": self.who, "html": lines_html(self.words)}


class Replay:
    """One game's history. Not thread-safe: the caller serialises ``extend`` and reads."""

    def __init__(
        self,
        record: GameRecord,
        seats: Sequence[SeatRecord],
        *,
        every: int = SNAPSHOT_EVERY,
        most: int = MAX_SNAPSHOTS,
    ) -> None:
        self.record = record
        self.seats = list(seats)
        self.engine_cls = GAMES[record.slug]
        self.presenter = presenter_for(record.slug)
        self.dedicated = playable(record.slug)
        self.every = every
        self.most = most
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.moves: list[Move] = []
        self._head: Engine | None = None
        self._kept: dict[int, Engine] = {}
        self._steps_kept: list[int] = []
        if record.players is not None:
            self._head = self.engine_cls.new(record.players, record.seed, record.options)
            self._keep(0)

    # -- facts ---------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self._head is not None

    @property
    def steps(self) -> int:
        return len(self.log)

    @property
    def title(self) -> str:
        return self.engine_cls.title

    def names(self) -> list[str]:
        if not self.started:
            return [s.name for s in self.seats]
        by_seat = {s.seat: s.name for s in self.seats if s.seat is not None}
        return [by_seat.get(i, f"Seat {i + 1}") for i in range(self.record.players or 0)]

    def kept_steps(self) -> list[int]:
        """The steps whose engines are kept (for tests of the memory bound)."""
        return list(self._steps_kept)

    # -- building ------------------------------------------------------------------------
    def extend(self, actions: Sequence[ActionRecord]) -> None:
        """Apply the next stored actions (their ``seq`` must follow on) and log what the public
        saw of each. Pure CPU work: a long game is rebuilt in a worker thread."""
        if self._head is None:
            raise ValueError(f"game {self.record.id} has not started: it has no moves")
        names = self.names()
        table = self._table(self._head)
        for record in actions:
            if record.seq != self.steps + 1:
                raise ValueError(f"game {self.record.id}: move {record.seq} after {self.steps}")
            engine = self._head
            before = engine.turn
            events = engine.apply(record.seat, record.action)
            view = table.view()  # this move's position: no later move can change it
            outcome = Outcome(
                view, record.seat, record.action, events, engine.is_over, before, engine.turn
            )
            lines = tuple(self.presenter.log_lines(view, outcome))
            words = tuple(self.presenter.move_lines(view, outcome))
            who = TIMER if record.seat == SYSTEM else names[record.seat]
            self.log.append((record.seat, record.action))
            self.moves.append(Move(self.steps, who, lines, lines if words == lines else words))
            if self.steps % self.every == 0:
                self._keep(self.steps)

    def _keep(self, step: int) -> None:
        assert self._head is not None
        self._kept[step] = copy.deepcopy(self._head)
        bisect.insort(self._steps_kept, step)
        if len(self._kept) > self.most:
            self.every *= 2
            for old in [s for s in self._steps_kept if s % self.every]:
                del self._kept[old]
            self._steps_kept = sorted(self._kept)

    def engine_at(self, step: int) -> Engine:
        """A fresh engine holding the position after the first ``step`` moves."""
        if self._head is None or not 0 <= step <= self.steps:
            raise IndexError(step)
        base = self._steps_kept[bisect.bisect_right(self._steps_kept, step) - 1]
        engine = copy.deepcopy(self._kept[base])
        for seat, action in self.log[base:step]:
            engine.apply(seat, action)
        return engine

    # -- what the page shows -------------------------------------------------------------
    def _table(self, engine: Engine | None) -> Table:
        """A table as the presenters expect one: the game's seats, this engine."""
        return Table(self.record, self.engine_cls, list(self.seats), engine=engine)

    def lines_before(self, step: int) -> list[str]:
        """The newest public log lines up to ``step`` (as many as a board shows)."""
        out: list[str] = []
        for move in reversed(self.moves[:step]):
            out[:0] = move.lines
            if len(out) >= BOARD_LOG_LINES:
                break
        return out[-BOARD_LOG_LINES:]

    def frame(self, step: int) -> dict[str, Any]:
        """The position after ``step`` moves as the public saw it."""
        engine = self.engine_at(step)
        names = self.names()
        view = engine.view(None)
        if self.dedicated:
            table = self._table(engine).view()
            board = boards_html(self.presenter.boards(table, self.lines_before(step)))
        else:
            board = view_html(view, names)
        result = None
        if engine.is_over:
            final = final_result(engine)
            scores, winners = final.scores, final.winners
            order = sorted(range(engine.players), key=lambda s: (s not in winners, -scores[s], s))
            result = [
                {"seat": s, "name": names[s], "score": scores[s], "winner": s in winners}
                for s in order
            ]
        return {
            "step": step,
            "over": engine.is_over,
            "view": view,
            "board": board,
            "result": result,
        }

    def lobby_html(self) -> str:
        return message_html(lobby_message(self._table(None).view()))

    def summary(self, since: int) -> dict[str, Any]:
        """The game as a whole and its moves after ``since``: what a page polls for."""
        return {
            "title": self.title,
            "slug": self.record.slug,
            "status": str(self.record.status),
            "live": self.record.status == "playing",
            "started": self.started,
            "players": self.names(),
            "steps": self.steps,
            "since": since,
            "moves": [m.to_json() for m in self.moves[since:]],
            "lobby": self.lobby_html() if self.record.status == "lobby" else None,
        }


@dataclass
class Watched:
    """A replay being watched, and the lock to hold while reading it (a refresh may be
    extending it in a worker thread meanwhile)."""

    token: str
    replay: Replay
    lock: asyncio.Lock
    checked: float
    stale: bool = False


class Replays:
    """The replays being watched, kept up to date. One per event loop (it holds asyncio locks)."""

    def __init__(
        self,
        store: Store,
        *,
        games: int = MAX_GAMES,
        frames: int = MAX_FRAMES,
        recheck: float = RECHECK_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.max_games = games
        self.max_frames = frames
        self.recheck = recheck
        self.monotonic = monotonic
        self._entries: OrderedDict[str, Watched] = OrderedDict()
        self._tokens: dict[int, str] = {}
        self._frames: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}

    def changed(self, game_id: int) -> None:
        """The host committed a change to this game: its replay reads the store next time."""
        token = self._tokens.get(game_id)
        entry = self._entries.get(token) if token is not None else None
        if entry is not None:
            entry.stale = True

    def cached(self, token: str) -> Replay | None:
        entry = self._entries.get(token)
        return None if entry is None else entry.replay

    async def get(self, token: str) -> Watched | None:
        """The game's replay, up to date; None if no game has this token."""
        entry = self._entries.get(token)
        if entry is None:
            loading = self._loading.setdefault(token, asyncio.Lock())
            async with loading:
                entry = self._entries.get(token)
                if entry is None:
                    entry = await self._load(token)
            self._loading.pop(token, None)
            if entry is None:
                return None
        self._entries.move_to_end(token)
        if entry.replay.record.is_unfinished and (
            entry.stale or self.monotonic() - entry.checked > self.recheck
        ):
            async with entry.lock:
                if entry.stale or self.monotonic() - entry.checked > self.recheck:
                    await self._refresh(entry)
        return entry

    async def _load(self, token: str) -> Watched | None:
        record = await self.store.game_by_web_token(token)
        if record is None or record.slug not in GAMES:
            return None
        replay = await self._build(record)
        entry = Watched(token, replay, asyncio.Lock(), self.monotonic())
        self._entries[token] = entry
        self._tokens[record.id] = token
        while len(self._entries) > self.max_games:
            old, dropped = self._entries.popitem(last=False)
            self._tokens.pop(dropped.replay.record.id, None)
            for key in [k for k in self._frames if k[0] == old]:
                del self._frames[key]
        return entry

    async def _build(self, record: GameRecord) -> Replay:
        replay = Replay(record, await self.store.seats(record.id))
        if replay.started:
            actions = await self.store.actions(record.id)
            if actions:
                await asyncio.to_thread(replay.extend, actions)
        return replay

    async def _refresh(self, entry: Watched) -> None:
        entry.stale = False
        entry.checked = self.monotonic()
        record = await self.store.game_by_web_token(entry.token)
        if record is None:  # gone from the store (deleted by hand): keep what was shown
            return
        replay = entry.replay
        if replay.started != (record.players is not None) or not replay.started:
            entry.replay = await self._build(record)  # a lobby (its seats change) or just started
            return
        actions = await self.store.actions_after(record.id, replay.steps)
        if actions:
            await asyncio.to_thread(replay.extend, actions)
        replay.record = record

    async def frame(self, watched: Watched, step: int) -> bytes:
        """The position after ``step`` moves as JSON (positions never change once played)."""
        key = (watched.token, step)
        cached = self._frames.get(key)
        if cached is not None:
            self._frames.move_to_end(key)
            return cached
        async with watched.lock:
            data = json.dumps(watched.replay.frame(step), ensure_ascii=False).encode()
        self._frames[key] = data
        while len(self._frames) > self.max_frames:
            self._frames.popitem(last=False)
        return data
