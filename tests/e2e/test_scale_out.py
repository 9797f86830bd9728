"""Scale-out (P-36): two bot processes, each running one of two shards, on one PostgreSQL store
and one emulator. Each process gets the events of its own guilds, DM clicks go to shard 0's
process, grabs racing in both processes have one winner, deadlines fire once, and a process
killed by SIGKILL loses nothing. Skipped, saying why, without ``TEST_DATABASE_URL``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.emulator import ChannelLimit, Emulator
from bot.emulator.gateway import GatewaySession
from bot.emulator.models import Message, MessageVersion
from bot.store import Store
from rules.core import SYSTEM
from tests.support.databases import PostgresDatabases

from .conftest import CONNECT_TIMEOUT, FAST_WINDOW, TOKEN, BotProcess
from .helpers import WAIT, click, start_game, told, until_text

SHARDS = 2


class ShardProcess(BotProcess):
    """``python -m bot --shards N --shard-count 2`` (through SHARD_IDS/SHARD_COUNT) on PostgreSQL."""

    def __init__(self, emulator: Emulator, workdir: Path, url: str, shard: int) -> None:
        super().__init__(
            emulator,
            workdir,
            shard_ids=str(shard),
            shard_count=SHARDS,
            identify_window=0.2,
            channel_edit_window=FAST_WINDOW,
            bot_player_delay=0.2,
        )
        self.url = url
        self.shard = shard

    @property
    def db_url(self) -> str:
        return self.url

    async def ready(self, identified: int) -> None:
        await super().ready(identified)
        await self.emulator.wait_for(lambda: self.session() is not None, timeout=CONNECT_TIMEOUT)

    def session(self) -> GatewaySession | None:
        session = self.emulator.gateway.shards.get(self.shard)
        return session if session is not None and session.attached else None


@dataclass
class Cluster:
    emulator: Emulator
    url: str
    procs: list[ShardProcess]
    guilds: list[Any]
    channels: list[Any]
    alice: Any
    bob: Any

    def interactions_on(self, shard: int) -> int:
        session = self.emulator.gateway.shards[shard]
        return sum('"INTERACTION_CREATE"' in text for _, text in session.sent)


@pytest.fixture(scope="module")
def pg_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    url = postgres_databases.create()
    yield url
    postgres_databases.drop(url)


@pytest.fixture(scope="module")
async def cluster(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    emu = Emulator(token=TOKEN, channel_limit=ChannelLimit(5, FAST_WINDOW))
    await emu.start()
    guilds = [emu.add_guild(f"shard {s}", shard=(s, SHARDS)) for s in range(SHARDS)]
    channels = [emu.add_text_channel(g, "games") for g in guilds]
    alice, bob = (emu.add_user(n, guilds=guilds) for n in ("alice", "bob"))
    root = tmp_path_factory.mktemp("scale-out")
    procs = []
    for shard in range(SHARDS):
        (root / f"shard{shard}").mkdir()
        procs.append(ShardProcess(emu, root / f"shard{shard}", pg_url, shard))
    try:
        for proc in procs:  # one after the other: the first migrates the empty database
            await proc.start()
        yield Cluster(emu, pg_url, procs, guilds, channels, alice, bob)
    finally:
        for proc in procs:
            await proc.stop()
        await emu.stop()


@pytest.fixture(autouse=True)
async def no_game_left_open(cluster: Cluster) -> AsyncIterator[None]:
    """A test that fails midway leaves its game open; cancel it, so that the next test's
    ``/bugs new`` is not refused for a busy channel (one failure, not a cascade)."""
    yield
    store = await Store.open(cluster.url, migrate=False)
    try:
        for channel in cluster.channels:
            if await store.active_game_in_channel(channel.id) is not None:
                await cancel(cluster, channel)
    finally:
        await store.close()


async def stored(cluster: Cluster, channel: Any) -> tuple[int, list[tuple[int, str]]]:
    store = await Store.open(cluster.url, migrate=False)
    try:
        game = await store.active_game_in_channel(channel.id)
        if game is None:
            (game,) = await store.finished_games(1, channel_id=channel.id)
        return game.id, [(a.seat, str(a.action["type"])) for a in await store.actions(game.id)]
    finally:
        await store.close()


async def cancel(cluster: Cluster, channel: Any) -> None:
    await cluster.emulator.slash(cluster.alice, channel, "bugs cancel")


def dm_with(emu: Emulator, user: Any, label: str, board: Message) -> Message | None:
    """``user``'s DM of the game on ``board`` (sent after it) while it offers ``label``."""
    for message in reversed(emu.dms(user)):
        if message.id > board.id and message.has_button(label=label):
            return message
    return None


