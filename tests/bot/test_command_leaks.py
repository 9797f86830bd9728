"""No command, button or page answer shows a secret: whole games of all four kinds, at every step,
asked by a member who does not play and by each player (issue #20).

Each game is played with secrets planted in its real state (``tests/support/canaries.py``: Bug
Run's VP tokens and so its true totals raised to six digits and its secret loot, Bugs & Co's
kept and face-down tiles of symbols not in the game, Bug Off!'s hands (each colour held, as a DM
words it), hand and points markers and deck order, every game's seed and RNG state). Its moves
are clicks through the real ``Edge`` and its commands are the real ``/bugs`` callbacks of
``BugsCog``, answered through a stand-in for the Discord interaction that keeps what would have
been sent (content, embed and components as discord.py serialises them). After every step
each asker's answers are scanned:

- ``/bugs status``, ``/bugs hand`` and **My hand**; ``/bugs history``, ``/bugs stats`` (one's own
  and a player's) and ``/bugs leaderboard``, which read only finished games, at the first and
  last step and every ``STORED_EVERY`` in between;
- the answer to a press of a board button (refused for the outsider and for a player the button
  is not for) and the private answer to the move itself (for the player who made it);
- each player's DM (``Presenter.hand``), the public boards and turn ping, and the game page's
  JSON (the current step and the newest moves, through the real web app).

A planted secret counts as known to everyone once the public view or a public event has shown
it; an answer to a seat may show that, and what the seat's own view (or an event of this step
it may see) shows now; an answer to the outsider only what everyone knows. ``test_the_scan_fails_on_a_status_built_from_scores`` shows the scan fails on what
`/bugs status` used to say (every player's ``scores()``, Bug Run's VP tokens included), and
``test_the_scan_fails_when_a_board_shows_a_hand`` that it tells one seat's secrets from another's
(a player's DM is theirs to see, and nobody else's).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

import bot.discord.commands as commands_module
import bot.host.lobby as host_module
from bot.discord.commands import BugsCog
from bot.discord.edge import Edge
from bot.discord.panels import Panel, Panels
from bot.discord.publisher import Publisher
from bot.discord.render import send_kwargs
from bot.games import Game as GameRecord
from bot.host.host import Host
from bot.host.table import Outcome, Table
from bot.host.view import TableView
from bot.settings import Settings
from bot.store import Store
from bot.ui.presenter import presenter_for
from bot.ui.public_log import PublicLog
from bot.web.replays import Replays
from rules.core import GAMES, Event
from tests.support.canaries import (
    PLANT,
    canaries,
    canary_class,
    hand_lines,
    leaked,
    public_text,
    scanned_games,
    seat_text,
)
from tests.support.web import web_client

from .conftest import FakeClock

pytestmark = pytest.mark.sqlite_only("what is answered does not depend on the database")

GUILD = 1
FIRST_USER = 100
OUTSIDER = 999
"""A member of the channel who does not play."""
NAMES = ("Ann", "Bo", "Cy")
GAMES_AND_SEEDS = [(game, 4 + i) for i, game in enumerate(scanned_games())]
"""Each scanned game (tests/support/canaries.py) with a seed of its own."""
TIMER_CHANCE = 0.05
STORED_EVERY = 16
"""Steps between two askings of the commands that read finished games from the store (history,
stats, leaderboard): their answers change only when a game ends, so they are asked at the
first and the last step and every few in between, which keeps the module fast."""


# -- a stand-in for discord.py's Interaction --------------------------------------------------


def sent_text(content: str | None, kwargs: dict[str, Any]) -> str:
    """What Discord would be sent: the content, the embed and the components, as JSON."""
    parts: list[Any] = [content or kwargs.get("content") or ""]
    embeds = [kwargs["embed"]] if kwargs.get("embed") else list(kwargs.get("embeds") or ())
    parts += [e.to_dict() for e in embeds]
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View):
        parts.append(view.to_components())
    return json.dumps(parts, ensure_ascii=False)


class _Response:
    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str | None = None, **kwargs: Any) -> Any:
        self.done = True
        self.answers.append(sent_text(content, kwargs))
        return SimpleNamespace(message_id=1)

    async def defer(self, **kwargs: Any) -> None:
        self.done = True


class _Followup:
    def __init__(self, answers: list[str]) -> None:
        self.answers = answers

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        self.answers.append(sent_text(content, kwargs))
        return SimpleNamespace(id=1)


class Asked:
    """One interaction of one member in the game's channel; ``answers`` is what they were sent."""

    def __init__(self, user_id: int, name: str, channel: int) -> None:
        self.answers: list[str] = []
        self.user = SimpleNamespace(id=user_id, name=name, display_name=name)
        self.channel_id = channel
        self.guild_id = GUILD
        # Made now, as Discord makes an interaction's id: the edge sheds a click that reached
        # it more than 2.75 s after the quickest one lately (P-58), and one fixed id grew
        # older with every step, so after the first seconds every move was shed unplayed.
        self.id = discord.utils.time_snowflake(discord.utils.utcnow())
        self.permissions = None
        self.message = None  # a slash command (a click here comes from no message it updates)
        self.response = _Response(self.answers)
        self.followup = _Followup(self.answers)

    @property
    def interaction(self) -> discord.Interaction[Any]:
        return cast("discord.Interaction[Any]", self)


