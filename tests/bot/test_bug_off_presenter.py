"""The Bug Off! presenter: Discord limits, no leaks, hands and buttons, log lines and results.

Leaks are detected by comparison rather than by searching for words: the board must be equal to
the board of a copy of the game whose hidden state (hands, drawn card, points colours, deck
order) was redrawn at random, and a log line must be the same whatever a private event said
and whatever state the engine is in.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.host.table import Outcome, Table
from bot.ui.games.bug_off import EMOJI, BugOffPresenter
from bot.ui.presenter import HAND_BUTTON, presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec
from rules.bug_off import COLOURS, BugOff
from rules.bug_off.cards import bug_off
from rules.core import SYSTEM, Event
from tests.support.specs import check_limits, field
from tests.support.tables import act, after, make_table

SLUG = "bug-off"
PRESENTER = presenter_for(SLUG)
LONG_NAMES = [f"{c}_*player*_{'x' * 20}"[:32] for c in "ABCDEF"]
CHIP = re.compile("(" + "|".join(EMOJI.values()) + r")×(\d+)")
COLOUR_OF = {emoji: colour for colour, emoji in EMOJI.items()}
COLOUR_TOKEN = re.compile("|".join([*EMOJI.values(), *(rf"\b{c}\b" for c in COLOURS)]))


# -- helpers -------------------------------------------------------------------------------


def engine_of(table: Table) -> BugOff:
    engine = table.running()
    assert isinstance(engine, BugOff)
    return engine


def clone(engine: BugOff) -> BugOff:
    return BugOff.from_dict(json.loads(json.dumps(engine.to_dict())))


def with_engine(table: Table, engine: BugOff) -> Table:
    """The same table (seats, log) showing another engine."""
    return dataclasses.replace(table, engine=engine)


def scramble(
    engine: BugOff, rng: random.Random, *, keep: int | None = None, points: bool = True
) -> BugOff:
    """A copy whose secrets (all but ``keep``'s) are redrawn at random with the same sizes."""
    other = clone(engine)
    rng.shuffle(other.state.deck)
    zones = [other.state.hands, other.state.points] if points else [other.state.hands]
    for seat in range(other.players):
        if seat == keep:
            continue
        for zone in zones:
            pile = zone[seat]  # the engine's own dict: redrawn in place
            size = sum(pile.values())
            pile.update(dict.fromkeys(COLOURS, 0))
            for _ in range(size):
                pile[rng.choice(COLOURS)] += 1
        if seat == other.state.active and other.state.drawn is not None:
            other.state.drawn = rng.choice([c for c in COLOURS if other.state.hands[seat][c]])
    return other


def texts(spec: MessageSpec) -> list[str]:
    out = [spec.content or ""]
    if spec.embed:
        e = spec.embed
        out += [e.title or "", e.description or "", e.footer or ""]
        out += [part for f in e.fields for part in (f.name, f.value)]
    out += [b.label for b in spec.buttons()]
    return out


def chips(text: str) -> dict[str, int]:
    """``🟥×3 🟦×1`` back into colour counts (all six colours)."""
    out = dict.fromkeys(COLOURS, 0)
    for emoji, n in CHIP.findall(text):
        out[COLOUR_OF[emoji]] += int(n)
    return out


def hand_counts(spec: MessageSpec) -> dict[str, int]:
    """The "Your hand" field (``🟥 red ×2`` per line) back into colour counts."""
    out = dict.fromkeys(COLOURS, 0)
    value = field(spec, "Your hand")
    if value == "—":
        return out
    for line in value.splitlines():
        m = re.fullmatch(r"(\S+) (\w+) ×(\d+)", line)
        assert m, line
        assert EMOJI[m[2]] == m[1]
        out[m[2]] += int(m[3])
    return out


def actions(buttons: list[ButtonSpec]) -> list[str]:
    return sorted(json.dumps(b.action, sort_keys=True) for b in buttons if b.action is not None)


def legal(engine: BugOff, seat: int) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in engine.legal_actions(seat))


