"""The Bug Run board image: sizes, every card, every token position, determinism, fingerprints,
and that only the public view is drawn.

States come from the real engine (``BugRun.new`` and random legal play); card swaps go through the
engine's own ``make_slot`` so each view is one the engine could produce.
"""

from __future__ import annotations

import copy
import io
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.ui.images import canvas
from bot.ui.images.bug_run import (
    HERO_COLOURS,
    ITEM_STYLE,
    KIND_COLOURS,
    PALETTE,
    board_fingerprint,
    image_size,
    render_board,
    render_with_fingerprint,
)
from rules.bug_run import board
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.bug_run.state import Hero, Position, Space
from rules.core import Rng

NAMES = ["Ann", "Bjørn", "Chloé 🐛", "Dmitri", "Eve", "Frank"]
SIZES = {2: (1280, 690), 3: (1280, 690), 4: (1280, 690), 5: (1280, 962), 6: (1280, 1002)}
MAX_PNG = 200_000


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    assert im.format == "PNG"
    return im


def check_png(png: bytes, players: int) -> Image.Image:
    im = decode(png)
    assert im.size == SIZES[players]
    assert im.mode == "P"
    assert len(png) <= MAX_PNG
    return im


def place(g: BugRun, h: int, col: int, floor: str, space: int | None) -> None:
    """Move hero ``h`` as the engine would: off its old space, onto the new one."""
    old = g.context.hero(h).pos
    if old is not None and old.space is not None:
        g.context.slot(old.col, old.floor).spaces[old.space].hero = None
    g.context.hero(h).pos = Position(col, floor, space)
    if space is not None:
        g.context.slot(col, floor).spaces[space].hero = h


def middle_slots(g: BugRun) -> list[tuple[int, str]]:
    return [(c, f) for c in range(1, len(g.state.board) - 1) for f in sorted(g.state.board[c])]


def random_states(players: int, seed: int, mode: str, every: int) -> Iterator[BugRun]:
    """A random legal game, yielded every ``every`` actions, at each phase change and at the end."""
    g = BugRun.new(players, seed, {"mode": mode})
    rng = Rng(seed + 1000)
    phase = None
    for n in range(5000):
        if g.state.phase != phase or n % every == 0:
            phase = g.state.phase
            yield g
        if g.is_over:
            return
        seat = next(iter(g.waiting_for()))
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    raise AssertionError("the game did not end")


# -- sizes -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sizes_follow_the_sizing_rule(players: int) -> None:
    """Width 1280; height = margins + header + board (one row of cards at 2-4 players, two floors
    at 5-6) + legend (a row per hero, at least four) + key."""
    assert image_size(players) == SIZES[players]
    view = BugRun.new(players, players).view(None)
    check_png(render_board(view, NAMES[:players]), players)


# -- every card ----------------------------------------------------------------------------------------
def boards_with(players: int, cards: list[str]) -> Iterator[BugRun]:
    """Games whose middle slots are filled with ``cards``, a hero on the first space of each."""
    todo = list(cards)
    seed = 0
    while todo:
        g = BugRun.new(players, seed)
        for k, (col, floor) in enumerate(middle_slots(g)):
            if not todo:
                break
            slot = board.make_slot(g.context, todo.pop(0), g.state.level)
            g.state.board[col][floor] = slot
            if slot.spaces and k < g.context.n_heroes():
                place(g, k, col, floor, 0)
        seed += 1
        yield g


@pytest.mark.parametrize("players", [3, 5])
def test_every_monster_quest_and_bridge_renders(players: int) -> None:
    cards = sorted(C.MONSTERS) + sorted(C.EXPLORATION)
    drawn: list[str] = []
    prints = []
    for g in boards_with(players, cards):
        view = g.view(None)
        check_png(render_board(view, NAMES), players)
        prints.append(board_fingerprint(view, NAMES))
        drawn += [s["card"] for col in view["board"] for s in col.values()]
    assert set(cards) <= set(drawn)
    assert len(set(prints)) == len(prints)


@pytest.mark.parametrize("players", [2, 6])
def test_every_stairs_card_renders(players: int) -> None:
    prints = set()
    for cid in sorted(C.STAIRS):
        g = BugRun.new(players, 1)
        g.state.board[-1]["C"] = board.make_slot(g.context, cid, 1)
        place(g, 0, len(g.state.board) - 1, "C", 1)
        view = g.view(None)
        check_png(render_board(view, NAMES), players)
        prints.add(board_fingerprint(view, NAMES))
    assert len(prints) == len(C.STAIRS)


