"""Bug Off! end to end, through the emulator and the real bot process.

Whole games are played by clicks only: the active player presses **Draw** on the board, then
**Place** or **Score** in the hand they were given (the ephemeral reply to the draw, their newest
DM, or, with DMs closed, **My hand** / ``/bugs hand``). The game seed is random, so the tests
play whatever comes and read the truth from the database.

The leak scan (``scan``) reads everything every member could ever see, every version of every
message, and checks it against the true state of the game at every step (rebuilt by replaying
the stored log, and cross-checked against the snapshots read from the database while the bot was
running). ``planted_leaks_are_caught`` plants leaks into a real transcript to prove that the
scan can fail. Leaks planted by hand in the presenter (a hand on the board, in chips or bare; the
drawn colour in the log; another seat's hand in a DM; points colours on the board) failed it too
when it was written.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.emulator.models import Message, MessageVersion, walk_components
from bot.store import Store
from bot.ui.games.bug_off import EMOJI as GLYPHS
from bot.ui.games.bug_off import BugOffPresenter
from bot.ui.games.bug_off import counts as glyph_counts
from bot.ui.marks import LETTERS, lettered
from rules.bug_off import COLOURS
from rules.core import SYSTEM, get_game, replay

from .conftest import World
from .helpers import SILENT, WAIT, click, dms_ever, private, start_game, told, until_text

GAME = "bug-off"
LOG_LINES = BugOffPresenter.board_log_lines
"""Log lines a Bug Off! board shows."""
FAST = {"board_edit_interval": 0.01}
"""Board edits are coalesced every 10 ms instead of 50 ms: whole games stay quick."""
SAMPLE = 3
"""Read the stored snapshot after every third turn (a read costs about as much as a click)."""

TURN_OF = re.compile(r"▶ \*\*(?P<name>[^*\n]+)\*\*'s turn: draw a card\.")
GAME_ID = re.compile(r"^g:(?P<game>\d+):(?P<turn>\d+):(?P<action>\{.*\})$")
EMOJI = {colour: lettered(glyph) for colour, glyph in GLYPHS.items()}
"""Each colour's chip as members read it: its square and its letter (``🟥R``, P-53)."""
CHIP = "(?:" + "|".join(f"{glyph}{LETTERS[glyph]}?+" for glyph in GLYPHS.values()) + ")"
"""A chip, lettered or (a leak the scans must still see) bare; its letter is taken whole
(possessive), so ``🟥R×2`` never reads as a bare ``🟥``."""


def counts(pile: dict[str, int], *args: Any, **kwargs: Any) -> str:
    """A pile's chip run as members read it (``🟥R×3 🟦B×1``)."""
    return lettered(glyph_counts(pile, *args, **kwargs))


COLOUR_OF = {
    **{glyph: colour for colour, glyph in GLYPHS.items()},
    **{chip: colour for colour, chip in EMOJI.items()},
}
COLOUR_WORD = re.compile(r"\b(?:" + "|".join(COLOURS) + r")s?\b", re.IGNORECASE)
BARE = re.compile(rf"({CHIP})(?!×)")
RUN = re.compile(rf"{CHIP}×\d+(?: {CHIP}×\d+)*")
HAND_LINE = re.compile(rf"({CHIP}) ({'|'.join(COLOURS)}) ×(\d+)")
HAND_SIZE = re.compile(r"Your hand \((\d+)\)")
YOU_DREW = re.compile(rf"You drew ({CHIP}) \*\*(\w+)\*\*")
MY_POINTS = re.compile(r"Your points pile \((\d+)\)[^:\n]*: ?([^\n]*)")
MY_TABLEAU = re.compile(r"Face up in front of you: ?([^\n]*)")
OWNER = re.compile(r"Game #\d+ · (.+?) · only you can see this")
PRIVATE = re.compile(
    r"your hand \(|— your hand|— your cards|you drew|your points pile|only you can see",
    re.IGNORECASE,
)
"""What marks a message as someone's private hand (the board's footer says "your cards"
privately, which is not a mark: it names no card)."""
SECRET_DRAW = re.compile(r"(?<!You )\bdrew\b(?! a card| the \w+ BUG OFF| for them)")
"""``drew`` followed by anything but the public forms names the drawn card."""


def turn_of(custom_id: str | None) -> int | None:
    match = GAME_ID.match(custom_id or "")
    return int(match["turn"]) if match else None


def log_line(text: str, start: str) -> str:
    """The board's log line that starts with ``start`` (the first one carries the field name)."""
    lines = [ln.removeprefix("Log: ") for ln in text.splitlines()]
    found = [ln for ln in lines if ln.startswith(start)]
    assert found, (start, text)
    return found[-1]


