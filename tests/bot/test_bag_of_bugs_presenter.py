"""The Bag of Bugs presenter: Discord limits, Grab buttons, choice controls, log lines, results.

Reveals are scripted where a test needs exact tokens, by replacing ``flow.draw_token`` (the only
place a token leaves the bag), as the engine's own tests do.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.host.table import Outcome, Table
from bot.ui.games.bag_of_bugs import EMOJI, BagOfBugsPresenter
from bot.ui.presenter import presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec, SelectSpec
from rules.bag_of_bugs import BagOfBugs, flow
from rules.core import SYSTEM
from tests.support.specs import check_limits, field
from tests.support.tables import act, after, make_table

SLUG = "bag-of-bugs"
PRESENTER = presenter_for(SLUG)
LONG_NAMES = [f"{c}_*player*_{'x' * 24}"[:32] for c in "ABCDE"]
CHOICE_TYPES = ("take", "give", "take_all", "return_all")
BIG_GAME_ID = 10**12

Rig = Callable[..., None]


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Rig:
    """Script the next reveals: ``rig("c1", "rock", ...)``."""
    queue: list[str] = []

    def scripted(t: Any) -> str:
        assert queue, "the test did not script enough reveals"
        return queue.pop(0)

    monkeypatch.setattr(flow, "draw_token", scripted)

    def load(*tokens: str) -> None:
        queue.extend(tokens)

    return load


# -- helpers -------------------------------------------------------------------------------


def engine_of(table: Table) -> BagOfBugs:
    engine = table.running()
    assert isinstance(engine, BagOfBugs)
    return engine


def board_of(table: Table, log: Sequence[str] = ()) -> MessageSpec:
    boards = PRESENTER.boards(table.view(), log)
    assert len(boards) == 1
    return boards[0]


def texts(spec: MessageSpec) -> list[str]:
    out = [spec.content or ""]
    if spec.embed:
        e = spec.embed
        out += [e.title or "", e.description or "", e.footer or ""]
        out += [part for f in e.fields for part in (f.name, f.value)]
    return out


def grab_row(spec: MessageSpec) -> tuple[ButtonSpec, ...]:
    row = spec.rows[0]
    assert isinstance(row, tuple) and len(row) == 5
    assert [b.action for b in row] == [{"type": "grab", "token": k} for k in range(1, 6)]
    return row


def choice_actions(spec: MessageSpec) -> list[dict[str, Any]]:
    """Every choice action the board offers, in order (buttons and menu options)."""
    out: list[dict[str, Any]] = []
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            out += [o.action for o in row.options]
        else:
            out += [b.action for b in row if b.action and b.action["type"] in CHOICE_TYPES]
    return out


def desc(spec: MessageSpec) -> str:
    assert spec.embed is not None
    return spec.embed.description or ""


def play(table: Table, seed: int, log: list[str] | None = None) -> Iterator[Outcome]:
    """Random legal play (any waiting seat), timers firing now and then; adds to ``log`` what
    the public log would show."""
    rng = random.Random(seed)
    engine = engine_of(table)
    while not engine.is_over:
        deadlines = engine.deadlines()
        if deadlines and rng.random() < 0.05:
            outcome = act(table, SYSTEM, deadlines[0].action)
        else:
            seat = rng.choice(sorted(engine.waiting_for()))
            outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
        if log is not None:
            log.extend(PRESENTER.log_lines(table.view(), outcome))
        yield outcome


def scripted_table(players: int = 3, names: list[str] | None = None, drawer: int = 0) -> Table:
    table = make_table(SLUG, players, seed=3, names=names)
    engine_of(table).state.drawer = drawer
    return table


def draw(table: Table, n: int = 1) -> list[str]:
    lines: list[str] = []
    for _ in range(n):
        outcome = act(table, engine_of(table).state.drawer, {"type": "draw"})
        lines += PRESENTER.log_lines(table.view(), outcome)
    return lines


def do(table: Table, seat: int, action: dict[str, Any]) -> list[str]:
    outcome = act(table, seat, action)
    return PRESENTER.log_lines(table.view(), outcome)


def step(table: Table) -> int:
    return engine_of(table).state.step


# -- registration and limits ---------------------------------------------------------------


def test_the_bag_of_bugs_presenter_is_registered() -> None:
    assert isinstance(PRESENTER, BagOfBugsPresenter)
    assert PRESENTER.slug == SLUG
    assert len(set(EMOJI.values())) == len(EMOJI) == 9  # one distinct emoji per token type


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 2), (4, 3), (4, 4), (5, 5), (5, 6)])
def test_every_message_fits_discord_over_whole_games(players: int, seed: int) -> None:
    table = make_table(SLUG, players, seed=seed, names=LONG_NAMES[:players])
    engine = engine_of(table)
    choices = selects = 0
    log: list[str] = []
    for outcome in play(table, seed, log):
        board = board_of(table, log)
        check_limits(board, engine.turn)
        reply = PRESENTER.reply(table.view(), outcome)
        if reply is not None:
            check_limits(reply, engine.turn)
        assert PRESENTER.hand(table.view(), 0) is None  # nothing is secret
        if engine.is_over:
            assert board.rows == ()
            continue
        choice = engine.state.choice
        if choice is not None:
            choices += 1
            selects += any(isinstance(r, SelectSpec) for r in board.rows)
            # the board offers exactly the chooser's legal actions, in the engine's order
            assert choice_actions(board) == engine.legal_actions(choice.seat)
            assert "Waiting for **" in desc(board)
        else:
            assert choice_actions(board) == []
    assert engine.is_over and choices > 5
    check_limits(PRESENTER.final(table.view(), log), engine.turn)
    assert log


@pytest.mark.parametrize(("grab", "options", "menus"), [(5, 56, 3), (4, 28, 2)])
def test_the_biggest_choices_are_split_over_menus(
    rig: Rig, grab: int, options: int, menus: int
) -> None:
    """Eight types in the pool: ⑤ has 56 options and ④ 28; menus of 25 each, own rows."""
    table = scripted_table(5, names=LONG_NAMES)
    rig("c1", "c2", "c3", "c4", "c5", "scary", "larva", "wind", "c1")
    draw(table)
    do(table, 1, {"type": "grab", "token": grab})
    draw(table, 8)
    engine = engine_of(table)
    assert engine.state.choice is not None and engine.state.choice.seat == 1
    board = board_of(table)
    check_limits(board, engine.turn)
    legal = engine.legal_actions(1)
    assert len(legal) == options
    assert choice_actions(board) == legal
    menus_shown = [r for r in board.rows if isinstance(r, SelectSpec)]
    assert len(menus_shown) == menus
    assert [len(m.options) for m in menus_shown][:-1] == [25] * (menus - 1)
    assert f"(1–25 of {options})" in menus_shown[0].placeholder
    assert menus_shown[0].placeholder.startswith(LONG_NAMES[1][:10])
    # an option's label shows its tokens, its description the score it would make
    first = menus_shown[0].options[0]
    assert first.label.startswith("🔴 Red + 🟡 Yellow")
    assert (first.description or "").startswith("score 0 → ")


# -- the board -----------------------------------------------------------------------------


def test_board_mid_draw_shows_the_pool_in_order_and_who_took_each_grab(rig: Rig) -> None:
    table = scripted_table(4, names=["ann", "bob", "cy", "di"], drawer=1)
    board = board_of(table)
    # before the first reveal: Grab tokens shown but closed, the Drawer's Draw button
    assert all(b.disabled for b in grab_row(board))
    assert [b.label for b in grab_row(board)] == [
        "① largest group",
        "② smallest group",
        "③ 2 identical",
        "④ 2 different",
        "⑤ 3 different",
    ]
    assert board.rows[1] == (
        ButtonSpec("Draw", action={"type": "draw"}, style=board.rows[1][0].style, emoji="🎒"),  # type: ignore[index]
    )
    assert "press **Draw**" in desc(board) and "**Revealed 0 / 8:** nothing yet" in desc(board)

    rig("c1", "rock", "larva", "c1", "c2", "rock")
    log = draw(table, 2)
    log += do(table, 2, {"type": "grab", "token": 3})
    log += draw(table)
    log += do(table, 0, {"type": "grab", "token": 1})
    board = board_of(table, log)
    grabs = grab_row(board)
    assert [b.label for b in grabs] == [
        "① ann",
        "② smallest group",
        "③ cy",
        "④ 2 different",
        "⑤ 3 different",
    ]
    assert [b.disabled for b in grabs] == [True, False, True, False, False]
    text = desc(board)
    assert "🎒 **bob** holds the bag · turn 1" in text
    assert "**Revealed 3 / 8:** 🔴 🪨 🐛" in text
    assert "🪨 Rocks this turn: **1** · pairs set aside: **0 / 5** · 66 tokens left" in text
    assert "Grab window open!" in text
    assert field(board, "cy · 0 pts") == "no tokens yet\n✋ holds ③"
    assert field(board, "🎒 bob") == "no tokens yet"
    assert field(board, "This turn").splitlines() == [
        "✋ **cy** grabbed ③ after 2 tokens",
        "✋ **ann** grabbed ① after 3 tokens",
    ]

    # the draw stops at the 2nd Rock: every Grab token closes, the takers stay on them, Draw
    # goes away; ① took a Red at once, ③ (no two identical left) must choose
    log += draw(table, 3)
    board = board_of(table, log)
    assert all(b.disabled for b in grab_row(board))
    assert [b.label for b in grab_row(board)][::2] == ["① ann", "③ cy", "⑤ 3 different"]
    assert not any(b.action == {"type": "draw"} for b in board.buttons())
    text = desc(board)
    assert "**Revealed 6 / 8:** 🔴 ~~🪨~~ 🐛 ~~🔴~~ 🟡 ~~🪨~~ (🪨🪨 set aside as a pair)" in text
    assert "pairs set aside: **1 / 5**" in text
    assert "**Pool now:** 🔴×1 🟡×1 🐛×1 (3 tokens)" in text
    assert "⏳ Waiting for **cy** to choose the tokens for ③: 2 identical tokens." in text
    assert field(board, "ann · 1 pt") == "🔴×1\n✋ holds ①"
    assert choice_actions(board) == engine_of(table).legal_actions(2)
    assert len(choice_actions(board)) == 3


def test_board_during_a_choice_names_the_chooser_and_offers_only_their_options(rig: Rig) -> None:
    table = scripted_table(3, names=["ann", "bob", "cy"])
    rig("c1", "c2", "c2", "c3", "c1", "larva")
    draw(table)
    do(table, 2, {"type": "grab", "token": 1})
    draw(table, 5)
    engine = engine_of(table)
    board = board_of(table)
    text = desc(board)
    assert "⏳ Waiting for **cy** to choose the tokens for ①: 1 token from a largest group." in text
    assert "**Pool now:** 🔴×2 🟡×2 🟢×1 🐛×1 (6 tokens)" in text
    assert "**Revealed 6 / 6:** 🔴 🟡 🟡 🟢 🔴 🐛" in text
    assert field(board, "cy").endswith("✋ holds ① · ⏳ choosing")
    s = step(table)
    assert board.rows[1] == (
        ButtonSpec("🔴 Red", action={"type": "take", "step": s, "tokens": {"c1": 1}}),
        ButtonSpec("🟡 Yellow", action={"type": "take", "step": s, "tokens": {"c2": 1}}),
    )
    assert len(board.rows) == 2
    assert choice_actions(board) == engine.legal_actions(2)

    # cy takes a Yellow: the Drawer gets Take all / Return all
    do(table, 2, {"type": "take", "step": s, "tokens": {"c2": 1}})
    board = board_of(table)
    assert "⏳ Waiting for **ann** to choose: take all the leftovers" in desc(board)
    s = step(table)
    labels = [(b.label, b.emoji) for b in board.rows[1]]  # type: ignore[union-attr]
    assert labels == [("Take all", "🧺"), ("Return all", "↩️")]
    assert choice_actions(board) == [
        {"type": "take_all", "step": s},
        {"type": "return_all", "step": s},
    ]


def test_board_during_a_wind_give_away(rig: Rig) -> None:
    table = scripted_table(3, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    engine.state.collections[1] = {"c1": 1, "scary": 2}
    rig("wind", "c4", "c4", "c4", "c4", "c4")
    draw(table)
    do(table, 1, {"type": "grab", "token": 2})  # smallest group: the Wind alone
    draw(table, 5)
    board = board_of(table)
    assert "⏳ Waiting for **bob** to choose a token to give to **cy** (💨 Wind)." in desc(board)
    s = step(table)
    assert choice_actions(board) == [
        {"type": "give", "step": s, "token": "c1"},
        {"type": "give", "step": s, "token": "scary"},
    ]
    assert [b.label for b in board.rows[1]] == ["Give 🔴 Red", "Give 🕷️ Scary Bug"]  # type: ignore[union-attr]


def test_names_are_escaped_on_the_board_and_plain_on_buttons(rig: Rig) -> None:
    table = scripted_table(3, names=["a_b*", "c|d", "e~f"])
    rig("c1")
    log = draw(table)
    log += do(table, 1, {"type": "grab", "token": 2})
    board = board_of(table, log)
    assert "🎒 **a\\_b\\*** holds the bag" in desc(board)
    assert grab_row(board)[1].label == "② c|d"
    assert field(board, "This turn") == "✋ **c\\|d** grabbed ② after 1 token"


# -- the log -------------------------------------------------------------------------------


def test_log_lines_for_a_known_sequence(rig: Rig) -> None:
    table = scripted_table(3, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    # turn 1: ann draws; bob grabs ③, cy grabs ⑤
    rig("c1", "wind", "c1", "rock", "larva", "scary")
    assert draw(table) == []
    assert do(table, 1, {"type": "grab", "token": 3}) == ["✋ **bob** grabbed ③ after 1 token"]
    assert draw(table, 2) == []
    assert do(table, 2, {"type": "grab", "token": 5}) == ["✋ **cy** grabbed ⑤ after 3 tokens"]
    assert draw(table, 2) == []
    # the 6th token stops the draw; ③ and ⑤ have one option each, then cy's Wind asks
    assert draw(table) == [
        "🛑 The draw stopped at 6 / 6 (the limit); the 🪨 goes back into the bag",
        "③ **bob** took 🔴🔴",
        "⑤ **cy** took 🕷️ 🐛 💨",
    ]
    assert do(table, 2, {"type": "give", "step": step(table), "token": "larva"}) == [
        "💨 **cy** gave 🐛 to **ann**",
        "🎒 Turn 2: **bob** draws",
    ]
    # turn 2: the idle timer reveals; a pair; nobody grabbed; the leftovers time out
    rig("c3", "rock", "rock")
    deadline = engine.deadlines()[0].action
    assert do(table, SYSTEM, deadline) == ["⏰ **bob** was idle: the bag revealed 🟢 (1 / 6)"]
    assert draw(table) == []
    assert draw(table) == ["🛑 The draw stopped at 3 / 6 (a 2nd 🪨); 🪨🪨 set aside: 1 / 4 pairs"]
    assert do(table, SYSTEM, engine.deadlines()[0].action) == [
        "↩️ **bob** returned the leftovers to the bag: 🟢 (time ran out)",
        "🎒 Turn 3: **cy** draws",
    ]
    # turn 3 is the last: ① takes the only token, ② finds the pool empty, then the end
    engine.state.pairs = 3
    rig("c2", "rock", "rock")
    draw(table)
    do(table, 0, {"type": "grab", "token": 2})
    do(table, 1, {"type": "grab", "token": 1})
    draw(table)
    lines = draw(table)
    scores = engine.scores()
    best = max(scores)
    won = [f"**{n}**" for s, n in enumerate(["ann", "bob", "cy"]) if scores[s] == best]
    verb = "share the win" if len(won) > 1 else "wins"
    assert lines == [
        "🛑 The draw stopped at 3 / 6 (a 2nd 🪨); 🪨🪨 set aside: 4 / 4 pairs"
        " — this is the last turn!",
        "① **bob** took 🟡",
        "② **ann** found the pool empty: nothing to take",
        f"🏁 Game over: {' and '.join(won)} {verb} with {best} points.",
    ]
    assert engine.is_over


def test_a_replay_names_every_drawn_token_and_the_log_stays_as_it_was(rig: Rig) -> None:
    """P-60: the board shows a draw, the replay's move list says it; the log's lines (which old
    games' records pin) gain nothing."""
    table = scripted_table(3, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    rig("c1", "scary", "rock", "rock", "c5")
    words: list[list[str]] = []
    for _ in range(2):
        outcome = act(table, 0, {"type": "draw"})
        assert PRESENTER.log_lines(table.view(), outcome) == []
        words.append(PRESENTER.move_lines(table.view(), outcome))
    assert words == [["🎒 **ann** drew 🔴 Red (1 / 6)"], ["🎒 **ann** drew 🕷️ Scary Bug (2 / 6)"]]
    idle = act(table, SYSTEM, engine.deadlines()[0].action)  # the idle timer's own words stay
    line = "⏰ **ann** was idle: the bag revealed 🪨 (3 / 6)"
    assert PRESENTER.log_lines(table.view(), idle) == PRESENTER.move_lines(table.view(), idle)
    assert PRESENTER.log_lines(table.view(), idle) == [line]
    stop = act(table, 0, {"type": "draw"})
    assert PRESENTER.move_lines(table.view(), stop) == [
        "🎒 **ann** drew 🪨 Rock (4 / 6)",
        *PRESENTER.log_lines(table.view(), stop),
    ]


def test_over_whole_games_every_move_is_in_words_and_only_draws_gain_a_line() -> None:
    for seed in range(3):
        whole = make_table(SLUG, 4, seed=seed)
        for outcome in play(whole, seed):
            log = PRESENTER.log_lines(whole.view(), outcome)
            said = PRESENTER.move_lines(whole.view(), outcome)
            assert said, outcome.action
            reveals = [e for e in outcome.events if e.type == "reveal" and not e.data["auto"]]
            assert len(said) == len(log) + len(reveals)


def test_log_lines_for_a_chosen_take_leftovers_and_a_timed_out_choice(rig: Rig) -> None:
    table = scripted_table(3, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    rig("c1", "c2", "c3", "c4", "c5", "scary")
    draw(table)
    do(table, 1, {"type": "grab", "token": 4})
    do(table, 2, {"type": "grab", "token": 1})
    draw(table, 5)
    # ① has six tied groups: the timer picks for cy
    lines = do(table, SYSTEM, engine.deadlines()[0].action)
    assert len(lines) == 1 and lines[0].startswith("① **cy** took ")
    assert lines[0].endswith(" (time ran out)")
    assert do(
        table,
        1,
        {"type": "take", "step": step(table), "tokens": dict(engine.legal_actions(1)[0]["tokens"])},
    )[0].startswith("④ **bob** took ")
    left = dict(engine.state.pool)
    shown = " ".join(EMOJI[t] * n for t, n in left.items())
    assert do(table, 0, {"type": "take_all", "step": step(table)}) == [
        f"🧺 **ann** took the leftovers: {shown}",
        "🎒 Turn 2: **bob** draws",
    ]


def test_log_lines_depend_only_on_events_and_names() -> None:
    """After a restart the log is rebuilt against the newest engine: lines must not read it."""
    table = make_table(SLUG, 4, seed=9)
    other = BagOfBugs.new(4, 99)
    for outcome in play(table, 9):
        lines = PRESENTER.log_lines(table.view(), outcome)
        assert (
            PRESENTER.log_lines(dataclasses.replace(table, engine=other).view(), outcome) == lines
        )


def test_the_board_shows_this_turn_and_the_previous_turn_apart() -> None:
    table = make_table(SLUG, 3, seed=2)
    log = ["old 1", "🎒 Turn 2: x draws", "a", "b", "🎒 Turn 3: y draws", "c"]
    board = board_of(table, log)
    assert field(board, "Previous turn") == "a\nb"
    assert field(board, "This turn") == "c"
    log.append("🎒 Turn 4: z draws")
    board = board_of(table, log)
    assert field(board, "Previous turn") == "c"
    assert board.embed is not None and "This turn" not in [f.name for f in board.embed.fields]


# -- reply and stale buttons ---------------------------------------------------------------


def test_reply_is_silent_for_draws_and_grabs_and_confirms_choices(rig: Rig) -> None:
    table = scripted_table(3, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    engine.state.collections[1] = {"c1": 1, "scary": 1}
    rig("c2", "wind", "c2", "c2", "c2", "c3")
    assert PRESENTER.reply(*after(act(table, 0, {"type": "draw"}))) is None
    assert PRESENTER.reply(*after(act(table, 1, {"type": "grab", "token": 4}))) is None
    for _ in range(5):
        act(table, 0, {"type": "draw"})
    s = step(table)
    reply = PRESENTER.reply(
        *after(act(table, 1, {"type": "take", "step": s, "tokens": {"c2": 1, "wind": 1}}))
    )
    assert reply is not None and reply.content == (
        "✅ You took 🟡 💨. 💨 You collected a Wind: choose a token to give away, on the board."
    )
    reply = PRESENTER.reply(
        *after(act(table, 1, {"type": "give", "step": step(table), "token": "scary"}))
    )
    assert reply is not None and reply.content == "✅ You gave 🕷️ to **cy**."
    reply = PRESENTER.reply(*after(act(table, 0, {"type": "return_all", "step": step(table)})))
    assert (
        reply is not None
        and reply.content == "✅ You returned the leftovers to the bag: 🟡🟡🟡 🟢."
    )


def test_stale_texts() -> None:
    assert PRESENTER.stale_text({"type": "grab", "token": 3}) == "Too late: that draw is over."
    assert "**Draw**" in PRESENTER.stale_text({"type": "draw"})
    assert "already settled" in PRESENTER.stale_text({"type": "take", "step": 1, "tokens": {}})
    assert "earlier turn" in PRESENTER.stale_text({"type": "other"})


# -- final ---------------------------------------------------------------------------------


def finished(collections: list[dict[str, int]], names: list[str]) -> Table:
    table = make_table(SLUG, len(collections), seed=4, names=names)
    t = engine_of(table).state
    t.collections = collections
    t.phase = "over"
    t.pairs = t.setup.pairs_needed
    t.turn_number = 12
    return table


FINAL_LOG = ("🎒 Turn 12: x draws", "🏁 Game over: somebody wins.")
"""The public log of every ``finished`` table."""


def test_final_board_shows_the_breakdown_and_the_winner() -> None:
    table = finished(
        [
            # the rulebook's example: 4/3/2/1/1 Bugs, 1 Larva, 3 Scary Bugs (the most) → 14
            {"c1": 4, "c2": 3, "c3": 2, "c4": 1, "c5": 1, "larva": 1, "scary": 3},
            {"c1": 3, "larva": 4, "scary": 1},
            {"c2": 1},
        ],
        ["ann", "bob", "cy"],
    )
    final = PRESENTER.final(table.view(), FINAL_LOG)
    assert PRESENTER.boards(table.view(), FINAL_LOG) == [final]
    check_limits(final, 0)
    assert final.rows == ()
    assert final.embed is not None
    assert desc(final).startswith("🏆 **bob** wins with **17 points**!")
    assert "All 4 Rock pairs were set aside after 12 turns." in desc(final)
    assert [f.name for f in final.embed.fields] == [
        "🏆 bob — 17 points",
        "ann — 14 points",
        "cy — 1 point",
        "Final turn",
    ]
    assert field(final, "ann") == (
        "🔴×4 **0** · 🟡×3 **+6** · 🟢×2 **+3** · 🔵×1 **+1** · 🟣×1 **+1**\n"
        "🌈 all colours **+5** · 🐛×1 **+3** · 🕷️×3 **-3** · most 🕷️ **-2**"
    )
    assert field(final, "🏆 bob") == (
        "🔴×3 **+6** · 🟡×0 **0** · 🟢×0 **0** · 🔵×0 **0** · 🟣×0 **0**\n"
        "🌈 all colours **0** · 🐛×4 **+12** · 🕷️×1 **-1** · most 🕷️ **0**"
    )
    assert field(final, "Final turn") == "🏁 Game over: somebody wins."


def test_final_board_with_a_shared_win() -> None:
    table = finished([{"c1": 2}, {"c2": 2}, {"scary": 1}], ["ann", "bob", "cy"])
    final = PRESENTER.final(table.view())
    assert desc(final).startswith("🏆 **ann** and **bob** share the win with **3 points**!")
    assert final.embed is not None
    assert [f.name for f in final.embed.fields][:3] == [
        "🏆 ann — 3 points",
        "🏆 bob — 3 points",
        "cy — -3 points",
    ]


# -- the pause after a reveal (P-29) -------------------------------------------------------


def test_draw_is_disabled_with_its_time_during_the_pause_then_comes_back() -> None:
    import math
    from datetime import UTC, datetime, timedelta

    table = make_table(SLUG, 3)
    drawer = engine_of(table).state.drawer
    act(table, drawer, {"type": "draw"})
    until = datetime.now(UTC) + timedelta(seconds=30)
    table.paced_until["bag_min_gap"] = until
    (board,) = PRESENTER.boards(table.view())
    draw = next(b for b in board.buttons() if b.label == "Draw")
    assert draw.disabled
    assert board.embed is not None and f"**Draw** again <t:{math.ceil(until.timestamp())}:R>" in (
        board.embed.description or ""
    )
    assert PRESENTER.refresh_at(table.view()) == until

    table.paced_until["bag_min_gap"] = datetime.now(UTC) - timedelta(seconds=1)
    (board,) = PRESENTER.boards(table.view())
    assert not next(b for b in board.buttons() if b.label == "Draw").disabled
    assert "again <t:" not in (board.embed.description if board.embed else "")
    assert PRESENTER.refresh_at(table.view()) is None
