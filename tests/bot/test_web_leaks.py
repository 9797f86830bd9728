"""No secret reaches the game pages: whole games of every kind, every position, every answer.

Each game runs with secrets planted in its real state (``tests/support/canaries.py``: seeds
and RNG state, Bug Off! hand and points markers and deck order, Bugs & Co tiles of symbols not in
the game, Bug Run VP tokens and totals raised to six digits and its secret loot).

At every step k a planted secret counts as secret until the public view or a public event up to
k shows it; then every JSON and HTML answer for step k (and the moves list, and the page) must
not contain it. The tests also show the check catches a leak: the true state and the players'
own views are flagged, and so is a server that adds a player's view to its answers.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

import bot.host.lobby as host_module
from bot.games import Game as GameRecord
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from bot.web.replays import Replay, Replays
from rules.core import GAMES, Rng
from tests.support.canaries import (
    PLANT,
    canaries,
    canary_class,
    leaked,
    public_text,
    scanned_games,
)
from tests.support.web import open_game, play, web_client

from .conftest import FakeClock


@dataclass
class Scan:
    steps: int = 0
    secrets: int = 0
    caught_in_state: int = 0
    caught_in_seat_views: int = 0
    per_step: list[set[str]] = field(default_factory=list)


async def scan(host: Host, store: Store, slug: str, seed: int, channel: int) -> Scan:
    """Play a whole game, then read every answer the pages give about it and fail on a leak."""
    table = await open_game(host, slug, 3, channel=channel)
    await play(host, table, Rng(seed))
    record = await store.get_game(table.id)
    assert record is not None and record.status == "finished"
    actions = await store.actions(table.id)
    token = record.web_token
    engine = GAMES[slug].new(3, record.seed, record.options)
    public_events: list[str] = []
    report = Scan(steps=len(actions))
    async with web_client(Replays(store)) as client:
        for k in range(len(actions) + 1):
            if k:
                events = engine.apply(actions[k - 1].seat, actions[k - 1].action)
                data = [e.data for e in events if e.is_public]
                public_events.append(json.dumps(data, ensure_ascii=False))
            public = public_text(engine.view(None)) + "".join(public_events)
            secrets = {c for c in canaries(engine) if c not in public}
            report.per_step.append(secrets)
            report.secrets += len(secrets)
            response = await client.get(f"/games/{token}/steps/{k}")
            assert response.status == 200
            found = leaked(await response.text(), secrets)
            assert not found, f"{slug} step {k} serves {found}"
            # The check can fail: the state itself, and players' own views, hold the secrets.
            if leaked(json.dumps(engine.to_dict()), secrets):
                report.caught_in_state += 1
            if any(leaked(json.dumps(engine.view(s)), secrets) for s in range(3)):
                report.caught_in_seat_views += 1
        summary = await client.get(f"/games/{token}/moves")
        for move in (await summary.json())["moves"]:
            found = leaked(json.dumps(move), report.per_step[move["step"]])
            assert not found, f"{slug} move {move['step']} says {found}"
        every = set().union(*report.per_step)
        for path in (f"/games/{token}", f"/games/{token}/moves?since=999999"):
            found = leaked(await (await client.get(path)).text(), every)
            assert not found, f"{slug} {path} shows {found}"
    return report


@pytest.fixture
def settings() -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0})  # type: ignore[call-arg]


@pytest.fixture
async def host(
    store: Store, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Host]:
    for slug in PLANT:
        monkeypatch.setitem(GAMES, slug, canary_class(GAMES[slug]))
    # Fixed game seeds, so the same games (and the same planted secrets) are played each run.
    seeds = iter(range(1_000_003, 1_000_103))
    monkeypatch.setattr(host_module, "secrets", SimpleNamespace(randbits=lambda _n: next(seeds)))
    host = Host(store, settings, clock=clock)
    yield host
    await host.close()


@pytest.mark.parametrize("record", scanned_games(), ids=lambda record: record.slug)
async def test_no_secret_of_a_whole_game_reaches_the_pages(
    host: Host, store: Store, record: GameRecord
) -> None:
    report = await scan(host, store, record.slug, seed=21, channel=900)
    assert report.steps > 10 and report.secrets > report.steps  # secrets at every step
    assert report.caught_in_state == report.steps + 1  # a served snapshot would be caught
    if record.hides_anything:  # Bag of Bugs hides nothing from anyone (BB-21)
        assert report.caught_in_seat_views > 0, "a served player's view would be caught"


async def test_the_scan_fails_when_the_server_shows_a_players_view(
    host: Host, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = Replay.frame

    def leaky(self: Replay, step: int) -> dict[str, Any]:
        frame = honest(self, step)
        frame["view"] = self.engine_at(step).view(0)
        return frame

    monkeypatch.setattr(Replay, "frame", leaky)
    with pytest.raises(AssertionError, match="serves"):
        await scan(host, store, "bug-off", seed=21, channel=901)
