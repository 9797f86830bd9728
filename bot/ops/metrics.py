"""What an operator can watch (``METRICS_PORT``): Prometheus metrics of one bot process.

Each process has its own registry (two bots in one test process, or a test's, never mix) and
labels every series with the shards it runs, so the series of a deployment's processes stay
apart when one Prometheus scrapes them all. Nothing here names a player, a hand or a tile:
the labels are game kinds, command names, button kinds, request classes and shard numbers.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import prometheus_client
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds; Discord drops an interaction not acknowledged within 3."""
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
THINK_BUCKETS = (0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
LAG_INTERVAL = 0.25
"""How often the event loop's lag is sampled."""
KINDS_KEPT = 4096
"""Interactions whose kind is remembered until their acknowledgement (older ones are dropped:
an interaction is acknowledged within 3 s or never)."""


@dataclass(frozen=True)
class GameCount:
    """Games of one kind in this process's memory, and how many of them are being played."""

    game: str
    loaded: int
    running: int


@dataclass(frozen=True)
class Readings:
    """What the metrics read from the bot when scraped (no bookkeeping on the hot path)."""

    games: Callable[[], Iterable[GameCount]]
    timers_pending: Callable[[], int]
    commit_groups: Callable[[], int | None]
    """Groups the store's writer committed (None: it commits each action alone)."""
    refusals: Callable[[], int]
    """401, 403 and 429 answers in the last 10 minutes (Discord bans an IP at 10,000)."""
    gateway: Callable[[], Iterable[tuple[int, float]]]
    """(shard id, heartbeat latency in seconds) for each shard this process runs."""


class Metrics:
    """The bot's metrics. The bot's parts call the ``note_*`` methods; ``Readings`` are read at
    scrape time."""

    def __init__(self, shards: str) -> None:
        self.registry = prometheus_client.CollectorRegistry(auto_describe=True)
        self.acks = prometheus_client.Histogram(
            "bugtable_interaction_ack_seconds",
            "From when Discord made an interaction to the bot's first answer to it, by kind "
            "(command:<name>, button:game, button:<host op>, select:game, other).",
            ["kind", "shards"],
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.committed = prometheus_client.Counter(
            "bugtable_committed_actions",
            "Actions committed by this process, by game kind (members', bots' and deadlines').",
            ["game", "shards"],
            registry=self.registry,
        )
        self.requests = prometheus_client.Counter(
            "bugtable_rest_requests",
            "REST requests by class: interaction (exempt from the global limit) or global.",
            ["cls", "shards"],
            registry=self.registry,
        )
        self.rate_limited = prometheus_client.Counter(
            "bugtable_rest_429",
            "429 answers by the scope Discord gave (user, global, shared).",
            ["scope", "shards"],
            registry=self.registry,
        )
        self.think = prometheus_client.Histogram(
            "bugtable_bot_think_seconds",
            "How long a bot player took to choose its move, by how: quick (random, nothing to "
            "do), normal, searched (a hard bot's search in a worker) or fallback (a hard bot "
            "played as normal: every worker busy, P-76).",
            ["game", "how", "shards"],
            buckets=THINK_BUCKETS,
            registry=self.registry,
        )
        self.lag = prometheus_client.Histogram(
            "bugtable_event_loop_lag_seconds",
            "How late the event loop ran a callback that was due (sampled).",
            ["shards"],
            buckets=LAG_BUCKETS,
            registry=self.registry,
        ).labels(shards=shards)
        self.shards = shards
        # Each click notes a request or two, a commit and an acknowledgement: a series is looked
        # up by its labels once (``labels`` takes a lock and builds a key each time).
        self._by_class = {
            exempt: self.requests.labels(cls="interaction" if exempt else "global", shards=shards)
            for exempt in (True, False)
        }
        self._committed: dict[str, prometheus_client.Counter] = {}
        self._acks: dict[str, prometheus_client.Histogram] = {}
        self._kinds: OrderedDict[int, str] = OrderedDict()
        self._readings: Readings | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self.registry.register(_ReadingsCollector(self))

    # -- what the bot tells -------------------------------------------------------------
    def note_interaction(self, interaction_id: int, kind: str) -> None:
        """An interaction arrived (``kind``: ``command:bugs new``, ``button:game``, …)."""
        self._kinds[interaction_id] = kind
        while len(self._kinds) > KINDS_KEPT:
            self._kinds.popitem(last=False)

    def note_ack(self, interaction_id: int, seconds: float) -> None:
        """The first answer to an interaction (its callback) came back from Discord."""
        kind = self._kinds.pop(interaction_id, None)
        if kind is None:  # not one this process saw arrive, or answered already
            return
        series = self._acks.get(kind)
        if series is None:
            series = self._acks[kind] = self.acks.labels(kind=kind, shards=self.shards)
        series.observe(seconds)

    def note_request(self, exempt: bool, status: int, scope: str | None) -> None:
        self._by_class[exempt].inc()
        if status == 429:
            self.rate_limited.labels(scope=scope or "user", shards=self.shards).inc()

    def note_commit(self, game: str) -> None:
        series = self._committed.get(game)
        if series is None:
            series = self._committed[game] = self.committed.labels(game=game, shards=self.shards)
        series.inc()

    def note_think(self, game: str, how: str, seconds: float) -> None:
        self.think.labels(game=game, how=how, shards=self.shards).observe(seconds)

    def read(self, readings: Readings) -> None:
        self._readings = readings

    # -- the event loop's lag -------------------------------------------------------------
    def watch_loop(self) -> None:
        if self._lag_task is None:
            self._lag_task = asyncio.get_running_loop().create_task(
                self._sample_lag(), name="metrics:loop-lag"
            )

    async def _sample_lag(self) -> None:
        while True:
            due = time.monotonic() + LAG_INTERVAL
            await asyncio.sleep(LAG_INTERVAL)
            self.lag.observe(max(0.0, time.monotonic() - due))

    async def close(self) -> None:
        task, self._lag_task = self._lag_task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return prometheus_client.generate_latest(self.registry)


class _ReadingsCollector(Collector):
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> Iterable[object]:
        return []  # read live: nothing to describe before the bot is up

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        readings = self.metrics._readings
        if readings is None:
            return
        shards = self.metrics.shards
        loaded = GaugeMetricFamily(
            "bugtable_games_loaded", "Games in this process's memory.", labels=["game", "shards"]
        )
        running = GaugeMetricFamily(
            "bugtable_games_running", "Loaded games being played.", labels=["game", "shards"]
        )
        for count in readings.games():
            loaded.add_metric([count.game, shards], count.loaded)
            running.add_metric([count.game, shards], count.running)
        yield loaded
        yield running
        timers = GaugeMetricFamily(
            "bugtable_timers_pending", "Deadlines scheduled in this process.", labels=["shards"]
        )
        timers.add_metric([shards], readings.timers_pending())
        yield timers
        groups = readings.commit_groups()
        if groups is not None:
            family = CounterMetricFamily(
                "bugtable_commit_groups",
                "Transactions the group writer committed (actions / groups: the group size).",
                labels=["shards"],
            )
            family.add_metric([shards], groups)
            yield family
        refused = GaugeMetricFamily(
            "bugtable_invalid_requests_10m",
            "401, 403 and 429 answers in the last 10 minutes (Discord bans the IP at 10,000).",
            labels=["shards"],
        )
        refused.add_metric([shards], readings.refusals())
        yield refused
        gateway = GaugeMetricFamily(
            "bugtable_gateway_latency_seconds",
            "Heartbeat round trip of each shard's gateway connection.",
            labels=["shard"],
        )
        for shard, latency in readings.gateway():
            if latency == latency and latency != float("inf"):  # NaN/inf before the first beat
                gateway.add_metric([str(shard)], latency)
        yield gateway


class CommitCounter:
    """A host listener: every committed action counts, by game kind."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def table_changed(self, table: _Slugged, outcome: object | None) -> None:
        if outcome is not None:
            self.metrics.note_commit(table.slug)


class _Slugged(Protocol):
    @property
    def slug(self) -> str: ...