def test_every_level_card_line_renders_on_both_sides() -> None:
    for players in (4, 5):
        g = BugRun.new(players, 2)
        for level_card in sorted(C.LEVELS):
            g.state.level_card = level_card
            for level in range(1, 5):
                g.state.level = level
                g.state.explore = sorted(C.EXPLORATION)
                g.state.monsters[level - 1] = sorted(
                    m for m, d in C.MONSTERS.items() if d["level"] == level
                )
                board.build_level(g.context, level, [])
                check_png(render_board(g.view(None), NAMES), players)


# -- card states and token positions -----------------------------------------------------------------
def showcase(mode: str = "normal") -> BugRun:
    """A 5-player board with a wounded, a defeated and a crowded monster, every quest state,
    a bridge, a padlocked card, a reserved stairs space and a hero on the stairs without a space."""
    g = BugRun.new(5, 3, {"mode": mode})
    slots = middle_slots(g)
    cards = ["M3-22", "Q16", "B6", "Q10", "M2-13", "Q01", "Q08", "M4-31"]
    for (col, floor), cid in zip(slots, cards, strict=False):
        g.state.board[col][floor] = board.make_slot(g.context, cid, 1)
    by_card = {g.context.slot(c, f).card: (c, f) for c, f in slots}
    g.context.slot(*by_card["M3-22"]).wounds = 3
    g.context.slot(*by_card["Q16"]).marks = [0, 2]
    g.context.slot(*by_card["Q10"]).duel = 2
    defeated = g.context.slot(*by_card["M2-13"])
    defeated.wounds, defeated.defeated = 6, True
    g.context.slot(*by_card["Q01"]).locked = True
    g.context.slot(*by_card["Q08"]).marks = [1]
    crowded = g.context.slot(*by_card["M4-31"])
    crowded.spaces.append(Space("any", False, extra=True))
    stairs = len(g.state.board) - 1
    g.state.board[stairs]["C"] = board.make_slot(g.context, "ST8", 1)
    g.context.slot(stairs, "C").spaces[3].reserved = 2
    place(g, 0, *by_card["M3-22"], 0)
    place(g, 1, *by_card["M2-13"], 1)
    place(g, 2, *by_card["M4-31"], len(crowded.spaces) - 1)
    place(g, 3, stairs, "C", 0)
    place(g, 4, stairs, "C", None)
    g.state.flash = 1
    return g


@pytest.mark.parametrize("mode", ["normal", "powers"])
def test_showcase_states_render(mode: str) -> None:
    g = showcase(mode)
    check_png(render_board(g.view(None), NAMES), 5)


def test_each_token_position_is_drawn() -> None:
    """Entrance, a space, an Optional Extra space, the stairs, the stairs without a space:
    every move of one hero changes the picture."""
    g = showcase()
    col, floor = middle_slots(g)[0]
    stairs = len(g.state.board) - 1
    positions = [(0, "C", None), (col, floor, 1), (stairs, "C", 2), (stairs, "C", None)]
    seen = {render_board(g.view(None), NAMES)}
    for pos in positions:
        place(g, 0, *pos)
        seen.add(render_board(g.view(None), NAMES))
    assert len(seen) == len(positions) + 1


def test_final_escape_and_game_over() -> None:
    g = BugRun.new(3, 8)
    s = g.state
    s.phase, s.level, s.board, s.roof = "escape", 4, [], ["ST1", "ST5", "ST9", "ST3"]
    for h, reached in enumerate([3, None, 1]):
        g.context.hero(h).pos, g.context.hero(h).roof = None, reached
    escape = render_board(g.view(None), NAMES)
    check_png(escape, 3)
    g.context.hero(1).roof = 4
    assert render_board(g.view(None), NAMES) != escape
    s.phase = "over"
    over = g.view(None)
    assert "scores" in over
    check_png(render_board(over, NAMES), 3)


# -- random games ----------------------------------------------------------------------------------
def position_kind(g: BugRun, hero: Hero) -> str:
    pos = hero.pos
    if pos is None:
        return "roof" if hero.roof else "off-board"
    if pos.col == 0:
        return "entrance"
    if pos.col == len(g.state.board) - 1:
        return "stairs"
    return "card"