def game_buttons(message: Message, turn: int) -> list[Any]:
    """The Place/Score buttons of ``message`` that belong to ``turn``."""
    return [
        b
        for b in message.buttons()
        if (b.label or "").startswith(("Place ", "Score ")) and turn_of(b.custom_id) == turn
    ]


# -- the truth ------------------------------------------------------------------------------


@dataclass
class Truth:
    """Every state of a game (index = step = turn) and what anybody may see of it."""

    players: int
    names: list[str]
    states: list[dict[str, Any]]
    public_at: list[set[str]] = field(default_factory=list)
    """Per step: the chip runs (``🟥×2 🟦×1``) that show a public pile then (a tableau, the
    score pile, the wiped-out pile) or that the log may still show (a placed colour's face-up
    count, one seat's wipe by a BUG OFF)."""
    public_ever: set[str] = field(default_factory=set)
    bare_at: list[set[str]] = field(default_factory=list)
    """Per step: the colours a public text may show as a bare chip (``🟥``, no count): the
    BUG OFF stack, and the colours the log may still show placed, scored or drawn as BUG OFF."""
    final_runs: set[str] = field(default_factory=set)
    """The points piles as the results show them (only allowed once the game is over)."""
    own_runs: list[set[str]] = field(default_factory=list)
    """Per seat: its own hand and points pile as chip runs, at any step."""

    @classmethod
    def build(cls, slug: str, names: list[str], seed: int, options: Any, log: list[Any]) -> Truth:
        engine = get_game(slug).new(len(names), seed, options)
        truth = cls(len(names), names, [engine.to_dict()])
        # The runs each action's log lines show; the board's log keeps LOG_LINES lines, and
        # every action writes at least one, so only the last LOG_LINES actions can be shown.
        logged: list[set[str]] = []
        named: list[set[str]] = []  # the colours each action's log lines name
        for seat, action in log:
            runs: set[str] = set()
            events = engine.apply(seat, action)
            named.append({e.data["colour"] for e in events if e.is_public and "colour" in e.data})
            for event in events:
                if event.is_public and event.type == "placed":
                    runs.add(f"{EMOJI[event.data['colour']]}×{event.data['count']}")
                elif event.is_public and event.type == "bug_off":
                    by_seat: dict[int, list[str]] = {}
                    for w in event.data["wiped"]:
                        chip = f"{EMOJI[w['colour']]}×{w['count']}"
                        by_seat.setdefault(w["seat"], []).append(chip)
                    runs.update(" ".join(parts) for parts in by_seat.values())
            truth.states.append(engine.to_dict())
            logged.append(runs)
        truth.own_runs = [set() for _ in names]
        for step, state in enumerate(truth.states):
            assert state["step"] == step
            piles = [*state["tableaux"], state["score_pile"], state["discard"]]
            window = slice(max(0, step - LOG_LINES), step)
            recent = set().union(*logged[window])
            truth.public_at.append(recent | {counts(pile) for pile in piles})
            truth.bare_at.append(set(state["bug_offs"]).union(*named[window]))
            truth.public_ever |= truth.public_at[step]
            for seat in range(truth.players):
                truth.own_runs[seat].add(counts(state["hands"][seat]))
                truth.own_runs[seat].add(counts(state["points"][seat]))
        end = truth.states[-1]
        if end["phase"] == "over":
            order = [*end["bug_offs"], *(c for c in COLOURS if c not in end["bug_offs"])]
            truth.final_runs = {counts(p, order, zeros=True) for p in end["points"]}
        return truth


@dataclass
class Seen:
    """One version of one message as one member saw it."""

    viewer: str
    seat: int | None
    own: bool
    """In the viewer's DMs or ephemeral to the viewer (nobody else could see it)."""
    text: str
    labels: list[str]
    custom_ids: list[str]
    where: str


def everything_seen(world: World, truth: Truth) -> list[Seen]:
    emu = world.emulator
    users = [world.alice, world.bob, world.carol, world.dave, world.eve, world.mod, world.shy]
    out: list[Seen] = []
    for user in users:
        seat = truth.names.index(user.name) if user.name in truth.names else None
        for message in emu.visible_to(user, include_deleted=True):
            own = message.ephemeral_to is user or message.channel.recipient is user
            versions: list[MessageVersion] = [*message.history, message.version()]
            for number, version in enumerate(versions):
                comps = list(walk_components(version.components))
                out.append(
                    Seen(
                        viewer=user.name,
                        seat=seat,
                        own=own,
                        text=version.text(),
                        labels=[str(c["label"]) for c in comps if c.get("label")],
                        custom_ids=[str(c["custom_id"]) for c in comps if c.get("custom_id")],
                        where=f"{message!r} v{number}",
                    )
                )
    return out