def public_colours(events: list[Event]) -> set[str]:
    """Every colour named as a value in a public event (dict keys are not claims)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and value in COLOURS:
            found.add(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for event in events:
        if event.is_public:
            walk(event.data)
    return found


def colours_named(lines: list[str]) -> set[str]:
    out = set()
    for token in COLOUR_TOKEN.findall("\n".join(lines)):
        out.add(COLOUR_OF.get(token, token))
    return out


def play(
    table: Table,
    seed: int,
    on_outcome: Callable[[Outcome], None] | None = None,
    log: list[str] | None = None,
) -> Iterator[Outcome]:
    """Random legal play with the turn clock firing now and then; adds to ``log`` what the
    public log would show."""
    rng = random.Random(seed)
    engine = engine_of(table)
    while not engine.is_over:
        if rng.random() < 0.06:
            outcome = act(table, SYSTEM, engine.deadlines()[0].action)
        else:
            seat = engine.state.active
            outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
        if log is not None:
            log.extend(PRESENTER.log_lines(table.view(), outcome))
        yield outcome


def finished_engine(points: list[dict[str, int]], stack: list[str], seed: int = 3) -> BugOff:
    """A game over with the given points piles and BUG OFF order (hands stay as dealt)."""
    engine = BugOff.new(len(points), seed)
    data = engine.to_dict()
    data["points"] = points
    data["bug_offs"] = stack
    data["deck"] = [c for c in data["deck"] if not c.startswith("off:")]
    data["phase"] = "over"
    return BugOff.from_dict(data)


def pile(**counts: int) -> dict[str, int]:
    return {c: counts.get(c, 0) for c in COLOURS}


# -- registration and limits ---------------------------------------------------------------


def test_the_bug_off_presenter_is_registered() -> None:
    assert isinstance(PRESENTER, BugOffPresenter)
    assert PRESENTER.slug == SLUG


@pytest.mark.parametrize("players", [2, 6])
def test_board_hand_reply_and_final_fit_discord_limits(players: int) -> None:
    table = make_table(SLUG, players, seed=11, names=LONG_NAMES[:players])
    seen_choose = 0
    log: list[str] = []
    for outcome in play(table, seed=players, log=log):
        for board in PRESENTER.boards(table.view(), log):
            check_limits(board)
        for seat in range(players):
            for hand in (PRESENTER.hand(table.view(), seat), PRESENTER.my_hand(table.view(), seat)):
                assert hand is not None
                check_limits(hand)
        reply = PRESENTER.reply(table.view(), outcome)
        if reply is not None:
            check_limits(reply)
        if engine_of(table).state.phase == "choose":
            seen_choose += 1
    assert seen_choose > 10
    check_limits(PRESENTER.final(table.view(), log))
    assert log  # the board's log field was exercised with long lines too


def test_six_players_with_the_widest_wipes_still_fit() -> None:
    """A BUG OFF that wipes all six colours from six long-named players, eight times over."""
    table = make_table(SLUG, 6, seed=4, names=LONG_NAMES)
    wiped = [{"seat": s, "colour": c, "count": 20} for s in range(6) for c in COLOURS]
    event = Event.public(
        "bug_off",
        seat=0,
        colour="red",
        number=6,
        wiped_colours=list(COLOURS),
        wiped=wiped,
        wiped_total=20 * 36,
        deck_size=0,
    )
    outcome = Outcome(table.view(), 0, {"type": "draw"}, [event], False, 0, 1)
    log: list[str] = []
    for _ in range(8):
        log.extend(PRESENTER.log_lines(table.view(), outcome))
    board = PRESENTER.boards(table.view(), log)[0]
    check_limits(board)
    # the newest line is always kept, even when older ones have to go
    assert field(board, "Log").splitlines()[-1].startswith("💥")


# -- the board -----------------------------------------------------------------------------


def test_board_shows_the_public_table() -> None:
    table = make_table(SLUG, 3, seed=5)
    engine = engine_of(table)
    data = engine.to_dict()
    data["tableaux"][1] = pile(red=3, blue=1)
    data["points"][2] = pile(green=4, purple=3)
    data["bug_offs"] = ["blue", "red"]
    data["deck"] = [c for c in data["deck"] if c not in (bug_off("blue"), bug_off("red"))]
    data["active"] = 1
    table = with_engine(table, BugOff.from_dict(data))
    log = [f"line {i}" for i in range(12)]
    board = PRESENTER.boards(table.view(), log)[0]
    assert board.embed is not None
    desc = board.embed.description or ""
    assert "▶ **p1**'s turn: draw a card." in desc
    assert f"Deck: **{len(data['deck'])}** cards left" in desc
    assert "🟦 → 🟥 · 2 of 6" in desc
    p1 = field(board, "▶ p1")
    assert chips(p1) == pile(red=3, blue=1)
    assert "Hand: 3 · Points: **0**" in p1
    assert "Points: **7**" in field(board, "p2")
    assert "🟩" not in field(board, "p2")  # points colours stay secret
    assert field(board, "Log").splitlines() == [f"line {i}" for i in range(4, 12)]
    assert board.rows == (
        (
            ButtonSpec("Draw", action={"type": "draw"}, style=board.buttons()[0].style, emoji="🃏"),
            HAND_BUTTON,
        ),
    )

    # after the draw: the board says so, and Draw is disabled; the drawn colour is not shown
    act(table, 1, {"type": "draw"})
    board = PRESENTER.boards(table.view(), log)[0]
    assert board.embed is not None
    assert "▶ **p1** has drawn and is choosing" in (board.embed.description or "")
    assert "Hand: 4" in field(board, "▶ p1")
    assert board.buttons()[0].disabled and board.buttons()[1] == HAND_BUTTON


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_board_and_log_never_leak_secrets(players: int, seed: int) -> None:
    table = make_table(SLUG, players, seed=seed)
    rng = random.Random(seed)
    fresh = BugOff.new(players, seed + 100)
    scrambled_differs = draws = 0
    for outcome in play(table, seed=seed):
        engine = engine_of(table)
        lines = PRESENTER.log_lines(table.view(), outcome)

        # log lines come from public events only: blanking or rewriting private events, or
        # showing a different engine state, changes nothing
        public_only = dataclasses.replace(
            outcome, events=[e for e in outcome.events if e.is_public]
        )
        assert PRESENTER.log_lines(table.view(), public_only) == lines
        for colour in COLOURS:
            rewritten = [
                Event(e.type, {**e.data, "colour": colour}, e.to) if not e.is_public else e
                for e in outcome.events
            ]
            other = dataclasses.replace(outcome, events=rewritten)
            assert PRESENTER.log_lines(table.view(), other) == lines
        assert PRESENTER.log_lines(with_engine(table, fresh).view(), outcome) == lines
        # ... and they name no colour that the public events did not name
        assert colours_named(lines) <= public_colours(outcome.events)
        if outcome.action == {"type": "draw"} and outcome.seat != SYSTEM:
            draws += 1
            private = [e for e in outcome.events if e.type == "drew_card"]
            offs = {
                c for e in outcome.events if e.type == "bug_off" for c in e.data["wiped_colours"]
            }
            for e in private:
                if e.data["colour"] not in offs:
                    assert colours_named(lines) <= offs

        # the board is the same whatever the hidden state is
        board = PRESENTER.boards(table.view())
        for _ in range(2):
            other_engine = scramble(engine, rng, points=not engine.is_over)
            if any(other_engine.view(s) != engine.view(s) for s in range(players)):
                scrambled_differs += 1
            assert PRESENTER.boards(with_engine(table, other_engine).view()) == board
        if not engine.is_over:
            assert actions(board[0].buttons()) == ['{"type": "draw"}']
            assert HAND_BUTTON in board[0].buttons()
    assert draws > 20 and scrambled_differs > 40
    assert engine_of(table).is_over


# -- the hand ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (4, 8), (6, 9)])
def test_hand_shows_exactly_that_seats_cards_and_legal_buttons(players: int, seed: int) -> None:
    table = make_table(SLUG, players, seed=seed)
    rng = random.Random(seed)
    choices = 0
    for _ in play(table, seed=seed):
        engine = engine_of(table)
        if engine.is_over:
            break
        for seat in range(players):
            spec = PRESENTER.my_hand(table.view(), seat)
            dm = PRESENTER.hand(table.view(), seat)
            assert spec is not None and dm is not None
            assert dm.embed is not None and spec.embed is not None
            # The DM is the same whoever's turn it is: no button, no turn line; while its
            # player chooses, it shows the hand from before the draw (the drawn card is in the
            # answer to Draw), so a turn edits it once at most (issue #21's request budget).
            assert not dm.buttons()
            assert (dm.embed.description or "").startswith("Your cards between turns.")
            before = dict(engine.state.hands[seat])
            if seat == engine.state.active and engine.state.phase == "choose":
                assert engine.state.drawn is not None
                before[engine.state.drawn] -= 1
            assert hand_counts(dm) == before
            assert dm.embed.fields[1:] == spec.embed.fields[1:3]
            assert hand_counts(spec) == engine.state.hands[seat]
            assert chips(field(spec, "Your points pile")) == engine.state.points[seat]
            assert chips(field(spec, "Face up")) == engine.state.tableaux[seat]
            buttons = spec.buttons()
            assert actions(buttons) == legal(engine, seat)
            assert len(buttons) == len(engine.legal_actions(seat))  # no extra buttons
            # nobody else's secrets: redrawing them changes nothing in this hand
            assert (
                PRESENTER.my_hand(with_engine(table, scramble(engine, rng, keep=seat)).view(), seat)
                == spec
            )
            assert spec.embed is not None
            desc = spec.embed.description or ""
            if seat == engine.state.active and engine.state.phase == "choose":
                choices += 1
                drawn = engine.state.drawn
                assert drawn is not None
                assert f"You drew {EMOJI[drawn]} **{drawn}**" in desc
                held = [c for c in COLOURS if engine.state.hands[seat][c]]
                rows = [row for row in spec.rows if isinstance(row, tuple)]
                assert [b.action for b in rows[0]] == [{"type": "place", "colour": c} for c in held]
                assert [b.action for b in rows[1]] == [{"type": "score", "colour": c} for c in held]
                assert all(b.emoji == EMOJI[c] for b, c in zip(rows[0], held, strict=True))
            elif seat == engine.state.active:
                assert "Your turn" in desc
                assert actions(buttons) == ['{"type": "draw"}']
            else:
                assert "Not your turn" in desc and not buttons
                assert "message" not in desc  # "My hand" shows it too, with DMs closed
    assert choices > 10


def test_score_preview_names_who_would_gain() -> None:
    table = make_table(SLUG, 3, seed=2)
    engine = engine_of(table)
    data = engine.to_dict()
    data["active"] = 0
    data["hands"][0] = pile(blue=2, red=1)
    data["tableaux"][1] = pile(blue=3)
    data["tableaux"][0] = pile(blue=1)
    data["deck"] = ["green", *data["deck"]]
    table = with_engine(table, BugOff.from_dict(data))
    act(table, 0, {"type": "draw"})
    spec = PRESENTER.my_hand(table.view(), 0)
    assert spec is not None
    preview = field(spec, "If you score").splitlines()
    assert preview == [
        "🟥 red → nobody (no face-up cards)",
        "🟩 green → nobody (no face-up cards)",
        "🟦 blue → you +1, p1 +3",
    ]


def test_hand_after_the_game_is_over_shows_the_points_pile_without_buttons() -> None:
    engine = finished_engine([pile(red=2), pile(blue=1)], ["red", "blue", *COLOURS[1:4], "purple"])
    table = with_engine(make_table(SLUG, 2, seed=3), engine)
    spec = PRESENTER.my_hand(table.view(), 0)
    assert spec is not None and not spec.rows
    assert chips(field(spec, "Your points pile")) == pile(red=2)


# -- reply ---------------------------------------------------------------------------------


def test_reply_after_a_draw_shows_the_card_and_the_choices() -> None:
    table = make_table(SLUG, 3, seed=6)
    engine = engine_of(table)
    seat = engine.state.active
    outcome = act(table, seat, {"type": "draw"})
    reply = PRESENTER.reply(table.view(), outcome)
    assert reply is not None
    drawn = engine.state.drawn
    assert drawn is not None
    assert reply.embed is not None and f"You drew {EMOJI[drawn]} **{drawn}**" in (
        reply.embed.description or ""
    )
    assert actions(reply.buttons()) == legal(engine, seat)
    assert hand_counts(reply) == engine.state.hands[seat]

    colour = engine.legal_actions(seat)[0]["colour"]
    placed = act(table, seat, {"type": "place", "colour": colour})
    assert PRESENTER.reply(table.view(), placed) is None


def test_beside_the_dm_the_panel_shows_the_choices_but_not_the_hand() -> None:
    """The DM shows the hand: the Draw's answer and My hand in the channel do not repeat it
    (P-48); with DMs closed they are where the hand is."""
    table = make_table(SLUG, 3, seed=6)
    engine = engine_of(table)
    seat = engine.state.active
    outcome = act(table, seat, {"type": "draw"})
    beside = PRESENTER.private_reply(table.view(), outcome, in_dm=True)
    assert beside is not None and beside.embed is not None
    description = beside.embed.description or ""
    assert "You drew" in description and "Your hand is in your DM" in description
    assert actions(beside.buttons()) == legal(engine, seat)
    names = [f.name for f in beside.embed.fields]
    assert not any(n.startswith(("Your hand", "Your points pile", "Face up")) for n in names)
    alone = PRESENTER.private_reply(table.view(), outcome, in_dm=False)
    assert alone == PRESENTER.reply(table.view(), outcome)
    assert alone is not None and hand_counts(alone) == engine.state.hands[seat]

    hand = PRESENTER.private_hand(table.view(), seat, in_dm=True)
    assert hand is not None and hand.embed is not None
    assert "Your hand is in your DM" in (hand.embed.description or "")
    assert actions(hand.buttons()) == legal(engine, seat)
    assert not any(f.name.startswith("Your hand") for f in hand.embed.fields)
    assert PRESENTER.private_hand(table.view(), seat, in_dm=False) == PRESENTER.my_hand(
        table.view(), seat
    )


def test_reply_mentions_bug_offs_before_the_drawn_card_and_the_end() -> None:
    table = make_table(SLUG, 2, seed=6)
    engine = engine_of(table)
    data = engine.to_dict()
    data["deck"] = [bug_off("blue"), "red", *(c for c in data["deck"] if c != bug_off("blue"))]
    table = with_engine(table, BugOff.from_dict(data))
    outcome = act(table, data["active"], {"type": "draw"})
    reply = PRESENTER.reply(table.view(), outcome)
    assert reply is not None and reply.embed is not None
    desc = reply.embed.description or ""
    assert desc.startswith("💥 You drew the 1st BUG OFF 🟦 first")
    assert "You drew 🟥 **red**" in desc

    # the sixth BUG OFF ends the game: no drawn card, a plain note
    data = engine_of(table).to_dict()
    data["bug_offs"] = [c for c in COLOURS if c != "green"]
    data["deck"] = [bug_off("green"), *(c for c in data["deck"] if not c.startswith("off:"))]
    data["phase"] = "draw"
    data["drawn"] = None
    data["hands"][data["active"]] = pile(red=3)
    table = with_engine(table, BugOff.from_dict(data))
    outcome = act(table, data["active"], {"type": "draw"})
    assert outcome.finished
    reply = PRESENTER.reply(table.view(), outcome)
    assert reply is not None and reply.content is not None
    assert "6th BUG OFF 🟩" in reply.content and "game is over" in reply.content


def test_reply_is_none_for_the_clock() -> None:
    table = make_table(SLUG, 2, seed=6)
    outcome = act(table, SYSTEM, engine_of(table).deadlines()[0].action)
    assert PRESENTER.reply(table.view(), outcome) is None


# -- log lines -----------------------------------------------------------------------------


def test_log_lines_for_draw_place_score_and_timeouts() -> None:
    table = make_table(SLUG, 3, seed=8, names=["ann", "bob", "cy"])
    engine = engine_of(table)
    data = engine.to_dict()
    data["active"] = 0
    data["hands"][0] = pile(blue=2, red=1)
    data["tableaux"][1] = pile(blue=3)
    data["tableaux"][2] = pile(blue=1, green=2)
    data["deck"] = ["yellow", "purple", "orange", *data["deck"]]
    table = with_engine(table, BugOff.from_dict(data))
    size = len(data["deck"])

    def lines(seat: int, action: dict[str, Any]) -> list[str]:
        return PRESENTER.log_lines(*after(act(table, seat, action)))

    assert lines(0, {"type": "draw"}) == [f"🃏 ann drew a card ({size - 1} left)"]
    assert lines(0, {"type": "score", "colour": "blue"}) == [
        "🎯 ann scored 🟦: bob +3, cy +1 → **bob**'s turn"
    ]
    assert lines(1, {"type": "draw"}) == [f"🃏 bob drew a card ({size - 2} left)"]
    assert lines(1, {"type": "place", "colour": "purple"}) == [
        "🐛 bob placed 🟪 (🟪×1 face up) → **cy**'s turn"
    ]
    # the clock before the draw: draws and places the drawn card (public once placed)
    assert lines(SYSTEM, {"type": "timeout", "turn": engine_of(table).turn}) == [
        f"⏰ cy ran out of time: drew a card ({size - 3} left), placed 🟧 (🟧×1 face up)"
        " → **ann**'s turn"
    ]
    # the clock after the draw: places the drawn card
    act(table, 0, {"type": "draw"})
    drawn = engine_of(table).state.drawn
    assert drawn is not None
    count = engine_of(table).state.tableaux[0][drawn] + 1
    assert lines(SYSTEM, {"type": "timeout", "turn": engine_of(table).turn}) == [
        f"⏰ ann ran out of time: placed {EMOJI[drawn]} ({EMOJI[drawn]}×{count} face up)"
        " → **bob**'s turn"
    ]


def test_log_line_for_a_score_nobody_gains_from() -> None:
    table = make_table(SLUG, 2, seed=8, names=["ann", "bob"])
    data = engine_of(table).to_dict()
    data["active"] = 1
    data["hands"][1] = pile(red=3)
    data["deck"] = ["red", *data["deck"]]
    table = with_engine(table, BugOff.from_dict(data))
    act(table, 1, {"type": "draw"})
    outcome = act(table, 1, {"type": "score", "colour": "red"})
    assert PRESENTER.log_lines(table.view(), outcome) == [
        "🎯 bob scored 🟥: nobody had 🟥 face up → **ann**'s turn"
    ]


def test_log_lines_for_bug_offs_and_the_end() -> None:
    table = make_table(SLUG, 2, seed=9, names=["ann", "bob"])
    data = engine_of(table).to_dict()
    data["active"] = 0
    data["tableaux"] = [pile(blue=2, red=1), pile(red=4, green=1)]
    data["points"] = [pile(red=5), pile(green=5)]
    data["bug_offs"] = ["red", "orange", "yellow", "purple"]
    rest = [c for c in data["deck"] if not c.startswith("off:")]
    data["deck"] = [bug_off("blue"), "green", *rest, bug_off("green")]
    table = with_engine(table, BugOff.from_dict(data))
    lines = PRESENTER.log_lines(*after(act(table, 0, {"type": "draw"})))
    assert lines == [
        "💥 ann drew the 5th BUG OFF 🟦: wiped ann 🟥×1 🟦×2, bob 🟥×4 (7 cards)",
        f"🃏 ann drew a card ({len(data['deck']) - 2} left)",
    ]
    # ann places; bob then draws until the last BUG OFF: a 5–5 tie decided by the first colour
    act(table, 0, {"type": "place", "colour": "green"})
    data = engine_of(table).to_dict()
    data["deck"].remove(bug_off("green"))
    data["deck"].insert(0, bug_off("green"))
    table = with_engine(table, BugOff.from_dict(data))
    lines = PRESENTER.log_lines(*after(act(table, 1, {"type": "draw"})))
    assert lines == [
        "💥 bob drew the 6th BUG OFF 🟩: wiped ann 🟩×1, bob 🟩×1 (2 cards)",
        "🏁 Game over: **ann** wins with 5 points after a tie-break.",
    ]


def test_log_names_are_markdown_escaped() -> None:
    table = make_table(SLUG, 2, seed=1, names=["a_b*", "c_d"])
    lines = PRESENTER.log_lines(*after(act(table, engine_of(table).state.active, {"type": "draw"})))
    assert lines[0].startswith(("🃏 a\\_b\\* drew", "🃏 c\\_d drew")), lines


# -- final ---------------------------------------------------------------------------------


def test_final_reveals_points_and_explains_a_decisive_tie_break() -> None:
    stack = ["blue", "red", "green", "yellow", "orange", "purple"]
    engine = finished_engine(
        [pile(blue=3, red=4, green=3), pile(blue=3, red=2, green=5), pile(purple=4)], stack
    )
    table = with_engine(make_table(SLUG, 3, seed=3, names=["ann", "bob", "cy"]), engine)
    final = PRESENTER.final(table.view())
    assert PRESENTER.boards(table.view()) == [final]
    check_limits(final)
    assert final.embed is not None and not final.rows
    desc = final.embed.description or ""
    assert desc.startswith("🏆 **ann** wins with **10** points!")
    assert "**Tie-break:** **ann** and **bob** tied on 10 points" in desc
    assert "• 1st BUG OFF 🟦: ann 3, bob 3 → still tied: ann and bob" in desc
    assert "• 2nd BUG OFF 🟥: ann 4, bob 2 → **ann** wins the tie-break" in desc
    assert "shared" not in desc
    names = [f.name for f in final.embed.fields]
    assert names[:3] == ["🏆 ann — 10 points", "bob — 10 points", "cy — 4 points"]
    # points piles in BUG OFF order with zeros, so the tie-break can be checked by eye
    assert field(final, "🏆 ann") == "🟦×3 🟥×4 🟩×3 🟨×0 🟧×0 🟪×0"
    assert chips(field(final, "cy")) == pile(purple=4)
    # hands stay hidden even at the end
    rng = random.Random(1)
    assert PRESENTER.final(with_engine(table, scramble(engine, rng, points=False)).view()) == final


def test_final_shared_win_and_no_tie() -> None:
    stack = list(COLOURS)
    engine = finished_engine([pile(red=2, blue=1), pile(red=2, blue=1)], stack)
    final = PRESENTER.final(with_engine(make_table(SLUG, 2, seed=3), engine).view())
    assert final.embed is not None
    desc = final.embed.description or ""
    assert desc.startswith("🏆 **p0** and **p1** share the win with **3** points!")
    assert "Still tied after every BUG OFF colour, so the win is shared." in desc
    assert desc.count("• ") == 6
    assert [f.name for f in final.embed.fields][:2] == ["🏆 p0 — 3 points", "🏆 p1 — 3 points"]

    engine = finished_engine([pile(red=2), pile(red=3)], stack)
    final = PRESENTER.final(with_engine(make_table(SLUG, 2, seed=3), engine).view())
    assert final.embed is not None
    assert (final.embed.description or "").startswith("🏆 **p1** wins with **3** points!")
    assert "Tie-break" not in (final.embed.description or "")


def test_stale_text_is_specific() -> None:
    assert "Draw" in PRESENTER.stale_text({"type": "draw"})
    assert "already made" in PRESENTER.stale_text({"type": "draw"})  # a double click
    assert "My hand" in PRESENTER.stale_text({"type": "draw"})
    assert "earlier turn" in PRESENTER.stale_text({"type": "place", "colour": "red"})
    assert "My hand" in PRESENTER.stale_text({"type": "score", "colour": "red"})
    assert "earlier turn" in PRESENTER.stale_text({"type": "whatever"})