class _NoPanels(Panels):
    """No panel is kept: every private answer is sent as a new reply, which this test reads
    (a panel's later edits carry the same answers, P-48)."""

    def put(self, panel: Panel) -> None:
        pass


class RepliesKept:
    """The publisher's part the edge and the cog use: replies with buttons are kept (P-27) and
    the board's message id is known. Nothing is sent: the boards are read from the presenter."""

    def track_reply(self, table: Table, reply: object) -> None:
        pass

    def board_message_id(self, game_id: int) -> int | None:
        return 4242

    def dm_shows_hand(self, game_id: int, seat: int) -> bool:
        return False  # the panel shows the whole hand: the answer with the most secrets

    @property
    def panels(self) -> Panels:
        return _NoPanels()

    @contextlib.contextmanager
    def answering(self, game_id: int, message: object) -> Iterator[None]:
        yield

    async def answer_click(self, interaction: object, table: Table) -> bool:
        return False  # acknowledged without an update: the answers are what this test reads

    def clicked_in_channel(self, table: Table, interaction: object) -> None:
        pass  # no pings here

    def clicked_on(self, table: Table, interaction: object) -> None:
        pass  # no edits here


# -- what each asker may know -----------------------------------------------------------------


@dataclass
class Knowledge:
    """The planted secrets everyone knows by now, and those each seat may be shown now: what
    its own view and the events it may see of this step show. A seat is not shown again what
    it saw once and no longer holds (BC-8: a kept tile stays unseen even by its keeper)."""

    players: int
    public: set[str] = field(default_factory=set)
    seats: dict[int, set[str]] = field(default_factory=dict)
    ever_known: set[str] = field(default_factory=set)
    steps: int = 0
    secrets_asked: int = 0

    def learn(self, engine: Any, events: Sequence[Event]) -> set[str]:
        """Take in one step (the state after it and its events); the secrets of the state."""
        secrets = canaries(engine)
        unknown = secrets - self.public
        if unknown:
            shown = public_text(engine.view(None)) + _events_text(events, None)
            self.public |= {s for s in unknown if s in shown}
        for seat in range(self.players):
            unknown = secrets - self.public
            shown = seat_text(engine, seat) + _events_text(events, seat)
            # What a seat once saw of its own it still knows (its hand before a draw, which
            # its DM shows while it chooses, P-8).
            self.seats[seat] = self.seats.get(seat, set()) | {s for s in unknown if s in shown}
            self.ever_known |= self.seats[seat]
        return secrets

    def hidden_from(self, secrets: set[str], seat: int | None) -> set[str]:
        """What an answer to ``seat`` (``None``: the outsider) must not show."""
        known = self.public if seat is None else self.public | self.seats.get(seat, set())
        return secrets - known


def _events_text(events: Sequence[Event], seat: int | None) -> str:
    shown = [e.to_dict() for e in events if e.visible_to(seat)]
    return json.dumps(shown, ensure_ascii=False)


# -- the game, its answers and the scan ---------------------------------------------------------


@dataclass
class Heard:
    """Committed outcomes, as a host listener hears them."""

    outcomes: list[Outcome] = field(default_factory=list)

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        if outcome is not None:
            self.outcomes.append(outcome)