async def test_each_process_gets_the_events_of_its_own_shards_guilds(cluster: Cluster) -> None:
    emu = cluster.emulator
    assert sorted(emu.gateway.shards) == [0, 1]
    for shard, channel in enumerate(cluster.channels):
        before = [cluster.interactions_on(s) for s in range(SHARDS)]
        board = await start_game(emu, cluster.alice, [cluster.bob], channel)
        assert told(await click(emu, cluster.bob, board, "claim")) == ""
        await until_text(emu, board, "**phase**: pick")
        after = [cluster.interactions_on(s) for s in range(SHARDS)]
        other = 1 - shard
        assert after[shard] > before[shard] and after[other] == before[other]
        await cancel(cluster, channel)


async def test_dm_clicks_reach_shard_0_and_act_on_a_game_of_shard_1(cluster: Cluster) -> None:
    emu, channel = cluster.emulator, cluster.channels[1]
    board = await start_game(emu, cluster.alice, [cluster.bob], channel)
    assert told(await click(emu, cluster.bob, board, "claim")) == ""  # shard 1's process
    await until_text(emu, board, "**to_pick**: 0")
    dm = await emu.wait_for(lambda: dm_with(emu, cluster.alice, "pick 2", board), timeout=WAIT)
    on_0 = cluster.interactions_on(0)
    assert told(await click(emu, cluster.alice, dm, "pick 2")) in ("", "you picked: n 2")
    assert cluster.interactions_on(0) == on_0 + 1  # the DM click went to shard 0's process
    await until_text(emu, board, "**to_pick**: 1")  # ... which moved the game and its board
    # and shard 1's process, whose table is now stale, takes the next click all the same
    assert told(await click(emu, cluster.bob, board, "pick 1")) == "you picked: n 1"
    await until_text(emu, board, "**phase**: race")
    _, log = await stored(cluster, channel)
    assert log == [(1, "claim"), (0, "pick"), (1, "pick")]
    await cancel(cluster, channel)


async def test_same_instant_grabs_in_two_processes_have_one_winner(cluster: Cluster) -> None:
    emu, channel = cluster.emulator, cluster.channels[1]
    board = await start_game(emu, cluster.alice, [cluster.bob], channel)
    for round_no in range(2):
        # Each process edits the board and the DMs, and an edit can land after a newer one
        # (it is then drawn again): wait for the turn itself, not for words an older state
        # showed too. The race of round r is turn 1 + 3r, its picks the next two.
        race = 1 + 3 * round_no
        await emu.wait_for(lambda t=race: offers(board, "claim", t), timeout=WAIT)
        dm = await emu.wait_for(
            lambda t=race: next(
                (m for m in emu.dms(cluster.alice) if m.id > board.id and offers(m, "claim", t)),
                None,
            ),
            timeout=WAIT,
        )
        # alice grabs from her DM (shard 0's process), bob on the board (shard 1's), at once
        results = await asyncio.gather(
            emu.click(cluster.alice, dm, dm.find_button(label="claim").custom_id or ""),
            click(emu, cluster.bob, board, "claim"),
        )
        answers = [told(r) for r in results]
        assert sorted(a == "" for a in answers) == [False, True], answers
        _, log = await stored(cluster, channel)
        assert [t for _, t in log].count("claim") == round_no + 1
        for seat, user in enumerate((cluster.alice, cluster.bob)):
            await emu.wait_for(lambda t=race + 1 + seat: offers(board, "pick 1", t), timeout=WAIT)
            assert told(await click(emu, user, board, "pick 1")) == "you picked: n 1"
    await cancel(cluster, channel)


def offers(message: Message, label: str, turn: int) -> bool:
    """Whether ``message`` shows the button ``label`` of the game's turn ``turn``."""
    return any(
        str(item.get("label")) == label and str(item.get("custom_id")).split(":")[2] == str(turn)
        for row in message.version().components
        for item in row.get("components", [])
    )


REDRAWN = 5.0
"""Seconds within which an overtaken edit is drawn again (a ping would redraw it after 20)."""


def custom_ids(body: Any) -> list[str]:
    """The custom ids of the buttons a message's JSON body carries."""
    rows = body.get("components") or [] if isinstance(body, dict) else []
    return [str(i.get("custom_id")) for row in rows for i in row.get("components", [])]


def picks_offered(version: MessageVersion) -> list[str]:
    """The custom ids of the pick buttons a version of a message showed."""
    return [
        str(item.get("custom_id"))
        for row in version.components
        for item in row.get("components", [])
        if str(item.get("label", "")).startswith("pick")
    ]