def parse_chips(text: str) -> dict[str, int]:
    out = dict.fromkeys(COLOURS, 0)
    for chip, n in re.findall(rf"({CHIP})×(\d+)", text):
        out[COLOUR_OF[chip]] += int(n)
    return out


def own_private_problems(seen: Seen, truth: Truth) -> list[str]:
    """A private hand must be the viewer's own, exactly as it was at one step of the game."""
    if seen.seat is None:
        return ["a member who is not playing was shown a hand"]
    problems = []
    owner = OWNER.search(seen.text)
    if owner and owner[1] != seen.viewer:
        problems.append(f"{seen.viewer} was shown {owner[1]}'s private message")
    claims: dict[str, Any] = {}
    lines = HAND_LINE.findall(seen.text)
    if lines or HAND_SIZE.search(seen.text):
        hand = dict.fromkeys(COLOURS, 0)
        for chip, colour, n in lines:
            if COLOUR_OF[chip] != colour:
                problems.append(f"hand line {chip} {colour} mixes colours")
            hand[colour] += int(n)
        size = HAND_SIZE.search(seen.text)
        if size and int(size[1]) != sum(hand.values()):
            problems.append(f"the hand says {size[1]} cards but lists {sum(hand.values())}")
        claims["hand"] = hand
    drew = YOU_DREW.search(seen.text)
    if drew:
        if COLOUR_OF[drew[1]] != drew[2]:
            problems.append(f"drawn card {drew[1]} {drew[2]} mixes colours")
        claims["drawn"] = drew[2]
    points = MY_POINTS.search(seen.text)
    if points:
        claims["points"] = parse_chips(points[2])
        if int(points[1]) != sum(claims["points"].values()):
            problems.append("the points pile size does not match its cards")
    tableau = MY_TABLEAU.search(seen.text)
    if tableau:
        claims["tableau"] = parse_chips(tableau[1])
    turns = {t for t in map(turn_of, seen.custom_ids) if t is not None}
    steps = turns if turns else range(len(truth.states))
    seat = seen.seat

    def held(state: dict[str, Any]) -> bool:
        """The claimed hand is the seat's, or (in its DM, while it chooses what to do with a
        drawn card, which the answer to Draw shows) the seat's but for that card."""
        hand = state["hands"][seat]
        if hand == claims["hand"]:
            return True
        drawn = state["drawn"] if state["active"] == seat and "drawn" not in claims else None
        return drawn is not None and {**hand, drawn: hand[drawn] - 1} == claims["hand"]

    def fits(state: dict[str, Any]) -> bool:
        return (
            ("hand" not in claims or held(state))
            and ("points" not in claims or state["points"][seat] == claims["points"])
            and ("tableau" not in claims or state["tableaux"][seat] == claims["tableau"])
            and (
                "drawn" not in claims
                or (state["active"] == seat and state["drawn"] == claims["drawn"])
            )
        )

    if claims and not any(s < len(truth.states) and fits(truth.states[s]) for s in steps):
        problems.append(
            f"{seen.viewer} (seat {seat}) was shown {claims} at turn(s) {sorted(turns) or 'any'}, "
            "which was never their own hand"
        )
    return problems


def scan(seen_all: Iterable[Seen], truth: Truth) -> list[str]:
    """Every way a member could have learnt another player's hand, drawn card or points colours
    before the end. Returns the violations (empty when nothing leaked)."""
    violations: list[str] = []
    for seen in seen_all:
        problems: list[str] = []
        final = "game over" in seen.text
        private = bool(PRIVATE.search(seen.text))
        if private and not seen.own:
            problems.append("a private hand is shown where others can see it")
        elif private:
            problems.extend(own_private_problems(seen, truth))
        # A version with game buttons shows one step: its public runs must be that step's.
        turns = {t for t in map(turn_of, seen.custom_ids) if t is not None}
        if len(turns) == 1 and min(turns) < len(truth.states):
            allowed = [truth.public_at[min(turns)]]
        else:
            allowed = [truth.public_ever]
        if final:
            allowed.append(truth.final_runs)
        if seen.own and seen.seat is not None:
            allowed.append(truth.own_runs[seen.seat])
        for run in RUN.findall(seen.text):
            if not any(run in runs for runs in allowed):
                problems.append(f"{run} is no public pile at turn(s) {sorted(turns) or 'any'}")
        if SECRET_DRAW.search(seen.text):
            problems.append(f"a drawn card is named: {SECRET_DRAW.search(seen.text)!r}")
        if not seen.own:
            words = COLOUR_WORD.findall(" ".join([seen.text, *seen.labels]))
            if words:
                problems.append(f"colours named in public: {words}")
            if any('"colour"' in cid for cid in seen.custom_ids):
                problems.append("a public button carries a card colour")
            if len(turns) == 1 and min(turns) < len(truth.states):
                bare = {COLOUR_OF[c] for c in BARE.findall(seen.text)}
                if bare - truth.bare_at[min(turns)]:
                    problems.append(f"colours {bare - truth.bare_at[min(turns)]} shown bare")
        violations.extend(f"{seen.viewer} saw {seen.where}: {p}" for p in problems)
    return violations


