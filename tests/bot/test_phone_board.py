"""Bug Run's phone board (P-55): the picture's type at the size Discord shows it on a phone,
names cut only with an ellipsis and written out whole in the legend, every kind carrying its
letter, the alt text, and the channel text beside the picture kept to 15 lines."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageFont

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.ui.images import canvas
from bot.ui.images.bug_run import HERO_COLOURS, board_scene, render_board
from bot.ui.images.bug_run_phone import (
    ALT_MAX,
    KIND_WORDS,
    SHOWN_WIDTH,
    WIDTH,
    describe,
    kind_letter,
    render_phone_png,
)
from bot.ui.presenter import presenter_for
from bot.ui.specs import MessageSpec
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.core import SYSTEM, Rng
from tests.bot.test_board_image import boards_with, showcase
from tests.support.tables import act, make_table

SMALLEST = 11
"""No text may be shorter than this, in px, as a phone shows the picture (issue #26)."""
LONG = ["Annabelle Featherstonehaugh-Smythe", "Bo", "Chloé 🐛", "Dmitri Alexandrovich", "E", "F"]
Drawn = list[tuple[str, int, bool]]


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Every text item any picture draws from now on: (text, size, bold)."""
    seen: Drawn = []
    original = canvas.Canvas.text

    def recording(self: canvas.Canvas, x: int, y: int, text: str, size: int, *a, **k):  # type: ignore[no-untyped-def]
        seen.append((text, size, bool(k.get("bold"))))
        return original(self, x, y, text, size, *a, **k)

    monkeypatch.setattr(canvas.Canvas, "text", recording)
    return seen


def shown_height(text: str, size: int, scale: float) -> int:
    """How tall ``text`` is drawn at ``size`` when the picture is shown ``scale`` times its
    size: the ink of its capitals and digits, or of a capital H if it has none."""
    font = ImageFont.load_default(size=size * scale)
    tall = "".join(ch for ch in text if ch.isupper() or ch.isdigit()) or "H"
    box = font.getbbox(tall)
    return int(box[3] - box[1])


def states(players: int, seed: int) -> Iterator[BugRun]:
    """A random game, every 25 actions and at its end."""
    g = BugRun.new(players, seed)
    rng = Rng(seed)
    n = 0
    while not g.is_over:
        if n % 25 == 0:
            yield g
        seat = next(iter(g.waiting_for()))
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        n += 1
    yield g


def phone(g: BugRun, names: list[str]) -> Image.Image:
    im = Image.open(io.BytesIO(render_phone_png(board_scene(g.view(None), names))))
    assert im.width == WIDTH and im.height > im.width  # portrait, at the width sizes assume
    return im


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_text_is_smaller_than_eleven_px_on_a_phone(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = drawn_texts(monkeypatch)
    for g in states(players, players):
        phone(g, LONG[:players])
    scale = SHOWN_WIDTH / WIDTH
    assert len({t for t, _, _ in seen}) > 40
    small = sorted({(t, s) for t, s, _ in seen if shown_height(t, s, scale) < SMALLEST})
    assert not small, small[:10]


def test_the_measure_catches_the_desktop_pictures_small_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same measure on the desktop picture (1280 px wide, shown at 400) finds its 6 px
    type: the test above can fail."""
    seen = drawn_texts(monkeypatch)
    render_board(BugRun.new(4, 1).view(None), LONG[:4])
    assert all(shown_height(t, s, SHOWN_WIDTH / 1280) < SMALLEST for t, s, _ in seen)


@pytest.mark.parametrize("players", [2, 6])
def test_cut_names_end_in_an_ellipsis_and_the_legend_writes_them_out(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = drawn_texts(monkeypatch)
    phone(BugRun.new(players, 2), LONG[:players])
    texts = [t for t, _, _ in seen]
    cut = [t for t in texts if t.endswith("...")]
    assert cut, "a 34-character name fits nowhere: it must be cut"
    legend = texts[texts.index("Full names:") + 1 :]
    for shown in cut:
        name = shown.removeprefix("Crown: ").removeprefix("Flash: ")[:-3]
        assert any(full.startswith(name) and not full.endswith("...") for full in legend), shown
    assert "Annabelle Featherstonehaugh-Smythe" in " ".join(legend)
    # Short names are never cut, and then there is no legend of names.
    seen.clear()
    phone(BugRun.new(players, 2), ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"][:players])
    assert not [t for t, _, _ in seen if t.endswith("...")]
    assert "Full names:" not in [t for t, _, _ in seen]


def test_a_two_player_picture_names_the_hero_that_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = drawn_texts(monkeypatch)
    g = BugRun.new(2, 4)
    view = g.view(None)
    active = view["active"]
    assert active is not None and active["hero"] is not None
    hero = view["heroes"][active["hero"]]["name"].title()
    phone(g, ["Ann", "Bo"])
    player = ["Ann", "Bo"][active["seat"]]
    assert f"{hero} ({player})" in [t for t, _, _ in seen]
    assert f"{hero} ({player}) decides." in describe(board_scene(view, ["Ann", "Bo"]))


def test_every_card_kind_and_hero_carries_a_letter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not by colour alone (issue #26 item 3): each card's kind letter and each hero's initial
    is drawn on it, and the legend spells the letters out."""
    seen = drawn_texts(monkeypatch)
    cards = sorted(C.MONSTERS) + sorted(C.EXPLORATION)
    kinds: set[str] = set()
    for g in boards_with(6, cards):
        seen.clear()
        phone(g, LONG)
        texts = [t for t, _, _ in seen]
        view = g.view(None)
        for col in view["board"][board_scene(view, LONG)["heroes"][0]["pos"][0] :]:
            for slot in col.values():
                kinds.add(slot["kind"])
                assert kind_letter(slot["kind"]) in texts, slot["kind"]
        for hero in view["heroes"]:
            assert hero["name"][:1].upper() in texts
    assert {"monster", "bridge", "stairs"} <= kinds and len(kinds) >= 8
    assert len(set(map(kind_letter, KIND_WORDS))) == len(set(map(kind_letter, kinds)) | {"-"})
    assert len({name[:1] for name in HERO_COLOURS}) == len(HERO_COLOURS)
    assert any(t.startswith("E entrance M monster Q quest") for t, _, _ in seen)


def test_the_alt_text_describes_the_position() -> None:
    g = showcase()
    view = g.view(None)
    alt = describe(board_scene(view, LONG[:5]))
    assert len(alt) <= ALT_MAX
    assert alt.startswith(f"Bug Run, level {view['level']} of 4")
    assert "Crown:" in alt and "Cards:" in alt and "defeated" in alt
    for hero in view["heroes"]:
        assert f"{hero['name'].title()} {hero['hearts']} hearts {hero['arrows']} arrows" in alt
    final = list(states(3, 9))[-1].view(None)
    assert "game over" in describe(board_scene(final, LONG[:3]))


def lines_of(spec: MessageSpec) -> int:
    embed = spec.embed
    assert embed is not None
    parts = [embed.title or "", embed.description or "", embed.footer or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return sum(len(p.splitlines()) for p in parts if p) + len((spec.content or "").splitlines())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_text_beside_the_picture_keeps_to_fifteen_lines(players: int) -> None:
    presenter = presenter_for("bug-run")
    table = make_table("bug-run", players, seed=players, names=LONG[:players])
    engine = table.running()
    rng = random.Random(players)
    log: list[str] = []
    most = 0
    for _ in range(400):
        if engine.is_over:
            break
        board = presenter.boards(table.view(), log)[0]
        assert board.image is not None and board.image.description
        most = max(most, lines_of(board))
        waiting = sorted(engine.waiting_for())
        seat = rng.choice(waiting) if waiting else SYSTEM
        action = rng.choice(engine.legal_actions(seat)) if waiting else engine.deadlines()[0].action
        log += presenter.log_lines(table.view(), act(table, seat, action))
    assert 8 <= most <= 15, most
    details = presenter.details(table.view(), log)
    assert details is not None and lines_of(details) > 15  # the rest is a click away
    full = presenter.full_picture(table.view())
    assert full is not None and Image.open(io.BytesIO(full.render())).width == 1280
