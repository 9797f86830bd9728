"""The publisher's turn pings on the project's test clock (docs/rulings.md P-46): a ping goes out
at its due moment with nothing else happening, the old message is deleted before the new one is
sent, and a restart times the waits from the game's last change. Discord is faked at the level
the publisher uses it."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

import tests.support.testgame  # noqa: F401
from bot.backoff import backoff
from bot.discord.publisher import Publisher
from bot.host.table import Table
from bot.settings import Settings
from bot.store.records import MemberSettings, MessageRecord
from bot.ui.public_log import PublicLog
from tests.bot.test_publisher import FakeDiscord
from tests.support.clock import ManualClock
from tests.support.tables import act, make_table
from tests.support.wait import until

PING_AFTER = 20.0


class Channel:
    """The game's channel: every send, edit and delete in order (pings start ``🔔 <@``)."""

    id = 20

    def __init__(self) -> None:
        self.log: list[tuple[str, int, str]] = []
        self._ids = itertools.count(1000)

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        message_id = next(self._ids)
        self.log.append(("send", message_id, content or ""))
        return SimpleNamespace(id=message_id)

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            self.log.append(("edit", message_id, kwargs.get("content") or ""))

        async def delete() -> None:
            self.log.append(("delete", message_id, ""))

        return SimpleNamespace(edit=edit, delete=delete)

    def pings(self) -> list[tuple[int, str]]:
        return [(m, text) for op, m, text in self.log if op == "send" and text.startswith("🔔 <@")]


class Store:
    shared = False

    def __init__(
        self, stored: dict[str, MessageRecord] | None = None, quiet: frozenset[int] = frozenset()
    ) -> None:
        self.stored, self.quiet = stored or {}, quiet
        self.asked: list[int] = []
        """Whose ping settings the publisher read: it does so for each ping falling due."""

    async def set_message(self, *args: Any) -> None:
        return None

    async def messages(self, game_id: int) -> dict[str, MessageRecord]:
        return self.stored

    async def member_settings(self, user_ids: Iterable[int]) -> dict[int, Any]:
        self.asked.extend(user_ids)
        return {u: MemberSettings(u, pings=u not in self.quiet, chosen=True) for u in user_ids}


def make(
    clock: ManualClock,
    store: Store | None = None,
    channel: Channel | None = None,
    retry_max_delay: float = 0.01,
) -> tuple[Publisher, Channel]:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        board_edit_interval=0.01,
        retry_max_delay=retry_max_delay,
        channel_edit_limit=1000,
        ping_after=PING_AFTER,
    )
    channel = channel or Channel()
    fake: Any = FakeDiscord(channel, settings)  # type: ignore[arg-type]
    fake.store = store or Store()
    publisher = Publisher(fake, fake.store, settings, PublicLog(), clock=clock, sleep=clock.sleep)
    return publisher, channel


async def settle(publisher: Publisher, clock: ManualClock, sleepers: int = 1) -> None:
    """Every pass done, and the ping's wake-up (if one is due) asleep on the clock."""
    await publisher.flush()
    await until(lambda: clock.sleepers == sleepers, what=f"{sleepers} sleeper(s)")


def started(clock: ManualClock) -> Table:
    table = make_table("ladybug-dash", 2)
    table.game = dataclasses.replace(table.game, updated_at=clock())
    return table


async def test_a_ping_goes_out_at_its_due_moment_and_only_to_a_slow_player() -> None:
    clock = ManualClock()
    publisher, channel = make(clock)
    table = started(clock)
    publisher.table_changed(table, None)  # the race: the game waits on both seats
    await settle(publisher, clock)
    clock.advance(5)
    # Seat 1 claims within PING_AFTER: it is never pinged; seat 0 now picks.
    publisher.table_changed(table, act(table, 1, {"type": "claim"}))
    await settle(publisher, clock)
    clock.advance(PING_AFTER - 5 - 0.5)
    await settle(publisher, clock)
    assert channel.pings() == []
    clock.advance(0.5)  # seat 0 has been waited on for PING_AFTER: pinged with nothing else
    await until(lambda: channel.pings(), what="the ping")
    await settle(publisher, clock, sleepers=0)
    ((first, text),) = channel.pings()
    assert text.startswith("🔔 <@100> ") and "<@101>" not in text
    for _ in range(5):  # still slow: one ping for the whole wait
        clock.advance(PING_AFTER)
        await publisher.flush()
    assert len(channel.pings()) == 1

    # Seat 0 picks; seat 1 is slow to pick: its ping replaces seat 0's, which goes first.
    publisher.table_changed(table, act(table, 0, {"type": "pick", "n": 2}))
    await settle(publisher, clock)
    clock.advance(PING_AFTER)
    await until(lambda: len(channel.pings()) == 2, what="the second ping")
    await publisher.flush()
    second, text = channel.pings()[1]
    assert text.startswith("🔔 <@101> ")
    assert channel.log.index(("delete", first, "")) < channel.log.index(("send", second, text))


async def test_a_player_who_answers_in_time_is_never_pinged() -> None:
    clock = ManualClock()
    publisher, channel = make(clock)
    table = started(clock)
    publisher.table_changed(table, None)
    await settle(publisher, clock)
    moves = [(1, {"type": "claim"}), (0, {"type": "pick", "n": 1}), (1, {"type": "pick", "n": 3})]
    for seat, action in moves:
        clock.advance(PING_AFTER - 1)
        publisher.table_changed(table, act(table, seat, action))
        await publisher.flush()
    clock.advance(PING_AFTER - 1)
    await settle(publisher, clock)
    assert channel.pings() == []
    await publisher.close()  # shutting down leaves no wake-up behind
    await until(lambda: clock.sleepers == 0, what="the wake-up cancelled")


