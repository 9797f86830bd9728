"""No secret reaches the game pages: whole games of every kind, every position, every answer.

Each game runs with secrets planted in its real state, things that only the state (and some
player's own view) ever holds until the rules reveal them:

- every game: its seed and the RNG state (what a served snapshot would show);
- Bug Off!: a marker in every hand and points pile, and the order of the deck's top cards;
- Bugs & Co: five symbols' tiles swapped for five symbols not in the game, whose names
  therefore never appear unless a tile's face is shown;
- Bug Run: every seat's VP tokens raised to a six-digit number, and the ids and names of the
  cards in hands, in the loot being chosen and on top of the loot deck.

At every step k a planted secret counts as secret until the public view or a public event up to
k shows it; then every JSON and HTML answer for step k (and the moves list, and the page) must
not contain it. The tests also show the check catches a leak: the true state and the players'
own views are flagged, and so is a server that adds a player's view to its answers.
"""

from __future__ import annotations

import html
import json
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

import bot.host.host as host_module
import bot.ui.games  # noqa: F401  (the dedicated presenters)
from bot.host.host import Host
from bot.settings import Settings
from bot.store import Store
from bot.web.replays import Replay, Replays
from rules.bug_run import content as bug_run_content
from rules.bugs_and_co.components import SYMBOL_NAMES
from rules.core import GAMES, Engine, Rng
from tests.support.web import open_game, play, web_client

from .conftest import FakeClock

SWAPPED_SYMBOLS = {two_eyed: 15 + two_eyed for two_eyed in range(5)}
"""Bugs & Co: a third of the tiles become one-eyed symbols, which a 3-player game lacks."""
CANARY_NAMES = tuple(SYMBOL_NAMES[s] for s in SWAPPED_SYMBOLS.values())
VP_CANARY = 600_000


def _plant_bug_off(game: Any) -> None:
    for seat in range(game.players):
        game.hands[seat][f"canary-hand-{seat}"] = 0
        game.points[seat][f"canary-points-{seat}"] = 0


def _plant_bugs_and_co(game: Any) -> None:
    swap = {
        old * 3 + copy: new * 3 + copy for old, new in SWAPPED_SYMBOLS.items() for copy in range(3)
    }
    game.slots = [None if t is None else swap.get(t, t) for t in game.slots]
    game.removed = sorted(swap.get(t, t) for t in game.removed)


def _plant_bug_run(game: Any) -> None:
    for seat, row in enumerate(game.state.seats):
        row.vp += VP_CANARY + 10_000 * seat


PLANT: dict[str, Callable[[Any], None]] = {
    "bag-of-bugs": lambda game: None,  # everything is public (BB-21) but the RNG
    "bug-off": _plant_bug_off,
    "bugs-and-co": _plant_bugs_and_co,
    "bug-run": _plant_bug_run,
}


def canary_class(base: type[Engine]) -> type[Engine]:
    """The real engine, with secrets planted into every new game's state."""

    class Canary(base):  # type: ignore[valid-type, misc]
        @classmethod
        def new(cls, players: int, seed: int, options: Any = None) -> Any:
            game = super().new(players, seed, options)
            PLANT[base.slug](game)
            return game

    Canary.__name__ = f"Canary{base.__name__}"
    return Canary


def canaries(engine: Any) -> set[str]:
    """The planted (and a few natural) secrets of this state, as they would appear in text."""
    state = engine.to_dict()
    found = {str(engine.seed)} | {str(n) for n in state["rng"] if abs(n) >= 100_000}
    if engine.slug == "bug-off":
        found |= {k for hand in engine.hands for k in hand if k.startswith("canary")}
        found |= {k for pile in engine.points for k in pile if k.startswith("canary")}
        if len(engine.deck) >= 4:
            found.add(json.dumps(engine.deck[:4])[1:-1])  # the order of the top four cards
    elif engine.slug == "bugs-and-co":
        found |= set(CANARY_NAMES)
    elif engine.slug == "bug-run":
        s = engine.state
        found |= {str(row.vp) for row in s.seats}
        cards = [c for row in s.seats for c in row.hand] + list(s.limbo)
        cards += s.loot.deck[:1]
        found |= {json.dumps(c) for c in cards}  # a card id as JSON shows it
        found |= {bug_run_content.card_name(c) for c in cards}
    return found


def _public_text(view: dict[str, Any]) -> str:
    """The public view as text, with what its numbers stand for where a board names them."""
    text = json.dumps(view, ensure_ascii=False)
    result = view.get("result") if view.get("game") == "bugs-and-co" else None
    if result:  # the end reveals every hand and the box (BC-17), by symbol
        shown = [s for hand in result["hands"] for s in hand] + list(result["removed"])
        text += " ".join(SYMBOL_NAMES[s] for s in shown)
    return text


def haystack(text: str) -> str:
    """The text, and every string in it as a reader sees it (JSON and HTML escapes undone)."""
    parts = [text]
    try:
        parts += [html.unescape(s) for s in _strings(json.loads(text))]
    except ValueError:
        parts.append(html.unescape(text))
    return "\n".join(parts)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


def leaked(text: str, secrets: set[str]) -> set[str]:
    seen = haystack(text)
    return {s for s in secrets if s in seen}


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
            public = _public_text(engine.view(None)) + "".join(public_events)
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
    return Settings(_env_file=None, discord_token="t" * 30, bag_min_gap=0.0)  # type: ignore[call-arg]


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


@pytest.mark.parametrize("slug", sorted(PLANT))
async def test_no_secret_of_a_whole_game_reaches_the_pages(
    host: Host, store: Store, slug: str
) -> None:
    report = await scan(host, store, slug, seed=21, channel=900)
    assert report.steps > 10 and report.secrets > report.steps  # secrets at every step
    assert report.caught_in_state == report.steps + 1  # a served snapshot would be caught
    if slug != "bag-of-bugs":  # Bag of Bugs hides nothing from anyone (BB-21)
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