@dataclass
class Game:
    host: Host
    store: Store
    cog: BugsCog
    edge: Edge
    log: PublicLog
    table: Table
    heard: Heard
    client: Any
    knowledge: Knowledge
    answers_scanned: int = 0
    seen_outcomes: int = 0

    @property
    def channel(self) -> int:
        return self.table.game.channel_id

    def asker(self, seat: int | None) -> Asked:
        if seat is None:
            return Asked(OUTSIDER, "Outsider", self.channel)
        return Asked(self.table.user_at(seat).user_id, NAMES[seat], self.channel)

    def member(self, seat: int | None) -> Any:
        return self.asker(seat).user

    async def command(self, name: str, seat: int | None, **params: Any) -> list[str]:
        """A `/bugs` subcommand's answers, its refusals answered as the tree's error handler
        does (``Edge.command_error``)."""
        asked = self.asker(seat)
        group = self.cog.app_command
        assert group is not None
        command = group.get_command(name)
        assert isinstance(command, discord.app_commands.Command), name
        try:
            if command.binding is not None:
                await command.callback(command.binding, asked.interaction, **params)
            else:
                await command.callback(asked.interaction, **params)  # type: ignore[call-arg]
        except Exception as error:
            await self.edge.refuse(asked.interaction, error)
        return asked.answers

    async def press(self, seat: int | None, action: dict[str, Any]) -> list[str]:
        """A click on a game button (board, DM or My hand) by ``seat``: the edge's answer."""
        asked = self.asker(seat)
        engine = self.table.running()
        await self.edge.game_action(asked.interaction, self.table.id, engine.turn, action)
        return asked.answers

    async def host_button(self, seat: int | None, op: str) -> list[str]:
        """A click on a host button (**My hand**) by ``seat``: the edge's answer."""
        asked = self.asker(seat)
        await self.edge.host_op(asked.interaction, self.table.id, op)
        return asked.answers

    def catch_up(self) -> set[str]:
        """Learn from every outcome committed since the last call; the state's secrets."""
        new = self.heard.outcomes[self.seen_outcomes :]
        self.seen_outcomes = len(self.heard.outcomes)
        events = [e for o in new for e in o.events]
        self.knowledge.steps += len(new)
        return self.knowledge.learn(self.table.running(), events)

    def check(self, secrets: set[str], seat: int | None, what: str, texts: Sequence[str]) -> None:
        hidden = self.knowledge.hidden_from(secrets, seat)
        self.knowledge.secrets_asked += len(hidden)
        for text in texts:
            self.answers_scanned += 1
            found = leaked(text, hidden)
            who = "the outsider" if seat is None else f"seat {seat}"
            assert not found, (
                f"{self.table.slug} step {self.knowledge.steps}: {what} to {who} shows {sorted(found)}: {text[:600]}"
            )

    async def scan_step(self, rng: random.Random, secrets: set[str]) -> None:
        """Every answer every asker could get now."""
        table, engine = self.table, self.table.running()
        presenter = presenter_for(table.slug)
        boards = presenter.public_boards(table.view(), self.log.lines(table.id))
        channel = [sent_text(None, send_kwargs(b, table.id, engine.turn)) for b in boards]
        channel.append(presenter.ping_text(table.view(), sorted(engine.waiting_for())))
        self.check(secrets, None, "the channel", channel)
        buttons = [b.action for b in _buttons(boards) if b.action is not None]
        stored = engine.is_over or self.knowledge.steps % STORED_EVERY == 0
        for seat in (None, *range(engine.players)):
            await self.scan_commands(seat, secrets, stored=stored)
            self.check(secrets, seat, "My hand", await self.host_button(seat, "hand"))
            dm = presenter.hand(table.view(), seat) if seat is not None else None
            if dm is not None:
                self.check(secrets, seat, "the DM", [sent_text(None, send_kwargs(dm, 0, 0))])
            refused = [a for a in buttons if seat is None or a not in engine.legal_actions(seat)]
            if refused and not engine.is_over:
                answers = await self.press(seat, rng.choice(refused))
                self.check(secrets, seat, "a refused button", answers)
        steps = self.knowledge.steps
        for path in (f"/steps/{steps}", f"/moves?since={max(0, steps - 3)}"):
            response = await self.client.get(f"/games/{table.game.web_token}{path}")
            assert response.status == 200, path
            self.check(secrets, None, f"the page's {path}", [await response.text()])

    async def scan_commands(self, seat: int | None, secrets: set[str], *, stored: bool) -> None:
        """The commands' answers; ``stored``: those that read only finished games too."""
        asked: list[tuple[str, dict[str, Any]]] = [("status", {}), ("hand", {})]
        if stored:
            asked += [
                ("history", {}),
                ("stats", {}),
                ("stats", {"member": self.member(0)}),
                ("leaderboard", {"game": self.table.slug}),
            ]
        for name, params in asked:
            self.check(secrets, seat, f"/bugs {name}", await self.command(name, seat, **params))


def _buttons(specs: Sequence[Any]) -> list[Any]:
    out = []
    for spec in specs:
        for row in spec.rows:
            out += list(getattr(row, "options", row))
    return out


async def play_and_scan(game: Game, seed: int) -> Knowledge:
    """Random legal clicks (and now and then a deadline) to the end, scanning after each."""
    rng = random.Random(seed)
    table = game.table
    secrets = game.catch_up()
    await game.scan_step(rng, secrets)
    while not table.running().is_over:
        engine = table.running()
        movers = [s for s in sorted(engine.waiting_for()) if engine.legal_actions(s)]
        deadlines = [d for d in engine.deadlines() if d.key in table.timers]
        if deadlines and (not movers or rng.random() < TIMER_CHANCE):
            await game.host.fire_timer(table.id, rng.choice(deadlines).key)
            secrets = game.catch_up()
        else:
            assert movers, f"{table.slug}: nobody can move and no deadline is pending"
            seat, steps = rng.choice(movers), game.knowledge.steps
            answers = await game.press(seat, rng.choice(engine.legal_actions(seat)))
            secrets = game.catch_up()
            assert game.knowledge.steps > steps, f"{table.slug}: a legal move was not taken"
            game.check(secrets, seat, "the answer to a move", answers)
        await game.scan_step(rng, secrets)
    return game.knowledge


