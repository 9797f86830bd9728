"""Discord's global request limit, kept by the bot itself (issue #21, docs/rulings.md P-47).

Discord takes about 50 requests per second with the bot token, over all its shards and
processes; interaction callbacks and the interaction token's webhook routes are exempt. One
request too many is a global 429, which stops every request of the bot for a while, and a bot
answered 401, 403 or 429 10,000 times in 10 minutes has its IP banned for an hour.

So every request the bot sends is looked at on its way out (an aiohttp ``TraceConfig`` on
discord.py's HTTP session, where discord.py's own retries pass too): a global one waits, in
turn, for a place in a sliding window of this process's share of ``GLOBAL_RATE_LIMIT``
(``Budget``). A place counts from the moment the answer arrives, which is never earlier than
Discord saw the request, so the window the bot keeps is at least as long on Discord's side.
A game's pump renders and sends one pass at a time, so however long its requests wait for
their places, a game has at most one edit of each message waiting, and the changes made
meanwhile become the next pass's one edit.

Places are also spread out, by a token bucket under the window: ``GLOBAL_BURST`` places may
go at once, and the bucket refills at the window's even rate (``limit / window``), so under
overload a place is given every ``window / limit`` seconds (a waiter woken late catches up,
by the burst at most). A window that freed all at once used to let some 40 board and DM
edits go within the same quarter of a second, once a second at 200 games: drawing and
sending them held the event loop, and the clicks that came meanwhile were answered 7-20 ms
late at the median, against 1.5 ms in the quarters between.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Protocol

import aiohttp
import discord
import yarl

from ..settings import Settings
from .pacing import MARGIN
from .written import note_written

log = logging.getLogger(__name__)

WINDOW = 1.0
"""Discord's global window: ``GLOBAL_RATE_LIMIT`` requests per second."""
GLOBAL_BURST = 5
"""Places given at once in a window; the later ones are spread (see above)."""
REFUSED = frozenset({401, 403, 429})
"""The answers Discord counts towards its ban of an IP (a 429 of a shared bucket excepted)."""
REFUSAL_WINDOW = 600.0
REFUSAL_WARNING = 100
"""Refusals in ``REFUSAL_WINDOW`` seconds past which one warning is logged (Discord bans the
IP at 10,000)."""

_EXEMPT = re.compile(r"^/(?:interactions/[^/]+/[^/]+/callback|webhooks/[^/]+/[^/]+)(?:/|$)")


def exempt(path: str) -> bool:
    """A route through an interaction's token (its callback, its follow-ups and their edits),
    which Discord leaves out of the global limit; ``path`` is relative to the API base."""
    return _EXEMPT.match(path) is not None


@dataclass(frozen=True)
class Budget:
    """At most ``limit`` global requests in any ``window`` seconds, for this process."""

    limit: int
    window: float = WINDOW

    @classmethod
    def share(cls, rate: int, shards: int, total: int) -> Budget:
        """A process running ``shards`` of ``total`` shards takes ``rate * shards / total``
        requests per second (rounded down, so the processes together never exceed ``rate``);
        less than one per second becomes one request per longer window."""
        per_window = rate * shards // total
        if per_window >= 1:
            return cls(per_window, WINDOW)
        return cls(1, WINDOW * total / (rate * shards))

    @classmethod
    def of(cls, settings: Settings) -> Budget | None:
        """This process's budget (``None``: ``GLOBAL_RATE_LIMIT`` is 0, no limit kept)."""
        rate = settings.global_rate_limit
        if rate <= 0:
            return None
        shards = settings.shards()
        if shards is None or settings.shard_count is None:
            return cls(rate, WINDOW)
        return cls.share(rate, len(shards), settings.shard_count)


class GlobalSlot:
    """One request's place in the window: held while the request is on its way, then counted
    from its answer (``done``), or given back if it never went out (``drop``)."""

    __slots__ = ("_limiter", "_open")

    def __init__(self, limiter: GlobalLimiter) -> None:
        self._limiter = limiter
        self._open = True

    def done(self) -> None:
        if self._open:
            self._open = False
            self._limiter._settle(counted=True)

    def drop(self) -> None:
        if self._open:
            self._open = False
            self._limiter._settle(counted=False)