def test_random_games_render_at_every_stage() -> None:
    """2-6 players, both modes, to the end: every phase and every kind of position is drawn."""
    phases: set[str] = set()
    kinds: set[str] = set()
    for players in (2, 3, 4, 5, 6):
        for seed, mode in ((0, "normal"), (1, "powers")):
            for g in random_states(players, seed, mode, every=45):
                view = g.view(None)
                check_png(render_board(view, NAMES[:players]), players)
                phases.add(view["phase"])
                kinds |= {position_kind(g, h) for h in g.state.heroes}
                if players == 2:
                    assert [h["seat"] for h in view["heroes"]] == [0, 0, 1, 1]
    assert phases == {"trading", "adventure", "escape", "over"}
    assert kinds == {"entrance", "card", "stairs", "roof", "off-board"}


# -- determinism, threads, fingerprints ----------------------------------------------------------
def test_same_input_same_bytes_from_any_thread() -> None:
    views = [g.view(None) for g in (showcase(), BugRun.new(2, 5), BugRun.new(6, 7))]
    alone = [render_board(v, NAMES) for v in views]
    assert alone == [render_board(v, NAMES) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda v: render_board(v, NAMES), views * 4))
    assert together == alone * 4


def test_fingerprint_follows_what_is_drawn() -> None:
    g = showcase()
    view = g.view(None)
    first = board_fingerprint(view, NAMES)
    assert board_fingerprint(copy.deepcopy(view), list(NAMES)) == first
    undrawn = copy.deepcopy(view)
    undrawn.update(turn=999, market=[], decks={}, names={}, markers={"BZ01-1": 2})
    undrawn["seats"][0]["hand_size"] = 9
    assert board_fingerprint(undrawn, NAMES) == first

    col, floor = middle_slots(g)[0]
    g.context.slot(col, floor).wounds += 1
    assert board_fingerprint(g.view(None), NAMES) != first
    g.context.slot(col, floor).wounds -= 1
    assert board_fingerprint(g.view(None), NAMES) == first
    place(g, 0, 0, "C", None)
    assert board_fingerprint(g.view(None), NAMES) != first
    assert board_fingerprint(view, ["Zed", *NAMES[1:]]) != first


def test_render_with_fingerprint_matches_both_functions() -> None:
    view = showcase().view(None)
    assert render_with_fingerprint(view, NAMES) == (
        board_fingerprint(view, NAMES),
        render_board(view, NAMES),
    )


# -- only the public view -------------------------------------------------------------------------
def test_only_the_public_view_is_drawn() -> None:
    g = showcase()
    public = g.view(None)
    junk = dict(public, you={"seat": 0, "hand": ["LT01-1"], "vp": 99, "options": [1, 2]})
    assert render_board(junk, NAMES) == render_board(public, NAMES)
    assert board_fingerprint(junk, NAMES) == board_fingerprint(public, NAMES)
    seat_view = g.view(0)  # has "you" and the seat's VP
    assert board_fingerprint(seat_view, NAMES) == board_fingerprint(public, NAMES)


# -- text and purity -------------------------------------------------------------------------------
def test_names_keep_to_what_the_font_draws() -> None:
    assert canvas.ascii_text("Bjørn Ærø") == "Bjorn AEro"
    assert canvas.ascii_text("Chloé 🐛  ") == "Chloe"
    assert canvas.ascii_text("🐛🐛") == ""
    view = BugRun.new(3, 1).view(None)
    check_png(render_board(view, ["🐛", "", "名前"]), 3)
    assert board_fingerprint(view, ["🐛", "", "名前"]) == board_fingerprint(view, ["", "", ""])


def test_palette_holds_every_theme_colour() -> None:
    flat = PALETTE.getpalette()
    assert flat is not None and len(flat) == 768
    palette = set(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))
    theme = [*HERO_COLOURS.values(), *KIND_COLOURS.values(), *(s[1] for s in ITEM_STYLE.values())]
    assert set(theme) <= palette


def test_module_is_pure() -> None:
    code = (
        "import sys, bot.ui.images.bug_run\n"
        "bad = [m for m in ('discord', 'sqlalchemy', 'asyncio', 'bot.store', 'bot.host')"
        " if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_renders_with_the_bitmap_font_when_freetype_is_missing() -> None:
    code = (
        "from PIL import ImageFont\n"
        "ImageFont.load_default = lambda size=None: ImageFont.load_default_imagefont()\n"
        "import io\n"
        "from PIL import Image\n"
        "from bot.ui.images.bug_run import image_size, render_board\n"
        "from rules.bug_run.engine import BugRun\n"
        "png = render_board(BugRun.new(5, 1).view(None), ['A', 'B', 'C', 'D', 'E'])\n"
        "assert Image.open(io.BytesIO(png)).size == image_size(5)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