def planted_leaks_are_caught(seen_all: list[Seen], truth: Truth) -> None:
    """The scan must fail on leaks planted into this game's real transcript: a test that
    cannot fail proves nothing."""
    assert truth.names == ["alice", "bob"]

    def board(step: int, line: str) -> Seen:
        draw = f'g:1:{step}:{{"type":"draw"}}'
        return Seen("carol", None, False, f"🐞 Bug Off!\n{line}", ["Draw"], [draw], "plant")

    # 1. The board shows the active player's hand, or a points pile, in chips. The scan judges
    # runs by content: it must flag exactly the plants that show no public pile of that turn,
    # and those are most of them (a hand rarely equals a tableau of the same turn).
    hands = [(k, counts(s["hands"][s["active"]])) for k, s in enumerate(truth.states[:-1])]
    piles = [
        (k, counts(s["points"][seat]))
        for k, s in enumerate(truth.states[:-1])
        for seat in range(2)
        if any(s["points"][seat].values())
    ]
    for plants, line in ((hands, "▶ Face up: —\nHand: {}"), (piles, "Points: {}")):
        expected = [run not in truth.public_at[k] for k, run in plants]
        assert [bool(scan([board(k, line.format(run))], truth)) for k, run in plants] == expected
        assert sum(expected) > len(plants) / 2, (sum(expected), len(plants))
    # ... or as bare chips: caught unless every colour is on the stack or in the recent log.
    bare = [
        (k, "".join(EMOJI[c] * n for c, n in s["hands"][s["active"]].items()))
        for k, s in enumerate(truth.states[:-1])
    ]
    expected = [
        not {COLOUR_OF[c] for c in BARE.findall(chips)} <= truth.bare_at[k] for k, chips in bare
    ]
    assert [bool(scan([board(k, f"Hand: {chips}")], truth)) for k, chips in bare] == expected
    assert any(expected)
    # 2. The log names the drawn card, in chips or in words.
    for text in ("🃏 alice drew 🟨 (40 left)", "alice drew yellow"):
        assert scan([board(0, text)], truth), text
    # 3. Hands in words in public.
    assert scan([board(0, "bob is holding red and blue")], truth)

    # 4. A member is shown another member's private hand (DM or ephemeral).
    private = [x for x in seen_all if x.own and x.seat == 0 and OWNER.search(x.text)]
    assert private, "alice never saw her hand"
    for x in private[:20]:
        # in the channel
        assert scan([Seen("carol", None, False, x.text, x.labels, x.custom_ids, "plant")], truth)
        # in bob's DMs, as sent, and with bob's name written over alice's
        assert scan([Seen("bob", 1, True, x.text, x.labels, x.custom_ids, "plant")], truth)
    swapped = [
        Seen("bob", 1, True, x.text.replace("· alice ·", "· bob ·"), x.labels, x.custom_ids, "")
        for x in private
    ]
    differs = [
        x
        for x in swapped
        if (k := next((t for t in map(turn_of, x.custom_ids) if t is not None), None)) is not None
        and truth.states[k]["hands"][0] != truth.states[k]["hands"][1]
    ]
    assert differs and all(scan([x], truth) for x in differs)


# -- playing --------------------------------------------------------------------------------