class GlobalLimiter:
    """A sliding window of the global requests this process sent, and the queue of those
    waiting for a place in it (first come, first served). ``budget`` ``None``: no limit."""

    def __init__(
        self,
        budget: Budget | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        burst: int = GLOBAL_BURST,
    ) -> None:
        self.budget = budget
        self.window = (budget.window if budget else WINDOW) * (1 + MARGIN)
        self.burst = max(1, burst)
        self.rate = budget.limit / self.window if budget else 0.0
        """Places per second the bucket refills at: the window's even rate."""
        self.clock, self._sleep = clock, sleep
        self._tokens = float(self.burst)
        self._refilled_at = clock()
        self._pending = 0
        self._answered: deque[float] = deque()
        self._queue: deque[asyncio.Future[None]] = deque()
        self._changed = asyncio.Event()
        self.sent = 0
        """Global requests counted so far."""
        self.waited = 0
        """How many of them had to wait for a place (the bot's own demand exceeded its share)."""

    @property
    def enabled(self) -> bool:
        return self.budget is not None

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def _live(self) -> int:
        now = self.clock()
        while self._answered and now - self._answered[0] >= self.window:
            self._answered.popleft()
        return self._pending + len(self._answered)

    def room(self) -> int:
        """Places free now."""
        if self.budget is None:
            return 1
        return max(0, self.budget.limit - self._live())

    def delay(self) -> float | None:
        """Seconds until a place may be given (0: now; ``None``: only a request still on its
        way can free one, when its answer arrives)."""
        if self.budget is None:
            return 0.0
        live = self._live()
        if live < self.budget.limit:
            tokens = self._refill()
            return 0.0 if tokens >= 1 else (1 - tokens) / self.rate
        expiring = live - self.budget.limit  # this many answered places must go first
        if expiring >= len(self._answered):
            return None
        return max(0.0, self._answered[expiring] + self.window - self.clock())

    def take(self) -> GlobalSlot | None:
        """A place now, or ``None`` (it does not jump the queue of those waiting)."""
        if self._queue or self.delay() != 0:
            return None
        return self._grant()

    def _grant(self) -> GlobalSlot:
        self._pending += 1
        if self.budget is not None:
            self._tokens = self._refill() - 1
        return GlobalSlot(self)

    def _refill(self) -> float:
        """The bucket's tokens now (at most ``burst``)."""
        now = self.clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled_at) * self.rate)
        self._refilled_at = now
        return self._tokens

    def _settle(self, *, counted: bool) -> None:
        self._pending -= 1
        if counted:
            self._answered.append(self.clock())
            self.sent += 1
        elif self.budget is not None:  # never sent: its token goes back too
            self._tokens = min(float(self.burst), self._refill() + 1)
        self._changed.set()

    async def acquire(self) -> GlobalSlot:
        """A place in the window, waited for in turn."""
        slot = self.take()
        if slot is not None:
            return slot
        self.waited += 1
        ticket = asyncio.get_running_loop().create_future()
        self._queue.append(ticket)
        if self._queue[0] is ticket:
            ticket.set_result(None)
        try:
            await ticket  # until every earlier waiter has its place
            while (delay := self.delay()) != 0:
                await self._until_changed(delay)
            return self._grant()
        finally:
            self._queue.remove(ticket)
            if self._queue and not self._queue[0].done():
                self._queue[0].set_result(None)

    async def _until_changed(self, delay: float | None) -> None:
        """Until ``delay`` has passed or a request's answer arrived, whichever comes first."""
        self._changed.clear()
        waits: list[asyncio.Future[object]] = [asyncio.ensure_future(self._changed.wait())]
        if delay is not None:
            waits.append(asyncio.ensure_future(self._sleep(delay)))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def admit(self) -> GlobalSlot | None:
        """The place for a global request on its way out, waited for in turn. Only a request
        holds a place, from when it goes out until its answer: a place held by anything that
        may itself wait (a pump's whole pass, as the bot once did) can leave every place held
        while the requests that would free them wait for one (P-47)."""
        return await self.acquire() if self.enabled else None