async def test_an_edit_that_lands_after_another_process_newer_one_is_drawn_again(
    cluster: Cluster,
) -> None:
    """Both processes edit one game's messages, and Discord takes requests as they arrive: an
    edit shard 1's process sent can land after a newer one shard 0's process sent. The
    process whose edit showed older news finds the game moved on and draws it again, so the
    message ends at the newest state (P-36)."""
    emu, channel = cluster.emulator, cluster.channels[1]
    board = await start_game(emu, cluster.alice, [cluster.bob], channel)
    bob_dm = await emu.wait_for(lambda: dm_with(emu, cluster.bob, "claim", board), timeout=WAIT)
    # Shard 1's edit of bob's DM after bob's claim (alice picks first: it offers him no game
    # button, as no earlier or later one does) stays in transit until released.
    released = emu.hold(
        "PATCH",
        rf"/channels/{bob_dm.channel_id}/messages/{bob_dm.id}$",
        where=lambda body: not any(i.startswith("g:") for i in custom_ids(body)),
    )
    assert told(await click(emu, cluster.bob, board, "claim")) == ""  # shard 1's process
    alice_dm = await emu.wait_for(
        lambda: dm_with(emu, cluster.alice, "pick 1", board), timeout=WAIT
    )
    # alice picks in her DM: shard 0's process commits and shows bob his turn in his DM
    assert told(await click(emu, cluster.alice, alice_dm, "pick 1")) in ("", "you picked: n 1")
    await emu.wait_for(lambda: bob_dm.has_button(label="pick 1"), timeout=WAIT)
    turn = picks_offered(bob_dm.version())[0].split(":")[2]
    shown = len(bob_dm.history)
    released.set()  # shard 1's older edit lands now, over the newer one
    await emu.wait_for(lambda: not bob_dm.has_button(label="pick 1"), timeout=WAIT)
    # ... and shard 1's process, seeing the game moved on, draws bob's DM again at once (not
    # at the next change, nor when the game's wait on bob earns him a ping)
    try:
        await emu.wait_for(lambda: bob_dm.has_button(label="pick 1"), timeout=REDRAWN)
    except TimeoutError:
        since = [(v.edited_at, picks_offered(v)) for v in [*bob_dm.history, bob_dm.version()]]
        raise AssertionError(f"bob's DM was not drawn again: {since[shown - 1 :]}") from None
    assert picks_offered(bob_dm.version())[0].split(":")[2] == turn
    assert told(await click(emu, cluster.bob, bob_dm, "pick 2")) in ("", "you picked: n 2")
    _, log = await stored(cluster, channel)
    assert log == [(1, "claim"), (0, "pick"), (1, "pick")]
    await cancel(cluster, channel)


async def test_a_deadline_fires_once_though_both_processes_hold_the_game(
    cluster: Cluster,
) -> None:
    emu, channel = cluster.emulator, cluster.channels[1]
    board = await start_game(emu, cluster.alice, [cluster.bob], channel, clock="1")
    dm = await emu.wait_for(lambda: dm_with(emu, cluster.alice, "claim", board), timeout=WAIT)
    # the claim through the DM loads the game in shard 0's process too: both hold its clock
    assert told(await click(emu, cluster.alice, dm, "claim")) == ""
    await until_text(emu, board, "new round: round 2")  # alice's clock fired, then bob's
    game_id, log = await stored(cluster, channel)
    assert log == [(0, "claim"), (SYSTEM, "timeout"), (SYSTEM, "timeout")]
    # Each fired once: a second firing of alice's deadline (by the other process) would have
    # timed bob out at once, not after his own clock's second. (Two processes firing one
    # deadline at the same instant commit it once: tests/bot/test_shared_store.py.)
    store = await Store.open(cluster.url, migrate=False)
    try:
        times = [a.at for a in await store.actions(game_id)]
    finally:
        await store.close()
    assert (times[2] - times[1]).total_seconds() >= 0.9
    await cancel(cluster, channel)


async def test_a_process_killed_mid_game_loses_nothing_and_its_games_go_on(
    cluster: Cluster,
) -> None:
    emu, channel = cluster.emulator, cluster.channels[1]
    proc = cluster.procs[1]
    board = await start_game(emu, cluster.alice, [cluster.bob], channel)
    assert told(await click(emu, cluster.bob, board, "claim")) == ""
    await until_text(emu, board, "**to_pick**: 0")
    # The claim's answer updated the board at once (P-45); alice's DM follows from the
    # publisher: it must show her move before the process that sent it is killed.
    dm = await emu.wait_for(lambda: dm_with(emu, cluster.alice, "pick 3", board), timeout=WAIT)
    _, before = await stored(cluster, channel)
    await proc.kill()
    # while shard 1 is down, alice plays on from her DM through shard 0's process
    assert told(await click(emu, cluster.alice, dm, "pick 3")) in ("", "you picked: n 3")
    await proc.start()
    _, after = await stored(cluster, channel)
    assert after[: len(before)] == before and after[len(before) :] == [(0, "pick")]
    await until_text(emu, board, "**to_pick**: 1")
    assert told(await click(emu, cluster.bob, board, "pick 2")) == "you picked: n 2"
    await until_text(emu, board, "**phase**: race")
    _, final = await stored(cluster, channel)
    assert final == [(1, "claim"), (0, "pick"), (1, "pick")]
    await cancel(cluster, channel)