@dataclass
class Game:
    """A running game, driven by clicks, with the stored snapshots read as it goes."""

    world: World
    board: Message
    users: list[Any]
    store: Store
    rng: random.Random
    live: dict[int, dict[str, Any]] = field(default_factory=dict)
    turns: int = 0
    used: dict[str, int] = field(default_factory=dict)

    @property
    def emu(self) -> Any:
        return self.world.emulator

    async def record(self) -> dict[str, Any]:
        game = await self.store.active_game_in_channel(self.world.channel.id)
        if game is None:
            (game,) = await self.store.finished_games()
        assert game.snapshot is not None
        self.live[game.snapshot["step"]] = game.snapshot
        return game.snapshot

    async def ready(self, since: int) -> tuple[Any, int] | None:
        """Wait until the board offers Draw for turn ``since`` or later; ``None`` once over."""
        board = self.board
        names = {u.name: u for u in self.users}

        def check() -> tuple[Any, int] | bool | None:
            if "game over" in board.text():
                return True
            if not board.has_button(label="Draw"):
                return None
            draw = board.find_button(label="Draw")
            turn = turn_of(draw.custom_id)
            if draw.disabled or turn is None or turn < since:
                return None
            match = TURN_OF.search(board.text())
            return (names[match["name"]], turn) if match else None

        try:
            got = await self.emu.wait_for(check, timeout=WAIT)
        except TimeoutError:
            raise AssertionError(
                f"the board never offered Draw for turn {since}+:\n{board.text()}"
            ) from None
        return None if got is True else got

    async def hand_for(self, user: Any, turn: int, draw_reply: Message, how: str) -> Message:
        """Where ``user`` finds their Place/Score buttons for ``turn`` (the step after Draw)."""
        emu = self.emu
        self.used[how] = self.used.get(how, 0) + 1
        if how == "reply":
            return draw_reply
        if how == "my_hand":
            result = await click(emu, user, self.board, "My hand")
        else:
            result = await emu.slash(user, self.world.channel, "bugs hand")
        hand = private(result)
        assert hand is not None, result
        return hand

    async def play_turn(self, since: int, how: Callable[[Any], str]) -> int | None:
        """One whole turn by clicks; the turn it ended on, or ``None`` if the game is over."""
        ready = await self.ready(since)
        if ready is None:
            return None
        user, turn = ready
        result = await click(self.emu, user, self.board, "Draw")
        reply = private(result)
        assert reply is not None, result
        if not reply.buttons():
            assert "the game is over" in reply.text(), reply.text()
            return None
        assert "You drew" in reply.text()
        hand = await self.hand_for(user, turn + 1, reply, how(user))
        choices = game_buttons(hand, turn + 1)
        assert choices, hand.text()
        done = await self.emu.click(user, hand, self.rng.choice(choices))
        assert done.type in SILENT and not done.followups, told(done)
        self.turns += 1
        if self.turns % SAMPLE == 0:
            snapshot = await self.record()
            assert snapshot["step"] == turn + 2
        return turn + 2

    async def play_to_end(self, how: Callable[[Any], str], since: int = 0) -> None:
        turn: int | None = since
        while turn is not None:
            turn = await self.play_turn(turn, how)
        await until_text(self.emu, self.board, "game over")


async def new_game(world: World, users: list[Any], seed: int) -> Game:
    board = await start_game(world.emulator, users[0], users[1:], world.channel, GAME)
    store = await Store.open(world.bot.db_url, migrate=False)
    game = Game(world, board, users, store, random.Random(seed))
    await game.record()
    return game


async def finish_and_check(game: Game) -> Truth:
    """The stored results, the replay of the stored log, and the leak scan of the whole game."""
    store = game.store
    (record,) = await store.finished_games()
    assert record.snapshot is not None
    names = [u.name for u in game.users]
    seats = sorted(await store.seats(record.id), key=lambda s: s.seat or 0)
    assert [s.name for s in seats] == names
    log = [(a.seat, a.action) for a in await store.actions(record.id)]
    engine = replay(record.slug, record.players or 0, record.seed, record.options, log)
    assert engine.to_dict() == record.snapshot
    assert engine.is_over

    results = {r.seat: r for r in await store.results(record.id)}
    assert sorted(results) == list(range(len(names)))
    winners = engine.winners()
    for seat, result in results.items():
        assert result.user_id == game.users[seat].id
        assert result.score == engine.scores()[seat] == result.breakdown["total"]
        assert result.winner == (seat in winners)
        assert (result.rank == 1) == (seat in winners)
        assert result.breakdown == engine.score_breakdown(seat)
    board = game.board.text()
    best = max(engine.scores())
    shown = [f"**{names[s]}**" for s in winners]
    won = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    verb = "wins" if len(shown) == 1 else "share the win"
    assert f"🏆 {won} {verb} with **{best}** points!" in board, board
    for seat, name in enumerate(names):
        assert f"{name} — {engine.scores()[seat]} point" in board

    truth = Truth.build(record.slug, names, record.seed, record.options, log)
    assert len(game.live) >= game.turns // SAMPLE
    for step, snapshot in game.live.items():
        assert truth.states[step] == snapshot, f"stored snapshot at step {step} differs"
    assert scan(everything_seen(game.world, truth), truth) == []
    return truth


