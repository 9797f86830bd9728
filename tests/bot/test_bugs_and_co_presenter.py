"""The Bugs & Co presenter: Discord limits, one button per slot, no leaks, the peek reply, results.

Leaks are looked for twice: a scan for every symbol name in every board and log line before the
end (a planted leak proves the scan can fail), and a comparison: the board must equal the board
of a copy of the game whose unseen tiles (table, left hands, right hands, box) were reshuffled.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.discord.replies import PrivateReplies, PrivateReply
from bot.host.table import Outcome, Table
from bot.ui.games.bugs_and_co import BugsAndCoPresenter, pages_for
from bot.ui.presenter import HAND_BUTTON, presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec
from rules.bugs_and_co import BugsAndCo
from rules.bugs_and_co import components as box
from rules.core import SYSTEM
from tests.support.specs import check_limits, field
from tests.support.tables import act, after, make_table

SLUG = "bugs-and-co"
PRESENTER = presenter_for(SLUG)
LONG_NAMES = [f"{c}_*player*_{'x' * 24}"[:32] for c in "ABCDEFGH"]
SYMBOL_RE = re.compile(
    "|".join(rf"\b{re.escape(n)}\b" for n in sorted(box.SYMBOL_NAMES, key=len, reverse=True))
)
START = {"type": "start"}
STOP = {"type": "stop", "why": "countdown"}
TROPHY = {"type": "trophy"}


# -- helpers -------------------------------------------------------------------------------


def engine_of(table: Table) -> BugsAndCo:
    engine = table.running()
    assert isinstance(engine, BugsAndCo)
    return engine


def with_engine(table: Table, engine: BugsAndCo) -> Table:
    return dataclasses.replace(table, engine=engine)


def texts(spec: MessageSpec) -> list[str]:
    out = [spec.content or ""]
    if spec.embed:
        e = spec.embed
        out += [e.title or "", e.description or "", e.footer or ""]
        out += [part for f in e.fields for part in (f.name, f.value)]
    out += [b.label for b in spec.buttons()]
    return out


def symbol_names(text: str) -> list[str]:
    return SYMBOL_RE.findall(text)


def key(action: dict[str, Any] | None) -> str:
    return json.dumps(action, sort_keys=True)


def slot_buttons(boards: list[MessageSpec]) -> list[ButtonSpec]:
    return [b for spec in boards for b in spec.buttons() if b.action and "slot" in b.action]


def hidden_shuffled(engine: BugsAndCo, rnd: random.Random) -> BugsAndCo:
    """The same game with every tile no one may see publicly (table, left and right hands, box)
    shuffled among those places."""
    data = json.loads(json.dumps(engine.to_dict()))
    slots = [i for i, t in enumerate(data["slots"]) if t is not None]
    pool = [data["slots"][i] for i in slots] + data["removed"]
    for p in data["seats"]:
        pool += p["kept"]
        if p["held"] is not None:
            pool.append(p["held"]["tile"])
    rnd.shuffle(pool)
    it = iter(pool)
    for i in slots:
        data["slots"][i] = next(it)
    data["removed"] = [next(it) for _ in data["removed"]]
    for p in data["seats"]:
        p["kept"] = [next(it) for _ in p["kept"]]
        if p["held"] is not None:
            p["held"]["tile"] = next(it)
    return BugsAndCo.from_dict(data)


def choose(engine: BugsAndCo, seat: int, rng: random.Random) -> dict[str, Any]:
    """Memory-ish play: keep often, move tiles around, take a trophy now and then."""
    listed = engine.legal_actions(seat)
    trophy = [a for a in listed if a["type"] == "trophy"]
    keeps = [a for a in listed if a["type"] == "keep"]
    homes = [a for a in listed if a["type"] == "return" and "pickup" in a]
    drops = [a for a in listed if a["type"] == "return" and "pickup" not in a]
    peeks = [a for a in listed if a["type"] == "peek"]
    roll = rng.random()
    if trophy and (roll < 0.02 or not (peeks or keeps)):
        return trophy[0]
    if keeps:
        if roll < 0.55:
            return keeps[0]
        if roll < 0.75 or not drops:
            return homes[0]
        return rng.choice(drops)
    return rng.choice(peeks)


def play(
    table: Table,
    seed: int,
    *,
    final_steps: int = 15,
    max_steps: int = 500,
    log: list[str] | None = None,
) -> Iterator[Outcome]:
    """Random play from the start signal to STOP; adds to ``log`` what the public log would
    show."""
    rng = random.Random(seed)
    engine = engine_of(table)
    steps = 0
    after_last = 0

    def step(seat: int, action: dict[str, Any]) -> Outcome:
        outcome = act(table, seat, action)
        if log is not None:
            log.extend(PRESENTER.log_lines(table.view(), outcome))
        return outcome

    yield step(SYSTEM, START)
    while not engine.is_over:
        steps += 1
        if engine.state.phase == "final":
            after_last += 1
            if after_last > final_steps or not engine.state.playing:
                yield step(SYSTEM, STOP)
                continue
        movers = [s for s in sorted(engine.waiting_for()) if engine.legal_actions(s)]
        if not movers:  # the table is empty in the final countdown: wait for STOP
            yield step(SYSTEM, STOP)
            continue
        seat = rng.choice(movers)
        if steps > max_steps and engine.state.phase == "live":
            action = TROPHY
        else:
            action = choose(engine, seat, rng)
        yield step(seat, action)


def public_texts(table: Table) -> list[str]:
    return [t for spec in PRESENTER.boards(table.view()) for t in texts(spec)]


def scan_for_leaks(table: Table, seed: int) -> list[str]:
    """Plays a whole game; every symbol name seen on a board or in a log line before the end."""
    leaks: list[str] = []
    for outcome in play(table, seed):
        engine = engine_of(table)
        lines = PRESENTER.log_lines(table.view(), outcome)
        if engine.is_over:
            break
        for text in [*public_texts(table), *lines]:
            leaks += [f"{name} in {text!r}" for name in symbol_names(text)]
    return leaks


def parse_counts(text: str) -> Counter[str]:
    """``Ant ×3, Bee`` back into symbol-name counts (``none`` is empty)."""
    out: Counter[str] = Counter()
    for part in text.split(", "):
        if part == "none":
            continue
        m = re.fullmatch(r"(.+?)(?: ×(\d+))?", part)
        assert m and m[1] in box.SYMBOL_NAMES, part
        out[m[1]] += int(m[2] or 1)
    return out


def finished(players: int, hands: list[list[int]], trophies: list[int | None]) -> BugsAndCo:
    """A game over with the given left hands (as symbols) and trophies, the rest on the table."""
    engine = BugsAndCo.new(players, 7)
    data = engine.to_dict()
    pool = sorted([*(t for t in data["slots"] if t is not None), *data["removed"]])
    kept: list[list[int]] = []
    for symbols in hands:
        mine = []
        for s in symbols:
            tile = next(t for t in pool if box.symbol_of(t) == s)
            pool.remove(tile)
            mine.append(tile)
        kept.append(mine)
    data["removed"] = pool[-box.REMOVED :]
    pool = pool[: -box.REMOVED]
    data["slots"] = pool + [None] * (len(data["slots"]) - len(pool))
    for seat, p in enumerate(data["seats"]):
        p["kept"] = kept[seat]
        p["trophy"] = trophies[seat]
        p["status"] = "trophy" if trophies[seat] is not None else "stopped"
    data["trophies"] = []
    data["phase"] = "over"
    data["stop_reason"] = "countdown"
    return BugsAndCo.from_dict(data)


# -- registration, layout and limits ---------------------------------------------------------


def test_the_presenter_is_registered() -> None:
    assert isinstance(PRESENTER, BugsAndCoPresenter)
    assert PRESENTER.slug == SLUG


@pytest.mark.parametrize(
    ("slots", "sizes"), [(38, [20, 18]), (53, [20, 25, 8]), (68, [20, 25, 23])]
)
def test_pages_keep_rows_of_five_and_fit_discord(slots: int, sizes: list[int]) -> None:
    assert [len(p) for p in pages_for(slots)] == sizes
    assert [s for p in pages_for(slots) for s in p] == list(range(slots))


@pytest.mark.parametrize("players", range(2, 9))
def test_every_message_fits_discord_limits(players: int) -> None:
    table = make_table(SLUG, players, seed=players, names=LONG_NAMES[:players])
    slots = len(engine_of(table).state.slots)
    pages = {38: 2, 53: 3, 68: 3}[slots]
    boards = PRESENTER.boards(table.view())
    assert len(boards) == pages
    for spec in boards:
        check_limits(spec, turn=0)
    replies = 0
    log: list[str] = []
    for outcome in play(table, seed=players, log=log):
        engine = engine_of(table)
        boards = PRESENTER.boards(table.view(), log)
        assert len(boards) == (1 if engine.is_over else pages)
        for spec in boards:
            check_limits(spec, engine.turn)
        reply = PRESENTER.reply(table.view(), outcome)
        if reply is not None:
            replies += 1
            check_limits(reply, outcome.turn_after)
        assert PRESENTER.hand(table.view(), 0) is None
    assert replies > 20
    check_limits(PRESENTER.final(table.view(), log))
    assert log


def test_the_widest_final_still_fits() -> None:
    """Eight long names sharing every tile of the table, each hand of distinct symbols."""
    on_table = sorted(box.symbol_of(t) for t in BugsAndCo.new(8, 7).state.slots if t is not None)
    hands = [on_table[s::8] for s in range(8)]
    engine = finished(8, hands, [3, 3, 2, 2, 1, None, None, None])
    table = with_engine(make_table(SLUG, 8, seed=7, names=LONG_NAMES), engine)
    log = ["x" * 400 for _ in range(40)]
    final = PRESENTER.final(table.view(), log)
    check_limits(final)
    assert PRESENTER.boards(table.view(), log) == [final]


# -- the board -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_pages_hold_exactly_one_button_per_slot(players: int) -> None:
    table = make_table(SLUG, players, seed=3)
    for _ in play(table, seed=3):
        engine = engine_of(table)
        if engine.is_over:
            break
        view = engine.view(None)
        boards = PRESENTER.boards(table.view())
        buttons = slot_buttons(boards)
        assert [b.action["slot"] for b in buttons if b.action] == list(
            range(len(engine.state.slots))
        )
        holders = {s["holding_from"] for s in view["seats"] if s["holding"]}
        for slot, (button, tile) in enumerate(zip(buttons, engine.state.slots, strict=True)):
            n = slot + 1
            if tile is not None:
                assert button.action == {"type": "peek", "slot": slot}
                assert button.label == f"🂠 {n}"
            else:
                assert button.action == {"type": "return", "slot": slot}
                assert button.label.startswith(f"✋ {n} ") == (slot in holders)
                assert button.label == f"{n} · empty" or slot in holders
            assert button.disabled == (engine.state.phase == "start")
        # the only other game button is the Trophy, on the first page beside My hand,
        # enabled only in LIVE
        others = [b for spec in boards for b in spec.buttons() if b not in buttons]
        assert [b.action for b in others] == [TROPHY, None]
        assert boards[0].rows[0] == (others[0], HAND_BUTTON)
        assert others[0].disabled == (engine.state.phase != "live")
        if engine.state.trophies:
            assert others[0].label.startswith(f"🏆 Take trophy {engine.state.trophies[0]}")


def test_start_count_final_countdown_and_cap_use_discord_timestamps() -> None:
    from datetime import UTC, datetime

    table = make_table(SLUG, 2, seed=1, names=["ann", "bob"])
    due = datetime(2026, 1, 1, 12, 0, 3, tzinfo=UTC)
    table.timers = {"bco:start": due}
    board = PRESENTER.boards(table.view())[0]
    assert board.embed is not None
    desc = board.embed.description or ""
    assert f"**1… 2… 3…** Get ready: play starts <t:{int(due.timestamp())}:R>" in desc
    assert all(b.disabled for b in board.buttons() if b.action is not None)

    act(table, SYSTEM, START)
    table.timers = {"bco:cap": due}
    board = PRESENTER.boards(table.view())[0]
    assert board.embed is not None
    assert f"stops at <t:{int(due.timestamp())}:t> at the latest" in (board.embed.description or "")
    assert not any(b.disabled for b in board.buttons())

    act(table, 1, TROPHY)
    table.timers = {"bco:final": due}
    board = PRESENTER.boards(table.view())[0]
    assert board.embed is not None
    stamp = int(due.timestamp())
    assert f"**STOP <t:{stamp}:R>** (at <t:{stamp}:T>)" in (board.embed.description or "")
    assert board.buttons()[0].disabled and board.buttons()[0].label == "🏆 No trophy left"
    players = field(board, "Players").splitlines()
    assert players == ["▶ **ann** — 0 tiles kept", "**bob** — 0 tiles kept, 🏆 3 · stopped"]
    # without a persisted timer (no host), the rule's length is said in words
    table.timers = {}
    board = PRESENTER.boards(table.view())[0]
    assert board.embed is not None and "STOP in 10 s" in (board.embed.description or "")


def test_players_status_and_held_slots() -> None:
    table = make_table(SLUG, 3, seed=2, names=["ann", "bob", "c_y"])
    act(table, SYSTEM, START)
    act(table, 0, {"type": "peek", "slot": 4})
    act(table, 0, {"type": "keep", "pickup": 1})
    act(table, 2, {"type": "peek", "slot": 22})
    act(table, 1, {"type": "peek", "slot": 0})
    act(table, 1, TROPHY)  # bob's tile goes home
    boards = PRESENTER.boards(table.view())
    assert field(boards[0], "Players").splitlines() == [
        "▶ **ann** — 1 tile kept",
        "**bob** — 0 tiles kept, 🏆 3 · stopped",
        "▶ **c\\_y** — 0 tiles kept, ✋ holding the tile from 23",
    ]
    labels = [b.label for b in slot_buttons(boards)]
    assert labels[4] == "5 · empty" and labels[22] == "✋ 23 c_y" and labels[0] == "🂠 1"
    assert boards[1].content == "🂠 **Tiles 21–38** of 38"


@pytest.mark.parametrize("players", range(2, 9))
def test_no_symbol_reaches_a_board_or_the_log_before_the_end(players: int) -> None:
    table = make_table(SLUG, players, seed=100 + players)
    assert scan_for_leaks(table, seed=players) == []
    # at the end they are all revealed on the final message
    final = "\n".join(texts(PRESENTER.final(table.view())))
    assert symbol_names(final)


def test_the_leak_scan_finds_a_planted_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """Proves the scan can fail: a log line naming the peeked tile, then a board naming a
    kept one."""
    original = BugsAndCoPresenter.log_lines

    def leaky_log(self: BugsAndCoPresenter, table: Table, outcome: Outcome) -> list[str]:
        private = [f"(psst: {e.data['name']})" for e in outcome.events if not e.is_public]
        return [*original(self, table, outcome), *private]

    monkeypatch.setattr(BugsAndCoPresenter, "log_lines", leaky_log)
    leaks = scan_for_leaks(make_table(SLUG, 3, seed=1), seed=1)
    assert leaks and all("psst" in leak for leak in leaks)
    monkeypatch.undo()

    original_players = BugsAndCoPresenter._players

    def leaky_players(self: BugsAndCoPresenter, view: Any, names: Any) -> str:
        engine = current["engine"]
        kept = [box.SYMBOL_NAMES[box.symbol_of(t)] for p in engine.state.seats for t in p.kept]
        return original_players(self, view, names) + " " + " ".join(kept)

    table = make_table(SLUG, 3, seed=1)
    current = {"engine": engine_of(table)}
    monkeypatch.setattr(BugsAndCoPresenter, "_players", leaky_players)
    assert scan_for_leaks(table, seed=1)
    monkeypatch.undo()
    assert scan_for_leaks(make_table(SLUG, 3, seed=1), seed=1) == []


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3), (8, 4)])
def test_board_and_log_do_not_depend_on_hidden_tiles(players: int, seed: int) -> None:
    table = make_table(SLUG, players, seed=seed)
    rnd = random.Random(seed)
    fresh = BugsAndCo.new(players, seed + 1)
    compared = 0
    for outcome in play(table, seed=seed):
        engine = engine_of(table)
        lines = PRESENTER.log_lines(table.view(), outcome)
        # log lines come from public events only and never from the engine's state
        public_only = dataclasses.replace(
            outcome, events=[e for e in outcome.events if e.is_public]
        )
        assert PRESENTER.log_lines(table.view(), public_only) == lines
        assert PRESENTER.log_lines(with_engine(table, fresh).view(), outcome) == lines
        if engine.is_over:
            break
        boards = PRESENTER.boards(table.view())
        other = hidden_shuffled(engine, rnd)
        assert PRESENTER.boards(with_engine(table, other).view()) == boards
        compared += 1
    assert compared > 50


# -- the peek reply --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (5, 6), (7, 7)])
def test_peek_reply_shows_exactly_the_peeked_symbol_and_the_holders_choices(
    players: int, seed: int
) -> None:
    table = make_table(SLUG, players, seed=seed)
    peeks = 0
    for outcome in play(table, seed=seed):
        engine = engine_of(table)
        reply = PRESENTER.reply(table.view(), outcome)
        kind = outcome.action["type"]
        if outcome.seat == SYSTEM or kind in ("keep", "return"):
            assert reply is None
            continue
        assert reply is not None
        shown = symbol_names("\n".join(texts(reply)))
        if kind == "trophy":
            assert shown == [] and reply.content and "trophy" in reply.content
            continue
        peeks += 1
        held = engine.state.seats[outcome.seat].held
        assert held is not None
        assert shown == [box.SYMBOL_NAMES[box.symbol_of(held.tile)]]
        assert (
            reply.embed is not None and reply.embed.title == f"You picked up tile {held.slot + 1}"
        )
        choices = [
            a
            for a in engine.legal_actions(outcome.seat)
            if a["type"] == "keep" or (a["type"] == "return" and "pickup" in a and "slot" not in a)
        ]
        assert [b.action for b in reply.buttons()] == choices
        assert choices == [
            {"type": "keep", "pickup": held.pickup},
            {"type": "return", "pickup": held.pickup},
        ]
        assert [b.label for b in reply.buttons()] == ["✋ Keep", f"↩ Put back ({held.slot + 1})"]
    assert peeks > 5


def test_peek_reply_after_stop_has_no_buttons() -> None:
    table = make_table(SLUG, 2, seed=1)
    act(table, SYSTEM, START)
    act(table, 1, TROPHY)
    outcome = act(table, 0, {"type": "peek", "slot": 3})
    act(table, SYSTEM, STOP)
    reply = PRESENTER.reply(table.view(), outcome)
    assert reply is not None and reply.rows == ()
    assert reply.embed is not None and "STOP has been called" in (reply.embed.description or "")


def test_trophy_reply_tells_where_the_tile_in_hand_went_and_the_countdown() -> None:
    table = make_table(SLUG, 2, seed=1)
    act(table, SYSTEM, START)
    act(table, 0, {"type": "peek", "slot": 3})
    reply = PRESENTER.reply(*after(act(table, 0, TROPHY)))
    assert reply is not None
    assert reply.content == (
        "🏆 You took the **3** trophy and stopped playing.\n"
        "The tile in your hand went back face down into slot 4.\n"
        "It was the last trophy: everyone else has 10 seconds until STOP."
    )


def test_a_settled_pick_up_answer_says_where_its_tile_went() -> None:
    """P-61: each way a held tile leaves the hand, read from the move that took it out, even
    when later moves of the same player come before the answer is settled."""
    table = make_table(SLUG, 3, seed=4)
    act(table, SYSTEM, START)
    replies = PrivateReplies()

    def pick_up(seat: int, slot: int) -> PrivateReply:
        outcome = act(table, seat, {"type": "peek", "slot": slot})
        spec = PRESENTER.reply(table.view(), outcome)
        assert spec is not None and spec.buttons()
        reply = PrivateReply(cast(Any, None), None, seat, spec, outcome.turn_after)
        replies.track(table.id, reply)
        return reply

    def move(seat: int, action: dict[str, Any]) -> None:
        outcome = act(table, seat, action)
        replies.witness(table.id, lambda r: PRESENTER.settled_by(outcome, r.seat, r.spec))

    def settled(reply: PrivateReply) -> str:
        spec = PRESENTER.answered(table.view(), reply.seat, reply.spec, reply.fate)
        assert spec.rows == () and spec.embed is None and spec.content
        assert not symbol_names(spec.content), spec.content  # the face is hidden again
        return spec.content

    kept = pick_up(0, 0)
    other = pick_up(1, 5)
    move(1, {"type": "return", "slot": 0})  # another seat's move decides nothing of seat 0's
    assert kept.fate is None
    move(0, {"type": "keep", "pickup": 1})
    assert settled(kept).startswith("✋ You kept the tile from slot 1: it is face down")
    assert settled(other) == (
        "↩ You put the tile from slot 6 face down into slot 1. Its face is hidden again, as on "
        "the table."
    )
    # Put back, then a new pick-up kept, all before the first answer is settled: it still says
    # put back; the Keep of the later pick-up is not its tile's.
    back = pick_up(0, 1)
    move(0, {"type": "return", "pickup": 3})
    later = pick_up(0, 1)
    move(0, {"type": "keep", "pickup": 4})
    assert settled(back).startswith("↩ You put the tile back face down into slot 2.")
    assert settled(later).startswith("✋ You kept the tile from slot 2")
    # A trophy and STOP each send a held tile home.
    home = pick_up(1, 8)
    move(1, TROPHY)
    assert settled(home).startswith("🏆 Your trophy sent the tile from slot 9 back face down")
    held = pick_up(2, 9)
    move(0, TROPHY)
    assert held.fate is None
    move(SYSTEM, STOP)
    assert settled(held).startswith("🛑 STOP sent the tile from slot 10 back face down into")
    # Unseen here (the answer was tracked after its move): the answer still hides the face.
    unseen = PrivateReply(cast(Any, None), None, 2, held.spec, 0)
    assert "the log says where it went" in settled(unseen)


# -- log lines -------------------------------------------------------------------------------


def test_log_lines() -> None:
    table = make_table(SLUG, 3, seed=4, names=["ann", "b_b", "cy"])

    def lines(seat: int, action: dict[str, Any]) -> list[str]:
        return PRESENTER.log_lines(*after(act(table, seat, action)))

    assert lines(SYSTEM, START) == ["🔔 1, 2, 3… go! 38 tiles face down; trophies 3 · 2."]
    assert lines(0, {"type": "peek", "slot": 0}) == ["👀 ann picked up tile 1"]
    assert lines(0, {"type": "keep", "pickup": 1}) == ["✋ ann kept the tile from 1 (1 kept)"]
    assert lines(1, {"type": "peek", "slot": 5}) == ["👀 b\\_b picked up tile 6"]
    assert lines(1, {"type": "return", "slot": 0}) == ["↩ b\\_b moved the tile from 6 into 1"]
    lines(1, {"type": "peek", "slot": 1})
    assert lines(1, {"type": "return", "pickup": 3}) == ["↩ b\\_b put tile 2 back"]
    lines(2, {"type": "peek", "slot": 9})
    assert lines(1, TROPHY) == ["🏆 b\\_b took trophy 3 and stopped · left: 2"]
    lines(0, {"type": "peek", "slot": 7})
    assert lines(0, TROPHY) == [
        "🏆 ann took trophy 2 and stopped (the tile in hand went back into 8) · left: none",
        "⏳ Last trophy gone: STOP in 10 seconds!",
    ]
    out = lines(SYSTEM, STOP)
    assert out[:2] == ["🛑 STOP!", "↩ STOP: cy's tile from 10 went back into 10"]
    assert out[2].startswith("🏁 Game over: ")


def test_stale_text_is_specific() -> None:
    text = PRESENTER.stale_text({"type": "peek", "slot": 1})
    assert "count of three" in text and "table as it is now" in text


# -- final -----------------------------------------------------------------------------------


def test_final_reveals_every_hand_with_its_score_the_box_and_the_winners() -> None:
    ant, bee, moth, wasp = 0, 1, 12, 14
    hands = [[ant, ant, ant, bee], [moth, moth, wasp], []]
    engine = finished(3, hands, [None, 3, 2])
    table = with_engine(make_table(SLUG, 3, seed=7, names=["ann", "bob", "cy"]), engine)
    final = PRESENTER.final(table.view())
    assert PRESENTER.boards(table.view()) == [final]
    check_limits(final)
    assert final.embed is not None and not final.rows
    desc = final.embed.description or ""
    assert desc.startswith("🏆 **ann** and **cy** share the win with **2 points**!")
    assert [f.name for f in final.embed.fields][:3] == [
        "🏆 ann — 2 points",
        "🏆 cy — 2 points",
        "bob — 0 points",
    ]
    assert field(final, "🏆 ann") == (
        "Trios (+3): Ant\nOther tiles (−1): Bee\nTrophy: none · 4 tiles kept"
    )
    assert field(final, "bob") == (
        "Trios (+0): none\nOther tiles (−3): Moth ×2, Wasp\nTrophy: +3 · 3 tiles kept"
    )
    assert field(final, "🏆 cy") == "No tiles kept.\nTrophy: +2 · 0 tiles kept"
    removed = Counter(box.symbol_of(t) for t in engine.state.removed)
    expected = ", ".join(
        f"{box.SYMBOL_NAMES[s]}{f' ×{n}' if n > 1 else ''}" for s, n in sorted(removed.items())
    )
    assert field(final, "📦 Back in the box") == expected


@pytest.mark.parametrize(("players", "seed"), [(3, 8), (8, 9)])
def test_final_after_random_play_matches_the_engine(players: int, seed: int) -> None:
    table = make_table(SLUG, players, seed=seed)
    for _ in play(table, seed=seed):
        pass
    engine = engine_of(table)
    final = PRESENTER.final(table.view())
    assert final.embed is not None
    names = table.names()
    scores = engine.scores()
    for seat in range(players):
        crown = "🏆 " if seat in engine.winners() else ""
        total = scores[seat]
        value = field(final, f"{crown}{names[seat]} — {total} point")
        kept = Counter(engine.kept_symbols(seat))
        lines = value.splitlines()
        shown: Counter[str] = Counter()
        if not lines[0].startswith("No tiles"):
            for line in lines[:2]:
                shown += parse_counts(line.split(": ", 1)[1])
        assert shown == Counter({box.SYMBOL_NAMES[s]: n for s, n in kept.items()})
    assert "share the win" in (final.embed.description or "") or "wins" in (
        final.embed.description or ""
    )


def test_my_hand_shows_only_the_held_tile_and_never_kept_ones() -> None:
    table = make_table(SLUG, 2, seed=4, names=["ann", "bob"])
    act(table, SYSTEM, START)
    empty = PRESENTER.my_hand(table.view(), 0)
    assert empty is not None and empty.content is not None and "You hold no tile" in empty.content
    outcome = act(table, 0, {"type": "peek", "slot": 3})
    held = engine_of(table).view(0)["you"]["hand"]
    mine = PRESENTER.my_hand(table.view(), 0)
    assert mine is not None and mine.embed is not None
    assert held["name"] in (mine.embed.description or "")
    assert [b.action for b in mine.buttons()] == [
        {"type": "keep", "pickup": held["pickup"]},
        {"type": "return", "pickup": held["pickup"]},
    ]
    assert mine == PRESENTER.reply(table.view(), outcome)  # the same message as the pick-up reply
    other = PRESENTER.my_hand(table.view(), 1)
    assert other is not None and held["name"] not in (other.content or "")
    act(table, 0, {"type": "keep", "pickup": held["pickup"]})
    after = PRESENTER.my_hand(table.view(), 0)
    assert after is not None and held["name"] not in str(after) and "kept 1 tile" in str(after)
    assert PRESENTER.hand(table.view(), 0) is None  # nothing is ever DM'd


def test_a_running_countdown_asks_for_redraws() -> None:
    from datetime import UTC, datetime, timedelta

    table = make_table(SLUG, 2, seed=1, names=["ann", "bob"])
    now = datetime.now(UTC)
    table.timers = {"bco:start": now + timedelta(seconds=3)}
    at = PRESENTER.refresh_at(table.view())
    assert at is not None and now < at <= now + timedelta(seconds=3)
    act(table, SYSTEM, START)
    table.timers = {"bco:cap": now + timedelta(seconds=900)}
    assert PRESENTER.refresh_at(table.view()) is None
    act(table, 1, TROPHY)
    table.timers = {"bco:final": now + timedelta(seconds=10)}
    at = PRESENTER.refresh_at(table.view())
    assert at is not None and at <= datetime.now(UTC) + timedelta(seconds=2.6)
    board = PRESENTER.boards(table.view())[0]
    assert "s** left" in (board.embed.description or "")  # type: ignore[union-attr]