# -- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def settings() -> Settings:
    return Settings(_env_file=None, discord_token="t" * 30, timers={"bag_min_gap": 0.0})  # type: ignore[call-arg]


@pytest.fixture
async def game_host(
    store: Store, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Host]:
    for slug in PLANT:
        monkeypatch.setitem(GAMES, slug, canary_class(GAMES[slug]))
    seeds = iter(range(2_000_003, 2_000_103))  # the same games (and secrets) every run
    monkeypatch.setattr(host_module, "secrets", SimpleNamespace(randbits=lambda _n: next(seeds)))
    host = Host(store, settings, clock=clock, sleep=clock.sleep)
    yield host
    await host.close()


@asynccontextmanager
async def new_game(host: Host, store: Store, settings: Settings, slug: str) -> AsyncIterator[Game]:
    """A started game of three members, with the parts of the bot that answer them."""
    log, heard, replays = PublicLog(), Heard(), Replays(store)
    host.listeners += [
        log,
        heard,
        SimpleNamespace(table_changed=lambda t, o: replays.changed(t.id)),
    ]
    publisher = cast(Publisher, RepliesKept())
    edge = Edge(host, publisher, store)
    cog = BugsCog(host=host, store=store, settings=settings, edge=edge, publisher=publisher)
    channel = 800
    table = await host.open(
        slug, guild_id=GUILD, channel_id=channel, user_id=FIRST_USER, name=NAMES[0]
    )
    for seat in range(1, len(NAMES)):
        await host.join(table.id, FIRST_USER + seat, NAMES[seat])
    table = await host.start(table.id, FIRST_USER)
    async with web_client(replays) as client:
        yield Game(host, store, cog, edge, log, table, heard, client, Knowledge(len(NAMES)))


# -- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "seed"), GAMES_AND_SEEDS, ids=lambda v: getattr(v, "slug", None)
)
async def test_no_answer_to_anyone_shows_what_they_may_not_know(
    game_host: Host, store: Store, settings: Settings, record: GameRecord, seed: int
) -> None:
    async with new_game(game_host, store, settings, record.slug) as game:
        knowledge = await play_and_scan(game, seed)
        assert game.table.running().is_over and knowledge.steps > 10
        assert game.answers_scanned > 20 * knowledge.steps
        assert knowledge.secrets_asked > knowledge.steps  # secrets to keep at every step
        if record.hides_anything:  # Bag of Bugs hides nothing but its RNG (BB-21)
            assert knowledge.ever_known, "no seat ever knew a secret of its own"


def status_from_scores(settings: Settings, table: Table, board: int | None) -> str:
    """What `/bugs status` said before issue #20: every player's ``scores()``."""
    engine = table.running()
    names = table.names()
    return f"**{table.title}** — {table.status}\nPlayers: " + ", ".join(
        f"{n} ({sc})" for n, sc in zip(names, engine.scores(), strict=True)
    )


async def test_the_scan_fails_on_a_status_built_from_scores(
    game_host: Host, store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commands_module, "status_text", status_from_scores)
    async with new_game(game_host, store, settings, "bug-run") as game:
        with pytest.raises(AssertionError, match=r"/bugs status to the outsider shows \['6\d{5}'"):
            await play_and_scan(game, 7)


@pytest.mark.parametrize(("slug", "seed"), [("bug-off", 6), ("bug-run", 7)])
async def test_the_scan_fails_when_a_board_shows_a_hand(
    game_host: Host,
    store: Store,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    slug: str,
    seed: int,
) -> None:
    presenter = presenter_for(slug)
    honest = presenter.public_boards

    def leaky(table: TableView, log: Sequence[str] = ()) -> list[Any]:
        return [*honest(table, log), presenter.hand(table, 0)]

    monkeypatch.setattr(presenter, "public_boards", leaky)
    async with new_game(game_host, store, settings, slug) as game:
        engine: Any = game.table.running()
        if slug == "bug-run":
            secret = str(engine.state.seats[0].vp)  # seat 0's VP tokens
        else:
            secret = hand_lines(engine.state.hands[0])[0]  # a colour of seat 0's hand
        with pytest.raises(AssertionError, match=f"the channel to the outsider shows .*{secret}"):
            await play_and_scan(game, seed)