def mixed(game: Game) -> Callable[[Any], str]:
    return lambda user: game.rng.choice(["reply", "reply", "my_hand"])


# -- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_six_player_game_played_by_clicks(world: World) -> None:
    w = world
    game = await new_game(w, [w.alice, w.bob, w.carol, w.dave, w.eve, w.mod], seed=6)
    try:
        await game.play_to_end(mixed(game))
        truth = await finish_and_check(game)
        # The last turn ping went with the game (P-28).
        await w.emulator.wait_for(
            lambda: (
                not any(
                    m.content.startswith("🔔 <@") for m in w.emulator.channel_messages(w.channel)
                )
            ),
            timeout=WAIT,
        )
        # Every player had turns, and got one DM for the whole game (P-8), their own, edited in
        # place to the end.
        assert {s["active"] for s in truth.states[:-1]} == set(range(6))
        for user in game.users:
            (dm,) = dms_ever(w.emulator, user)
            assert user.name in dm.all_text() and len(dm.history) >= 2
            await w.emulator.wait_for(lambda dm=dm: "The game is over" in dm.text(), timeout=WAIT)
            # Every private reply (the hand after a Draw) lost its buttons once used up (P-27).
            replies = [m for m in w.emulator.ephemerals(user) if "You drew" in m.all_text()]
            await w.emulator.wait_for(
                lambda r=replies: not any(m.buttons() for m in r), timeout=WAIT
            )
    finally:
        await game.store.close()


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_closed_dms_a_whole_game_through_the_fallback(world: World) -> None:
    emu, shy = world.emulator, world.shy
    game = await new_game(world, [world.alice, shy], seed=3)
    try:

        def notices() -> list[Message]:
            return [
                m
                for m in emu.channel_messages(world.channel)
                if "can't send you direct messages" in m.text()
            ]

        await emu.wait_for(notices, timeout=WAIT)
        (notice,) = notices()
        assert f"<@{shy.id}>" in notice.content
        assert "My hand" in notice.text() and "/bugs hand" in notice.text()
        assert not RUN.search(notice.all_text()) and not COLOUR_WORD.search(notice.all_text())
        assert not PRIVATE.search(notice.all_text())

        # Before anyone draws, "My hand" shows the three cards dealt.
        dealt = await click(emu, shy, game.board, "My hand")
        dealt_panel = private(dealt)
        assert dealt_panel is not None and "Your hand (3)" in told(dealt)
        if game.live[0]["active"] == 0:  # alice's turn: nothing to press, and no DM promised
            assert "Not your turn yet: the board shows whose turn it is." in told(dealt)
            assert not dealt_panel.buttons()

        shy_turns = iter(range(10_000))
        ways = ("reply", "my_hand", "slash")

        def how(user: Any) -> str:
            return ways[next(shy_turns) % 3] if user is shy else "reply"

        await game.play_to_end(how)
        assert all(game.used[w] for w in ways), game.used
        assert emu.dms(shy) == []
        assert notices() == [notice]
        await finish_and_check(game)
    finally:
        await game.store.close()


# -- the turn clock -------------------------------------------------------------------------