class RefusalCounter:
    """401, 403 and 429 answers of the last 10 minutes (a 429 of a shared bucket is not the
    bot's doing and Discord does not count it): one warning once they pass 100, again only
    after they fell below and pass it once more."""

    def __init__(
        self,
        *,
        limit: int = REFUSAL_WARNING,
        window: float = REFUSAL_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._seen: deque[tuple[float, int]] = deque()
        self._warned = False

    def count(self) -> int:
        now = self.clock()
        while self._seen and now - self._seen[0][0] >= self.window:
            self._seen.popleft()
        if self._warned and len(self._seen) < self.limit:
            self._warned = False
        return len(self._seen)

    def note(self, status: int, scope: str | None = None) -> None:
        if status not in REFUSED or (status == 429 and scope == "shared"):
            return
        self.count()
        self._seen.append((self.clock(), status))
        if len(self._seen) > self.limit and not self._warned:
            self._warned = True
            by_status = Counter(s for _, s in self._seen)
            log.warning(
                "Discord refused %d requests in the last %d minutes (%s); it bans the bot's "
                "IP for an hour at 10,000",
                len(self._seen),
                round(self.window / 60),
                ", ".join(f"{n} × {s}" for s, n in sorted(by_status.items())),
            )


def _rest_path(url: yarl.URL) -> str | None:
    """``url``'s path under discord.py's API base, or ``None`` (the gateway, anything else)."""
    base = yarl.URL(discord.http.Route.BASE)
    if (url.host, url.port) != (base.host, base.port):
        return None
    prefix = base.path.rstrip("/")
    if not url.path.startswith(prefix + "/"):
        return None
    return url.path[len(prefix) :]


class RequestObserver(Protocol):
    """Who else hears of every REST answer (the metrics)."""

    def request_done(self, path: str, exempt: bool, status: int, scope: str | None) -> None: ...


def transport_trace(
    limiter: GlobalLimiter, refusals: RefusalCounter, observer: RequestObserver | None = None
) -> aiohttp.TraceConfig:
    """The hooks on discord.py's HTTP session: every REST request with the bot token waits for
    its place in ``limiter`` (exempt routes do not), and every answer is shown to
    ``refusals`` (and ``observer``)."""

    async def on_start(
        _session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        path = _rest_path(params.url)
        ctx.rest = path is not None
        ctx.path = path
        ctx.exempt = path is not None and exempt(path)
        ctx.slot = None
        if path is not None and not ctx.exempt:
            ctx.slot = await limiter.admit()

    async def on_end(
        _session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if ctx.slot is not None:
            ctx.slot.done()
        if ctx.rest:
            response = params.response
            scope = response.headers.get("X-RateLimit-Scope")
            refusals.note(response.status, scope)
            if observer is not None:
                observer.request_done(ctx.path, ctx.exempt, response.status, scope)

    async def on_error(
        _session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        _params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        if ctx.slot is not None:  # it may have reached Discord: it counts
            ctx.slot.done()

    async def on_new_connection(
        _session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        _params: aiohttp.TraceConnectionCreateEndParams,
    ) -> None:
        ctx.new_connection = True

    async def on_chunk_sent(
        _session: aiohttp.ClientSession,
        ctx: SimpleNamespace,
        _params: aiohttp.TraceRequestChunkSentParams,
    ) -> None:
        # Over a connection just made the server may not have taken the connection in yet:
        # a request sent after this one over a connection it already reads could be read
        # first. The order is kept only over a connection the server has read before.
        if not getattr(ctx, "new_connection", False):
            note_written()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_start)
    trace.on_connection_create_end.append(on_new_connection)
    trace.on_request_chunk_sent.append(on_chunk_sent)
    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_error)
    return trace