async def test_a_member_with_pings_off_falling_due_leaves_the_live_ping_alone() -> None:
    clock, store = ManualClock(), Store(quiet=frozenset({101}))
    publisher, channel = make(clock, store)
    table = started(clock)
    publisher.table_changed(table, None)  # the race: both seats waited on
    await settle(publisher, clock)
    clock.advance(5)
    publisher.table_changed(table, act(table, 1, {"type": "cheer"}))  # seat 1's new wait
    await settle(publisher, clock)
    clock.advance(PING_AFTER - 5)
    await until(lambda: channel.pings(), what="seat 0's ping")
    await settle(publisher, clock)
    ((first, text),) = channel.pings()
    assert "<@100>" in text and "<@101>" not in text
    clock.advance(5)  # seat 1 falls due, but takes no pings: nothing sent, nothing deleted
    await until(lambda: 101 in store.asked, what="seat 1's ping considered")
    await settle(publisher, clock, sleepers=0)
    assert channel.pings() == [(first, text)]
    assert not [e for e in channel.log if e[0] == "delete"]


def snowflake(at: datetime) -> int:
    return discord.utils.time_snowflake(at, high=True)


async def test_after_a_restart_a_wait_is_timed_from_the_games_last_change() -> None:
    """5 s after the last move: no ping at once, one 15 s later; the ping of an earlier wait
    (older than the last change) is deleted before it."""
    clock = ManualClock()
    changed = clock()
    older = snowflake(changed - timedelta(seconds=30))
    store = Store({"ping": MessageRecord(1, "ping", 20, older)})
    publisher, channel = make(clock, store)
    table = started(clock)
    act(table, 1, {"type": "claim"})  # the game waits on seat 0 since ``changed``
    clock.advance(5)
    await publisher.adopt(table)
    publisher.mark_dirty(table)
    await settle(publisher, clock)
    assert channel.pings() == [] and ("delete", older, "") in channel.log
    clock.advance(PING_AFTER - 5 - 0.5)
    await settle(publisher, clock)
    assert channel.pings() == []
    clock.advance(0.5)
    await until(lambda: channel.pings(), what="the ping")
    assert channel.pings()[0][1].startswith("🔔 <@100> ")


async def test_after_a_restart_a_wait_already_pinged_is_not_pinged_again() -> None:
    clock = ManualClock()
    changed = clock()
    pinged = snowflake(changed + timedelta(seconds=PING_AFTER))
    store = Store({"ping": MessageRecord(1, "ping", 20, pinged)})
    publisher, channel = make(clock, store)
    table = started(clock)
    act(table, 1, {"type": "claim"})
    clock.advance(300)
    await publisher.adopt(table)
    publisher.mark_dirty(table)
    await settle(publisher, clock, sleepers=0)  # nothing is due, now or later
    clock.advance(PING_AFTER)
    await publisher.flush()
    assert channel.pings() == [] and not [e for e in channel.log if e[0] == "delete"]
    # Seat 0 picks: the game waits on nobody the old ping names, so it goes.
    publisher.table_changed(table, act(table, 0, {"type": "pick", "n": 1}))
    await until(lambda: ("delete", pinged, "") in channel.log, what="the old ping deleted")


class UnreachableChannel(Channel):
    """The game's channel, with Discord unreachable while ``down``: a send fails as a refused
    connection does."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.tries = 0
        self.tried_at: list[float] = []
        """``time.monotonic()`` of each failed send."""

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        if self.down:
            self.tries += 1
            self.tried_at.append(time.monotonic())
            raise OSError("Connect call failed")
        return await super().send(content, **kwargs)

    def spaced(self, wait: float) -> bool:
        """Whether each failed send came at least ``wait`` after the one before it."""
        return all(b - a >= wait for a, b in zip(self.tried_at, self.tried_at[1:], strict=False))


async def test_a_ping_due_while_discord_is_unreachable_waits_with_the_notices() -> None:
    """A ping falls due while the channel's notices wait out a failure: it is tried again when
    that wait is over, not at once and again without end (the publisher redrew the game in a
    loop, a whole core of CPU, while Discord was unreachable)."""
    clock = ManualClock()
    publisher, channel = make(clock, channel=UnreachableChannel(), retry_max_delay=1.0)
    assert isinstance(channel, UnreachableChannel)
    renders = 0
    render = publisher._render

    def counted(table: Table) -> Any:
        nonlocal renders
        renders += 1
        return render(table)

    publisher._render = counted  # type: ignore[method-assign]
    table = started(clock)
    publisher.table_changed(table, None)
    await settle(publisher, clock)
    channel.down = True
    clock.advance(PING_AFTER)  # the ping falls due; sending it fails
    await until(lambda: channel.tries == 1, what="the ping tried")
    before = renders
    await asyncio.sleep(0.3)  # within the first wait (0.5 s) after the failure
    # Tried again only once each wait is over (a loaded machine may overshoot the first), and
    # the game is not redrawn meanwhile.
    first_wait = backoff(1, 1.0) - 0.01
    assert channel.spaced(first_wait) and renders - before <= channel.tries
    channel.down = False
    await until(lambda: channel.pings(), what="the ping once the wait is over")
    assert channel.spaced(first_wait)
    await publisher.close()