@pytest.mark.parametrize("world", [{**FAST, "timers__bugoff_turn": 1.5}], indirect=True)
async def test_the_turn_clock_plays_the_default_and_says_so(world: World) -> None:
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=4)
    try:
        record = await game.store.active_game_in_channel(world.channel.id)
        assert record is not None
        seed, options = record.seed, record.options
        start = replay(GAME, 2, seed, options, []).to_dict()
        sleeper = game.users[start["active"]]
        # Nobody draws: the clock draws for the active player and places the card drawn.
        text = await until_text(emu, game.board, "ran out of time", timeout=WAIT)
        line = log_line(text, f"⏰ {sleeper.name} ran out of time: drew a card (")
        stored = [(a.seat, a.action) for a in await game.store.actions(record.id)]
        assert stored[0] == (SYSTEM, {"type": "timeout", "turn": 0})
        first = replay(GAME, 2, seed, options, stored[:1]).to_dict()
        placed = [c for c in COLOURS if first["tableaux"][start["active"]][c]]
        assert len(placed) == 1 and f"placed {EMOJI[placed[0]]}" in line
        assert first["hands"][start["active"]] == start["hands"][start["active"]]

        # The other player draws in time, then lets the clock place the drawn card.
        ready = await game.ready(1)
        assert ready is not None
        user, turn = ready
        assert turn == 1 and user is not sleeper
        drew = await click(emu, user, game.board, "Draw")
        panel = private(drew)
        assert panel is not None
        drawn = YOU_DREW.search(panel.text())
        assert drawn, panel.text()
        # Taken now: once the clock has placed the card, the panel may lose it at any moment.
        place = game_buttons(panel, 2)[0]
        mine = f"⏰ {user.name} ran out of time:"
        text = await until_text(emu, game.board, mine, timeout=WAIT)
        assert log_line(text, mine).startswith(f"{mine} placed {drawn[1]} ({drawn[1]}×"), text
        # Too late: the reply with that turn's Place buttons loses them (P-27), and a click on
        # one that is gone is refused by Discord and changes nothing.
        await emu.wait_for(lambda: not panel.buttons(), timeout=WAIT)
        assert "Settled" in panel.text()
        assert (await emu.click(user, panel, place)).stale

        stored = [(a.seat, a.action) for a in await game.store.actions(record.id)]
        seat = game.users.index(user)
        assert stored[:3] == [
            (SYSTEM, {"type": "timeout", "turn": 0}),
            (seat, {"type": "draw"}),
            (SYSTEM, {"type": "timeout", "turn": 2}),
        ]
        before = replay(GAME, 2, seed, options, stored[:2]).to_dict()
        after = replay(GAME, 2, seed, options, stored[:3]).to_dict()
        assert before["drawn"] == drawn[2]
        assert after["tableaux"][seat][drawn[2]] == before["tableaux"][seat][drawn[2]] + 1
        assert after["hands"][seat][drawn[2]] == before["hands"][seat][drawn[2]] - 1
    finally:
        await game.store.close()


# -- a crash --------------------------------------------------------------------------------


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_a_two_player_game_by_clicks_survives_a_crash_mid_turn(world: World) -> None:
    """A whole two-player game (its leak scan proven able to fail), killed mid-turn: the private
    answer to Draw and the board sent by the dead process still work, and the game goes on to the end."""
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=5)
    try:
        turn: int | None = 0
        for _ in range(3):
            assert turn is not None
            turn = await game.play_turn(turn, mixed(game))
        assert turn is not None
        ready = await game.ready(turn)
        assert ready is not None
        user, turn = ready
        drew = await click(emu, user, game.board, "Draw")
        answer = private(drew)  # the private answer to Draw (the panel), with the choices
        assert answer is not None and game_buttons(answer, turn + 1)
        before = await game.record()

        await world.bot.kill()
        await world.bot.start()
        assert await game.record() == before

        # The private answer sent by the dead process still works in the new one.
        done = await emu.click(user, answer, game_buttons(answer, turn + 1)[0])
        assert done.type in SILENT and not done.followups, told(done)
        after = await game.record()
        assert after["step"] == turn + 2
        # The public log was rebuilt from the stored actions, and the board goes on.
        await game.ready(turn + 2)
        assert f"{user.name} drew a card ({len(before['deck'])} left)" in game.board.text()
        await game.play_to_end(mixed(game), since=turn + 2)
        assert game.used["reply"] and game.used["my_hand"]
        truth = await finish_and_check(game)
        planted_leaks_are_caught(everything_seen(world, truth), truth)
    finally:
        await game.store.close()


# -- misuse ---------------------------------------------------------------------------------


def forged(world: World, user: Any, game_id: int, turn: int, action: dict[str, Any]) -> Message:
    """A button the interface never offers (a modified client): only the bot's checks stop it."""
    custom_id = f"g:{game_id}:{turn}:{json.dumps(action, separators=(',', ':'), sort_keys=True)}"
    body = {
        "content": "forged",
        "components": [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "X", "custom_id": custom_id}],
            }
        ],
    }
    return world.emulator.world.new_message(world.emulator.dm_channel(user), body)


