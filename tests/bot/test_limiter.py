"""The bot's own keeper of Discord's global limit, and its count of refused requests
(docs/rulings.md P-47)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator
from itertools import pairwise
from typing import Any

import aiohttp
import discord
import pytest

import tests.support.testgame  # noqa: F401
from bot.discord.limiter import (
    Budget,
    GlobalLimiter,
    GlobalSlot,
    RefusalCounter,
    exempt,
    transport_trace,
)
from bot.discord.pacing import MARGIN
from bot.discord.publisher import Publisher
from bot.emulator import Emulator
from bot.settings import Settings
from bot.ui.public_log import PublicLog
from tests.bot.test_publisher import FakeChannel, FakeDiscord, FakeMessage
from tests.support.tables import act, make_table
from tests.support.wait import until

WINDOW = 1.0 * (1 + MARGIN)


class Clock:
    """Monotonic seconds that stand still until the test moves them; ``sleep`` returns once
    ``advance`` reaches its end."""

    def __init__(self) -> None:
        self.now = 100.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        entry = (self.now + seconds, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            if entry in self._sleepers:
                self._sleepers.remove(entry)

    @property
    def sleepers(self) -> int:
        return len(self._sleepers)

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for entry in list(self._sleepers):
            if entry[0] <= self.now:
                self._sleepers.remove(entry)
                if not entry[1].done():
                    entry[1].set_result(None)


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30, **values)  # type: ignore[call-arg]


# -- the budget ---------------------------------------------------------------------------------


def test_one_process_has_the_whole_limit_and_shard_ranges_share_it() -> None:
    assert Budget.of(settings()) == Budget(50, 1.0)
    assert Budget.of(settings(global_rate_limit=120)) == Budget(120, 1.0)
    assert Budget.of(settings(global_rate_limit=0)) is None
    # All shards of a sharded bot in this one process: still the whole limit.
    assert Budget.of(settings(shard_count=4)) == Budget(50, 1.0)
    # Two processes of two shards each: half each.
    assert Budget.of(settings(shard_count=4, shard_ids="0-1")) == Budget(25, 1.0)
    assert Budget.of(settings(shard_count=4, shard_ids="2,3")) == Budget(25, 1.0)
    # Three processes of one shard each: rounded down, so together they stay under 50.
    shares = [Budget.of(settings(shard_count=3, shard_ids=str(i))) for i in range(3)]
    assert shares == [Budget(16, 1.0)] * 3
    # Less than one request per second: one per longer window.
    assert Budget.share(50, 1, 64) == Budget(1, 64 / 50)


# -- the window ---------------------------------------------------------------------------------


def test_the_window_admits_its_limit_per_second_counted_from_each_answer() -> None:
    clock = Clock()
    limiter = GlobalLimiter(Budget(3, 1.0), clock=clock)
    slots = [limiter.take() for _ in range(3)]
    assert all(slot is not None for slot in slots)
    assert limiter.take() is None
    # All three are still on their way: only an answer can free a place.
    assert limiter.delay() is None
    clock.advance(5.0)
    assert limiter.take() is None
    for slot in slots:
        assert slot is not None
        slot.done()  # answered at 105.0: the window runs from here
        clock.advance(0.25)
    assert limiter.take() is None
    assert limiter.delay() == pytest.approx(105.0 + WINDOW - clock.now)
    clock.now = 105.0 + WINDOW + 1e-6
    again = limiter.take()
    assert again is not None and limiter.take() is None
    # A place whose request never went out is given back at once.
    again.drop()
    assert limiter.room() == 1
    assert limiter.sent == 3


async def test_waiters_get_places_in_turn_and_never_more_than_the_limit_per_window() -> None:
    """The sliding window alone (a burst as large as the limit: nothing spread)."""
    clock = Clock()
    limiter = GlobalLimiter(Budget(50, 1.0), clock=clock, sleep=clock.sleep, burst=50)
    got: list[tuple[int, float]] = []

    async def request(n: int) -> None:
        slot = await limiter.acquire()
        got.append((n, clock.now))
        slot.done()

    tasks = [asyncio.create_task(request(n)) for n in range(120)]
    await until(lambda: len(got) == 50 and clock.sleepers == 1)
    assert limiter.waiting == 70
    clock.advance(0.5)
    await asyncio.sleep(0)
    assert len(got) == 50  # half a window later: no place has freed up
    clock.advance(0.6)  # past the window (1 s and the margin) of the first 50 answers
    await until(lambda: len(got) == 100 and clock.sleepers == 1)
    clock.advance(1.1)
    await asyncio.gather(*tasks)
    # First come, first served; 50 in each window.
    assert [n for n, _ in got] == list(range(120))
    assert [t for _, t in got] == pytest.approx([100.0] * 50 + [101.1] * 50 + [102.2] * 20)
    assert limiter.waited == 70


async def serve(limiter: GlobalLimiter, clock: Clock, requests: int, step: float) -> list[float]:
    """When each of ``requests`` waiters, queued at once and answered at once, got its place,
    the clock moving ``step`` seconds at a time."""
    got: list[float] = []

    async def request() -> None:
        slot = await limiter.acquire()
        got.append(clock.now)
        slot.done()

    tasks = [asyncio.create_task(request()) for _ in range(requests)]
    while len(got) < requests:
        for _ in range(30):  # every waiter due now gets its place before the clock moves
            await asyncio.sleep(0)
        clock.advance(step)
    await asyncio.gather(*tasks)
    return got


async def test_past_the_burst_places_are_spread_at_the_windows_even_rate() -> None:
    """A window that frees all at once no longer lets its whole budget go in the same
    instant: the first ``burst`` go at once, then one every ``window / limit`` seconds; where
    the window itself is full, at most ``burst`` go together once it frees."""
    clock = Clock()
    limiter = GlobalLimiter(Budget(50, 1.0), clock=clock, sleep=clock.sleep, burst=5)
    got = await serve(limiter, clock, 120, 0.001)
    spacing = WINDOW / 50
    assert got[:5] == [100.0] * 5
    assert max(Counter(got).values()) <= 5
    gaps = [b - a for a, b in pairwise(got) if b > a]
    # One every spacing, give or take the clock's step (a waiter woken a step late is caught
    # up by the next one), but where the window was full.
    evenly = [gap for gap in gaps if abs(gap - spacing) <= 0.001 + 1e-9]
    assert len(evenly) >= 0.9 * len(gaps), gaps
    # Never more than the limit in any window, and still the limit's rate overall.
    assert max(sum(1 for t in got if start <= t < start + WINDOW) for start in got) <= 50
    assert got[-1] - got[0] <= 2 * WINDOW + 0.4


async def test_a_waiter_woken_late_catches_up_by_at_most_the_burst() -> None:
    """Places not given while nobody was served build up again to ``burst``, no further: a
    loop that woke a waiter late catches up at once, by the burst at most."""
    clock = Clock()
    limiter = GlobalLimiter(Budget(50, 1.0), clock=clock, sleep=clock.sleep, burst=5)
    got = await serve(limiter, clock, 30, 0.5)
    assert got[:5] == [100.0] * 5
    # Half a second later the bucket is full again (5), not 23 places ahead.
    assert got[5:10] == [100.5] * 5 and got[10:15] == [101.0] * 5


def test_a_place_never_used_gives_its_share_back() -> None:
    clock = Clock()
    limiter = GlobalLimiter(Budget(50, 1.0), clock=clock, burst=2)
    first, second = limiter.take(), limiter.take()
    assert first is not None and second is not None
    assert limiter.take() is None
    assert limiter.delay() == pytest.approx(WINDOW / 50)
    second.drop()
    assert limiter.take() is not None


async def test_a_waiter_that_gives_up_leaves_its_turn_to_the_next() -> None:
    clock = Clock()
    limiter = GlobalLimiter(Budget(1, 1.0), clock=clock, sleep=clock.sleep)
    first = limiter.take()
    assert first is not None
    quitter = asyncio.create_task(limiter.acquire())
    patient = asyncio.create_task(limiter.acquire())
    await until(lambda: limiter.waiting == 2)
    quitter.cancel()
    first.done()
    await until(lambda: limiter.waiting == 1 and clock.sleepers == 1)
    clock.advance(1.1)
    slot = await patient
    assert isinstance(slot, GlobalSlot) and limiter.room() == 0
    assert quitter.cancelled()


async def test_a_limiter_without_a_budget_never_waits() -> None:
    limiter = GlobalLimiter(None)
    for _ in range(1000):
        assert await limiter.admit() is None


# -- what counts: at the transport --------------------------------------------------------------


def test_interaction_routes_are_exempt_as_the_emulator_classes_them() -> None:
    """The bot's rule is the emulator's: every route the emulator serves is exempt exactly
    when it is classed ``interaction`` (the interaction token is its key)."""
    emu = Emulator()
    samples = {"{interaction}": "123", "{token}": "aW50ZXJhY3Rpb24", "{app}": "42"}
    for route in emu.rest.routes:
        path = route.template.split(" ", 1)[1]
        for name, value in samples.items():
            path = path.replace(name, value)
        path = path.replace("{", "").replace("}", "")  # any other id
        assert exempt(path) == (route.klass == "interaction"), route.template
    assert exempt("/webhooks/42/aW50/messages/@original")
    assert not exempt("/webhooks/42")  # the bot's own webhook routes take the bot token
    assert not exempt("/channels/1/messages")


@pytest.fixture
async def emulator(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Emulator]:
    emu = Emulator("t" * 30)
    async with emu:
        monkeypatch.setattr(discord.http.Route, "BASE", emu.api_base)
        yield emu


async def test_the_transport_counts_global_requests_and_leaves_exempt_ones_out(
    emulator: Emulator,
) -> None:
    limiter = GlobalLimiter(Budget(50, 1.0))
    refusals = RefusalCounter()
    guild = emulator.add_guild("g")
    channel = emulator.add_text_channel(guild, "c")
    base = emulator.api_base
    auth = {"Authorization": f"Bot {'t' * 30}"}
    async with aiohttp.ClientSession(trace_configs=[transport_trace(limiter, refusals)]) as http:
        async with http.post(
            f"{base}/channels/{channel.id}/messages", json={"content": "hi"}, headers=auth
        ) as resp:
            assert resp.status == 200
        async with http.get(f"{base}/users/@me", headers=auth) as resp:
            assert resp.status == 200
        assert limiter.sent == 2
        # An interaction's callback and its webhook: no place taken (unknown ones here, 404).
        for path in ("/interactions/1/tok/callback", "/webhooks/42/tok"):
            async with http.post(f"{base}{path}", json={"type": 1}) as resp:
                assert resp.status == 404
        # The gateway is no REST request at all.
        ws = await http.ws_connect(emulator.gateway_url + "?v=10&encoding=json")
        await ws.close()
        assert limiter.sent == 2 and limiter.room() == 48
        async with http.get(f"{base}/users/@me") as resp:  # no token: 401, counted as refused
            assert resp.status == 401
    assert limiter.sent == 3
    assert refusals.count() == 1


# -- refused requests -----------------------------------------------------------------------------


def test_refusals_are_logged_once_past_100_in_ten_minutes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    counter = RefusalCounter(clock=clock)
    caplog.set_level(logging.WARNING, logger="bot.discord.limiter")
    for status in [401, 403, 429] * 33 + [403]:
        counter.note(status)
        clock.advance(1.0)
    counter.note(200)
    counter.note(404)
    counter.note(429, "shared")  # another bot's bucket: not ours, Discord does not count it
    assert counter.count() == 100 and caplog.records == []
    counter.note(429)
    assert [r.getMessage() for r in caplog.records] == [
        "Discord refused 101 requests in the last 10 minutes (33 × 401, 34 × 403, 34 × 429); "
        "it bans the bot's IP for an hour at 10,000"
    ]
    for _ in range(50):
        counter.note(403)
    assert len(caplog.records) == 1  # once, not once per refusal
    # Ten minutes on, the old ones are forgotten; passing 100 again is said again.
    clock.advance(600.0)
    assert counter.count() == 0
    for _ in range(100):
        counter.note(401)
    assert len(caplog.records) == 1
    counter.note(401)
    assert len(caplog.records) == 2


# -- the publisher: one pass at a time, and no place held but by a request ---------------------


class AdmittedMessage(FakeMessage):
    """An edit that takes its place in the global window on its way out, as the transport's
    trace makes every request with the bot token do."""

    async def edit(self, **kwargs: Any) -> None:
        limiter = self.channel.limiter  # type: ignore[attr-defined]
        slot = await limiter.admit()
        try:
            await super().edit(**kwargs)
        finally:
            if slot is not None:
                slot.done()


class AdmittedChannel(FakeChannel):
    def __init__(self, limiter: GlobalLimiter) -> None:
        super().__init__()
        self.limiter = limiter

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return AdmittedMessage(self, message_id)


async def test_a_pump_whose_edit_waits_for_a_place_then_sends_the_newest_state() -> None:
    """A game's pump sends one pass at a time: its edit waits in turn for a place, the
    changes made meanwhile mark the game again, and the next pass sends them as one edit of
    the newest state (P-47)."""
    clock = Clock()
    limiter = GlobalLimiter(Budget(1, 1.0), clock=clock, sleep=clock.sleep)
    config = settings(board_edit_interval=0.0, channel_edit_limit=1000)
    channel = AdmittedChannel(limiter)
    fake: Any = FakeDiscord(channel, config)
    publisher = Publisher(fake, fake.store, config, PublicLog(), limiter=limiter)
    table = make_table("ladybug-dash", 2)
    publisher.remember_board(table.id, 555)
    busy = limiter.take()  # another game's request holds the only place
    assert busy is not None
    act(table, 0, {"type": "claim"})
    publisher.mark_dirty(table)
    await until(lambda: limiter.waiting == 1)
    act(table, 0, {"type": "pick", "n": 2})  # more changes while the edit waits its turn
    publisher.mark_dirty(table)
    act(table, 1, {"type": "pick", "n": 3})
    publisher.mark_dirty(table)
    busy.done()
    for _ in range(2):  # the waiting edit, then the next pass's, each a window apart
        await until(lambda: clock.sleepers == 1)
        clock.advance(1.1)
    await publisher.flush()
    assert len(channel.edits) == 2  # the first state's, then one of everything since
    assert "**picks_made**: [0,0]" in channel.edits[0][1]["description"]
    assert "**picks_made**: [1,1]" in channel.edits[1][1]["description"]
    assert limiter.room() == 0 and limiter.waiting == 0


class OneBucketDiscord(FakeDiscord):
    """DM channels opened as discord.py opens them here: one request at a time (every
    ``POST /users/@me/channels`` shares one bucket), each taking its place in the window."""

    def __init__(self, channel: FakeChannel, settings: Settings, limiter: GlobalLimiter) -> None:
        super().__init__(channel, settings)
        self.limiter, self.bucket = limiter, asyncio.Lock()

    async def create_dm(self, user: Any) -> Any:
        async with self.bucket:
            slot = await self.limiter.admit()
            await asyncio.sleep(0)  # on its way
            if slot is not None:
                slot.done()
        return await super().create_dm(user)


async def test_games_opening_dms_together_never_hold_every_place_and_wait_for_one() -> None:
    """More games than places start at once and each opens its members' DMs, which go one at
    a time: a place held for a whole pass (as the bot once held one, to render after its
    turn) left every place held by passes waiting behind one DM opening, which itself waited
    for a place, and no game's board or DM was ever sent again. Only a request holds a
    place now, so every game gets its DMs and board."""
    limiter = GlobalLimiter(Budget(2, 0.05))
    config = settings(board_edit_interval=0.0, channel_edit_limit=1000)
    channel = FakeChannel()
    fake: Any = OneBucketDiscord(channel, config, limiter)
    publisher = Publisher(fake, fake.store, config, PublicLog(), limiter=limiter)
    tables = [make_table("ladybug-dash", 2, game_id=game) for game in (1, 2, 3)]
    for table in tables:
        publisher.remember_board(table.id, 500 + table.id)
        publisher.mark_dirty(table)
    await asyncio.wait_for(publisher.flush(), 10)
    assert sorted(fake.opened) == [100, 101]  # each member's DM opened once
    assert len(fake.everyone.dms) == 2 * len(tables) and len(channel.edits) == len(tables)


async def test_passes_over_every_game_wait_their_turn_and_draw_the_newest_state() -> None:
    """P-94: the pumps of all games share ``BOARD_PASS_RATE`` passes a second. A pass waits
    its turn before it renders (taking the turn counts it at once: nothing is held while the
    pass sends), so a game changed again while it waited is drawn once, in its newest state."""
    clock = Clock()
    config = settings(board_edit_interval=0.0, channel_edit_limit=1000, board_pass_rate=1)
    channel = FakeChannel()
    fake: Any = FakeDiscord(channel, config)
    publisher = Publisher(fake, fake.store, config, PublicLog())
    publisher.passes = GlobalLimiter(Budget(1, 1.0), clock=clock, sleep=clock.sleep, burst=1)
    tables = [make_table("ladybug-dash", 2, game_id=game) for game in (1, 2)]
    for table in tables:
        publisher.remember_board(table.id, 500 + table.id)
        publisher.mark_dirty(table)
    await until(lambda: len(channel.edits) == 1 and publisher.passes.waiting == 1)
    first, second = tables if channel.edits[0][0] == 501 else tables[::-1]
    act(second, 0, {"type": "claim"})  # changed while its pass waits its turn
    publisher.mark_dirty(second)
    act(second, 0, {"type": "pick", "n": 2})
    publisher.mark_dirty(second)
    await until(lambda: clock.sleepers == 1)
    clock.advance(1.1)
    await until(lambda: len(channel.edits) == 2)
    assert channel.edits[1][0] == 500 + second.id
    assert "**picks_made**: [1,0]" in channel.edits[1][1]["description"]
    await publisher.flush()
    assert len(channel.edits) == 2 and first is not second


def test_the_pass_rate_is_a_setting_and_zero_keeps_no_limit() -> None:
    fake: Any = FakeDiscord(FakeChannel(), settings(board_pass_rate=0))
    assert not Publisher(fake, fake.store, fake.settings, PublicLog()).passes.enabled
    fake = FakeDiscord(FakeChannel(), settings())
    passes = Publisher(fake, fake.store, fake.settings, PublicLog()).passes
    assert passes.enabled and passes.budget == Budget(50)