@pytest.mark.parametrize("world", [FAST], indirect=True)
async def test_every_misuse_gets_a_clear_private_answer_and_changes_nothing(world: World) -> None:
    emu = world.emulator
    game = await new_game(world, [world.alice, world.bob], seed=7)
    store = game.store
    try:
        record = await store.active_game_in_channel(world.channel.id)
        assert record is not None
        gid = record.id

        async def unchanged(result: Any, expected: str) -> None:
            text = told(result)
            assert result.ephemeral and expected in text, (expected, text)
            assert (await store.get_game(gid)).version == version  # type: ignore[union-attr]
            assert len(game.board.history) == edits

        ready = await game.ready(0)
        assert ready is not None
        active, turn = ready
        other = world.bob if active is world.alice else world.alice
        # The board shows the committed state (Draw for this turn), and the bot never edits a
        # board whose picture of the game is unchanged: from here only an action edits it.
        version, edits = record.version, len(game.board.history)

        # Draw when it is not your turn; a member who does not play.
        await unchanged(await click(emu, other, game.board, "Draw"), "It is not your turn.")
        for label in ("Draw", "My hand"):
            await unchanged(await click(emu, world.carol, game.board, label), "You are not playing")
        await unchanged(await emu.slash(world.carol, world.channel, "bugs hand"), "not playing")
        # Place before drawing (the interface never offers it; a forged click is refused).
        snapshot = await game.record()
        colour = next(c for c in COLOURS if snapshot["hands"][game.users.index(active)][c])
        place = forged(world, active, gid, turn, {"type": "place", "colour": colour})
        await unchanged(await emu.click(active, place, place.buttons()[0]), "Draw a card first.")

        # Two Draws at once: one is taken, the other answered.
        draw = game.board.find_button(label="Draw")
        both = await asyncio.gather(
            emu.click(active, game.board, draw), emu.click(active, game.board, draw)
        )
        replies = sorted((told(r) for r in both), key=lambda t: "earlier turn" in t)
        assert "You drew" in replies[0] and "draw was already made" in replies[1], replies
        taken = next(r for r in both if "You drew" in told(r))
        taken_panel = private(taken)
        assert taken_panel is not None
        await emu.wait_for(lambda: game.board.find_button(label="Draw").disabled, timeout=WAIT)
        # The Draw's edit is the first since the misuse, which came before it: none edited.
        assert len(game.board.history) == edits + 1
        record = await store.get_game(gid)
        assert record is not None and record.snapshot is not None
        assert record.snapshot["step"] == turn + 1 and record.snapshot["phase"] == "choose"
        version, edits = record.version, len(game.board.history)
        # A second Draw in the same turn (forged with the current turn: the board's is disabled).
        again = forged(world, active, gid, turn + 1, {"type": "draw"})
        await unchanged(
            await emu.click(active, again, again.buttons()[0]), "You have already drawn this turn."
        )
        # A card you do not hold.
        missing = next(
            c for c in COLOURS if not record.snapshot["hands"][game.users.index(active)][c]
        )
        bad = forged(world, active, gid, turn + 1, {"type": "score", "colour": missing})
        await unchanged(await emu.click(active, bad, bad.buttons()[0]), f"You have no {missing}")
        # The other player tries the active player's choice.
        steal = forged(world, other, gid, turn + 1, {"type": "place", "colour": colour})
        await unchanged(await emu.click(other, steal, steal.buttons()[0]), "It is not your turn.")

        # Place, then the other buttons of that turn are from an earlier turn.
        first, *rest = game_buttons(taken_panel, turn + 1)
        done = await emu.click(active, taken_panel, first)
        assert done.type in SILENT and not done.followups
        following = await game.ready(turn + 2)
        assert following is not None
        assert len(game.board.history) == edits + 1  # the Place's edit, and no misuse's
        record = await store.get_game(gid)
        assert record is not None
        version, edits = record.version, len(game.board.history)
        score = next(b for b in rest if b.label.startswith("Score"))
        # The answered reply loses its buttons (P-27); Discord refuses clicks on them, and a
        # forged one of that turn is answered by the bot. Nothing changes either way.
        await emu.wait_for(lambda: not taken_panel.buttons(), timeout=WAIT)
        for button in (first, score):
            assert (await emu.click(active, taken_panel, button)).stale
        match = GAME_ID.match(score.custom_id or "")
        assert match is not None
        again = forged(world, active, gid, turn + 1, json.loads(match["action"]))
        await unchanged(
            await emu.click(active, again, again.buttons()[0]), "button is from an earlier turn"
        )
        # The one hand DM was edited along: it holds no button of an earlier turn (P-8).
        (dm,) = [m for m in dms_ever(emu, active) if m.content != "forged"]
        await emu.wait_for(
            lambda: all(turn_of(b.custom_id) in (None, turn + 2) for b in dm.buttons()),
            timeout=WAIT,
        )
        actions = [(a.seat, a.action["type"]) for a in await store.actions(gid)]
        seat = game.users.index(active)
        assert actions == [(seat, "draw"), (seat, first.label.split()[0].lower())]
        # A real move after all of that: its edit is the first since the stale clicks.
        await click(emu, following[0], game.board, "Draw")
        await emu.wait_for(lambda: game.board.find_button(label="Draw").disabled, timeout=WAIT)
        assert len(game.board.history) == edits + 1
    finally:
        await store.close()
