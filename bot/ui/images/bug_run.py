"""Bug Run's public board as a PNG: the level's cards, every hero token, the roof and a legend.

Both public functions first reduce the view to a *scene*: exactly the data the picture shows
(nothing of ``view["you"]``, nothing hidden). The fingerprint hashes the scene and the renderer
draws only from it, so equal fingerprints mean equal pictures and any drawn change shows in the
fingerprint. Pure and thread-safe: the caller runs ``render_board`` in a worker thread.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypedDict

import orjson
from PIL import Image

from rules.bug_run import content as C
from rules.bug_run.contract import (
    BugRunView,
    CardInfo,
    HeroView,
    RoofPath,
    SlotView,
    SpaceInfo,
)

from .canvas import (
    RGB,
    Box,
    Canvas,
    ascii_text,
    bolt,
    bone,
    cross,
    crown,
    fit,
    line_height,
    padlock,
    palette_image,
    shield,
    text_width,
    wrap,
)

RENDER_VERSION: Final = 2
"""Part of every fingerprint: bump it when the drawing changes so cached images expire."""

# -- geometry (px) --------------------------------------------------------------------------------
WIDTH: Final = 1280
MARGIN: Final = 12
GAP: Final = 6
HEADER_H: Final = 78
BOARD_H: Final = {"small": 304, "large": 536}
FLOOR_GAP: Final = 10
ENTRANCE_W: Final = 96
STAIRS_W: Final = 244
BAND_TITLE: Final = 36
BAND_ROW: Final = 40
KEY_H: Final = 66
HEROES_W: Final = 780
PAD: Final = 7
CARD_BAND: Final = 28
SPACE_D: Final = 38
TOKEN_SMALL: Final = 30
CHIP_H: Final = 26
MARK_W: Final = 20
"""A flip-counter side: its colour and its letter (G or R), never the colour alone."""
MONSTER_HEAD: Final = 56

# -- type sizes (px; nothing under 20) --------------------------------------------------------------
T_TITLE: Final = 30
T_BIG: Final = 24
T_TEXT: Final = 22
T_SMALL: Final = 20

# -- colours (dark theme) -------------------------------------------------------------------------
BG: Final = (17, 19, 25)
PANEL: Final = (31, 35, 45)
CARD: Final = (41, 46, 59)
SPACE_BG: Final = (23, 26, 33)
TEXT: Final = (244, 245, 248)
MUTED: Final = (178, 184, 198)
LINE: Final = (120, 128, 148)
DARK: Final = (14, 14, 18)
GOLD: Final = (255, 205, 60)
DEFEATED_RED: Final = (235, 64, 64)
LOCK_GREY: Final = (205, 210, 220)
FLIP_RED: Final = (230, 60, 60)
FLIP_GREEN: Final = (60, 200, 90)
SHIELD_BLUE: Final = (120, 170, 230)
BONE_WHITE: Final = (236, 230, 210)
KIND_COLOURS: Final[dict[str, RGB]] = {
    "entrance": (92, 100, 120),
    "empty": (80, 84, 96),
    "monster": (180, 44, 52),
    "bridge": (140, 96, 52),
    "stairs": (36, 140, 80),
    "fight": (205, 100, 20),
}
QUEST_COLOUR: Final = (52, 98, 200)
KIND_LABELS: Final = {
    "entrance": "START",
    "empty": "EMPTY",
    "monster": "MONSTER",
    "bridge": "BRIDGE",
    "escape": "ESCAPE",
    "gamble": "GAMBLE",
    "archery": "ARCHERY",
    "duel": "DUEL",
    "vault": "VAULT",
    "trapped_vault": "TRAP VAULT",
}
HERO_COLOURS: Final[dict[str, RGB]] = {
    "spider": (255, 84, 104),
    "caterpillar": (118, 222, 92),
    "wasp": (255, 216, 24),
    "fly": (72, 164, 255),
    "grasshopper": (206, 128, 255),
    "beetle": (255, 150, 44),
}
SPARE_COLOURS: Final = ((250, 250, 250), (64, 224, 208), (255, 160, 200), (190, 190, 120))
ITEM_STYLE: Final[dict[str, tuple[str, RGB, RGB]]] = {
    # unit -> (label, chip colour, text colour)
    "c": ("C", (246, 196, 52), DARK),
    "vp": ("VP", (150, 96, 240), TEXT),
    "h": ("H", (232, 66, 88), TEXT),
    "a": ("A", (56, 186, 136), DARK),
    "L": ("L", (84, 204, 244), DARK),
}
PHASES: Final = {
    "trading": "Trading phase",
    "adventure": "Adventure phase",
    "escape": "Final Escape",
    "over": "Game over",
}
WEAPON_LETTER: Final = {"sw": "S", "bw": "B"}
_ITEM = re.compile(r"^(-?)([0-9]+)(c|vp|h|a)$")


def _palette() -> Image.Image:
    """The PNG's fixed palette: every flat colour, and the anti-aliased edges of text over the
    grounds it is drawn on (shapes are not anti-aliased). Mapping to a fixed palette is several
    times faster than computing one per picture, and the same for every board."""
    chips = [style[1] for style in ITEM_STYLE.values()]
    heroes = [*HERO_COLOURS.values(), *SPARE_COLOURS]
    bands = [*KIND_COLOURS.values(), QUEST_COLOUR]
    labels = [GOLD, TEXT, LINE, DEFEATED_RED, LOCK_GREY]
    flat = [BG, PANEL, CARD, SPACE_BG, DARK, MUTED, *labels, *chips, *heroes, *bands]
    flat += [FLIP_RED, FLIP_GREEN, SHIELD_BLUE, BONE_WHITE]
    pairs = [(TEXT, bg) for bg in (BG, PANEL, CARD, *bands, *chips)]
    pairs += [(MUTED, CARD), (MUTED, PANEL), (GOLD, BG), (GOLD, PANEL), (DEFEATED_RED, CARD)]
    pairs += [(hero, PANEL) for hero in heroes]
    pairs += [(DARK, bg) for bg in (*chips, *heroes, *labels, FLIP_RED, FLIP_GREEN)]
    pairs += [(chip, SPACE_BG) for chip in chips]
    return palette_image(flat, pairs)


PALETTE: Final = _palette()

SpaceScene = tuple[str, bool, int | None, bool]
"""A space as drawn: (weapon, padlocked, reserved by hero, Optional Extra)."""


class HeroScene(TypedDict):
    name: str
    seat: int
    pos: tuple[int, str, int | None] | None
    """(column, floor, space)."""
    roof: int | None
    stock: list[int]
    """Hearts, arrows, coins."""
    power: str | None
    ready: bool | None


class _SlotScene(TypedDict):
    kind: str
    name: str | None
    locked: bool
    spaces: list[SpaceScene]
    info: CardInfo
    """The card's static content row (``SlotView.info``), only the drawn keys."""
    info_spaces: list[SpaceInfo]


class SlotScene(_SlotScene, total=False):
    wounds: int
    defeated: bool
    duel: int
    marks: list[int]


class _Scene(TypedDict):
    v: int
    players: int
    level: int
    phase: str
    mode: str
    crown: int | None
    flash: int | None
    active: tuple[int | None, int | None] | None
    """(seat, hero) of the decision waited on."""
    names: list[str]
    heroes: list[HeroScene]
    roof: list[str]
    roof_paths: list[list[RoofPath]]
    board: list[dict[str, SlotScene]]


class Scene(_Scene, total=False):
    """Exactly what is drawn (the fingerprint hashes it as JSON); ``scores`` and ``winners``
    once the game is over."""

    scores: list[int]
    winners: list[int]


# -- public API -------------------------------------------------------------------------------------
def image_size(players: int) -> tuple[int, int]:
    """The picture's size: fixed width; the height grows with the board (two floors at 5-6
    players) and with the legend (one row per hero, at least four)."""
    side = "large" if players >= 5 else "small"
    heroes = 4 if players == 2 else players
    band = BAND_TITLE + max(4, heroes) * BAND_ROW + 10
    return WIDTH, MARGIN + HEADER_H + BOARD_H[side] + GAP + band + GAP + KEY_H + MARGIN


def board_scene(view: BugRunView, names: Sequence[str]) -> Scene:
    """What the pictures draw of this view (the phone picture draws from it too)."""
    return _scene(view, names)


def board_fingerprint(view: BugRunView, names: Sequence[str]) -> str:
    """A short stable hash of what ``render_board`` would draw for this view and these names."""
    return _fingerprint(_scene(view, names))


def render_board(view: BugRunView, names: Sequence[str]) -> bytes:
    """The public board (``BugRun.view(None)``) as PNG bytes; ``names[seat]`` are display names."""
    return _render(_scene(view, names))


def render_with_fingerprint(view: BugRunView, names: Sequence[str]) -> tuple[str, bytes]:
    """Both at once, reducing the view once (for a caller that caches by fingerprint)."""
    scene = _scene(view, names)
    return _fingerprint(scene), _render(scene)


# -- the scene: exactly what is drawn ---------------------------------------------------------------
_MARKED_KINDS: Final = ("archery", "vault", "trapped_vault")


def _fingerprint(scene: Scene) -> str:
    # orjson: every board's click answer and pass asks for it (a fifth of a Bug Run board's
    # drawing with the standard library's encoder, issue #21); a key of the picture cache
    # only, never stored with a game, so its bytes may differ from json's.
    blob = orjson.dumps(scene, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.sha1(blob).hexdigest()[:20]


def _player(names: Sequence[str], seat: int) -> str:
    name = ascii_text(str(names[seat])) if 0 <= seat < len(names) else ""
    return name or f"Player {seat + 1}"


def _scene(view: BugRunView, names: Sequence[str]) -> Scene:
    players = int(view["players"])
    active = view.get("active")
    phase = str(view["phase"])
    scene: Scene = {
        "v": RENDER_VERSION,
        "players": players,
        "level": int(view["level"]),
        "phase": phase,
        "mode": str(view["mode"]),
        "crown": view.get("crown"),
        "flash": view.get("flash"),
        "active": (active.get("seat"), active.get("hero")) if active else None,
        "names": [_player(names, seat) for seat in range(players)],
        "heroes": [_hero_scene(h) for h in view["heroes"]],
        "roof": [str(c) for c in view.get("roof", [])],
        "roof_paths": [list(p) for p in view.get("roof_paths", [])],
        "board": [{f: _slot_scene(col[f]) for f in sorted(col)} for col in view.get("board") or []],
    }
    if phase == "over":
        scene["scores"] = [int(s["total"]) for s in view.get("scores", [])]
        scene["winners"] = [int(w) for w in view.get("winners", [])]
    return scene


def _hero_scene(h: HeroView) -> HeroScene:
    pos = h.get("pos")
    return {
        "name": str(h["name"]),
        "seat": int(h["seat"]),
        "pos": (int(pos["col"]), str(pos["floor"]), pos.get("space")) if pos else None,
        "roof": h.get("roof"),
        "stock": [int(h["hearts"]), int(h["arrows"]), int(h["coins"])],
        "power": h.get("power"),
        "ready": h.get("ready"),
    }


def _drawn_info(info: CardInfo) -> CardInfo:
    """A card's printed content less what no picture draws (its id, name, level, kind,
    spaces and roof paths come from elsewhere)."""
    drawn: CardInfo = {**info}
    drawn.pop("id", None)
    drawn.pop("name", None)
    drawn.pop("level", None)
    drawn.pop("kind", None)
    drawn.pop("spaces", None)
    drawn.pop("roof", None)
    return drawn


def _drawn_space(space: SpaceInfo) -> SpaceInfo:
    """A printed space less its weapon (the view's space gives it)."""
    drawn: SpaceInfo = {**space}
    drawn.pop("weapon", None)
    return drawn


def _slot_scene(slot: SlotView) -> SlotScene:
    kind = str(slot["kind"])
    info = slot.get("info") or {}
    out: SlotScene = {
        "kind": kind,
        "name": slot.get("name"),
        "locked": bool(slot.get("locked")),
        "spaces": [
            (str(sp["weapon"]), bool(sp["lock"]), sp.get("reserved"), bool(sp.get("extra")))
            for sp in slot.get("spaces", [])
        ],
        "info": _drawn_info(info),
        "info_spaces": [_drawn_space(sp) for sp in info.get("spaces", [])],
    }
    if kind == "monster":
        out["wounds"] = int(slot.get("wounds", 0))
        out["defeated"] = bool(slot.get("defeated"))
    elif kind == "duel":
        out["duel"] = int(slot.get("duel", 0))
    elif kind in _MARKED_KINDS:
        out["marks"] = sorted(int(m) for m in slot.get("marks", []))
    return out


# -- drawing context ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Ctx:
    """Per-render lookups shared by the painters (built fresh for every render)."""

    scene: Scene
    colours: tuple[RGB, ...]
    heroes: tuple[HeroScene, ...]

    def label(self, h: int) -> str:
        """The hero and its player, as in "Wasp (Ann)"."""
        hero = self.scene["heroes"][h]
        return f"{hero['name'].title()} ({self.scene['names'][hero['seat']]})"

    def is_active(self, h: int) -> bool:
        active = self.scene["active"]
        return active is not None and active[1] == h


def _colours(heroes: Sequence[HeroScene]) -> tuple[RGB, ...]:
    out: list[RGB] = []
    spare = iter(SPARE_COLOURS)
    for h in heroes:
        colour = HERO_COLOURS.get(h["name"])
        out.append(colour if colour and colour not in out else next(spare, LINE))
    return tuple(out)


def _render(scene: Scene) -> bytes:
    c = Canvas(image_size(scene["players"]), BG)
    ctx = _Ctx(scene, _colours(scene["heroes"]), tuple(scene["heroes"]))
    y = MARGIN
    _header(c, ctx, (MARGIN, y, WIDTH - MARGIN, y + HEADER_H))
    y += HEADER_H
    board_h = BOARD_H["large" if scene["players"] >= 5 else "small"]
    area = (MARGIN, y, WIDTH - MARGIN, y + board_h)
    if scene["board"]:
        _board(c, ctx, area)
    else:
        _roof_area(c, ctx, area)
    y += board_h + GAP
    band_h = c.im.height - y - GAP - KEY_H - MARGIN
    _heroes_panel(c, ctx, (MARGIN, y, MARGIN + HEROES_W, y + band_h))
    side = (MARGIN + HEROES_W + GAP, y, WIDTH - MARGIN, y + band_h)
    if "scores" in scene:
        _scores_panel(c, ctx, side)
    else:
        _roof_panel(c, ctx, side)
    y += band_h + GAP
    _key(c, (MARGIN, y, WIDTH - MARGIN, y + KEY_H))
    return c.png(PALETTE)


# -- small pieces -------------------------------------------------------------------------------------
def _token(c: Canvas, ctx: _Ctx, h: int, cx: int, cy: int, r: int) -> None:
    """Hero ``h``'s token: its colour, its initial; a white ring while it acts, a crown on the
    crown holder."""
    if ctx.is_active(h):
        c.circle(cx, cy, r + 4, TEXT)
    c.circle(cx, cy, r, ctx.colours[h], DARK, 2)
    size = T_TEXT if r >= 14 else T_SMALL
    letter = ctx.heroes[h]["name"][:1].upper() or "?"
    c.text(cx, cy - line_height(size) // 2, letter, size, DARK, bold=True, align="m")
    if ctx.scene["crown"] == h:
        crown(c, cx, cy - r - 1, max(16, r), GOLD, DARK)


def _item_label(item: str) -> tuple[str, RGB, RGB, bool]:
    """(text, chip colour, text colour, is a cost) of a reward string such as ``-2c``."""
    if item == "L":
        text, chip, ink = ITEM_STYLE["L"]
        return text, chip, ink, False
    m = _ITEM.match(item)
    if not m:
        return ascii_text(item) or "?", LINE, TEXT, False
    sign, amount, unit = m.groups()
    text, chip, ink = ITEM_STYLE[unit]
    return f"{sign}{amount}{text}", chip, ink, sign == "-"


def _chip_width(item: str) -> int:
    if item.startswith("#"):
        return MARK_W
    return text_width(_item_label(item)[0], T_SMALL, True) + 9


def _chip_gap(item: str) -> int:
    """Space after a chip: a flip-side mark sits right against the chip it qualifies."""
    return 1 if item.startswith("#") else 3


def _chip(c: Canvas, x: int, y: int, item: str) -> int:
    """One reward chip at (x, y); a cost is drawn hollow. Items "#red"/"#green" are flip-counter
    sides. Returns its width."""
    if item.startswith("#"):
        colour = FLIP_GREEN if item == "#green" else FLIP_RED
        c.box((x, y + 1, x + MARK_W, y + CHIP_H - 1), colour, None, radius=3)
        letter = "G" if item == "#green" else "R"
        ty = y + (CHIP_H - line_height(T_SMALL)) // 2
        c.text(x + MARK_W // 2, ty, letter, T_SMALL, DARK, bold=True, align="m")
        return MARK_W
    text, chip, ink, cost = _item_label(item)
    w = _chip_width(item)
    if cost:
        c.box((x, y, x + w, y + CHIP_H), SPACE_BG, chip, 2, radius=6)
        ink = chip
    else:
        c.box((x, y, x + w, y + CHIP_H), chip, None, radius=6)
    c.text(x + 4, y + (CHIP_H - line_height(T_SMALL)) // 2, text, T_SMALL, ink, bold=True)
    return w


@dataclass(frozen=True)
class _Group:
    """A label and its chips, kept on one line when the body flows (``state``: "", "done" =
    struck out, "next" = framed)."""

    label: str
    items: tuple[str, ...]
    state: str = ""
    empty: str = "nothing"

    @property
    def blank(self) -> str:
        """The word shown when no reward follows the label (a red flip that gives nothing)."""
        return self.empty if all(i.startswith("#") for i in self.items) else ""

    def width(self) -> int:
        w = text_width(self.label, T_SMALL) + 4 if self.label else 0
        w += sum(_chip_width(i) + _chip_gap(i) for i in self.items)
        if self.blank:
            return w + text_width(self.blank, T_SMALL)
        return w - (_chip_gap(self.items[-1]) if self.items else 4)


def _flow_layout(
    x0: int, y: int, x1: int, groups: Sequence[_Group], gap: int
) -> tuple[list[tuple[int, int]], int]:
    """Top-left corners of ``groups`` laid out left to right, wrapping, and the y below."""
    x = x0
    out = []
    for g in groups:
        w = g.width()
        if x > x0 and x + w > x1:
            x, y = x0, y + CHIP_H + 4
        out.append((x, y))
        x += w + gap
    return out, y + CHIP_H + 4


def _flow(c: Canvas, x0: int, y: int, x1: int, groups: Sequence[_Group], gap: int = 10) -> int:
    """Draw ``groups`` left to right, wrapping; returns the y below the last line."""
    corners, below = _flow_layout(x0, y, x1, groups, gap)
    for (x, gy), g in zip(corners, groups, strict=True):
        _group(c, x, gy, g)
    return below


def _group(c: Canvas, x: int, y: int, g: _Group) -> None:
    start = x
    ty = y + (CHIP_H - line_height(T_SMALL)) // 2
    if g.label:
        x += c.text(x, ty, g.label, T_SMALL, MUTED if g.state == "done" else TEXT) + 4
    for item in g.items:
        x += _chip(c, x, y, item) + _chip_gap(item)
    if g.blank:
        x += c.text(x, ty, g.blank, T_SMALL, MUTED)
    if g.state == "done":
        c.line([(start - 2, y + CHIP_H // 2), (x, y + CHIP_H // 2)], TEXT, 3)
    elif g.state == "next":
        c.box((start - 3, y - 2, x + 1, y + CHIP_H + 2), None, TEXT, 2, radius=5)


# -- header ---------------------------------------------------------------------------------------------
def _header(c: Canvas, ctx: _Ctx, box: Box) -> None:
    """Title, level and phase, player count and mode; then the status line."""
    x0, y0, x1, _ = box
    s = ctx.scene
    x = x0 + c.text(x0, y0, "BUG RUN", T_TITLE, GOLD, bold=True) + 24
    phase = PHASES.get(s["phase"], ascii_text(s["phase"]).title())
    level = f"Level {s['level']} of 4" if s["phase"] in ("trading", "adventure") else "Roof"
    c.text(x, y0 + 2, f"{level}  -  {phase}", T_BIG + 2, TEXT, bold=True)
    mode = "hero powers" if s["mode"] == "powers" else "no powers"
    c.text(x1, y0 + 6, f"{s['players']} players, {mode}", T_TEXT, MUTED, align="r")
    _status_line(c, ctx, x0, y0 + 44, x1)


def _status_line(c: Canvas, ctx: _Ctx, x: int, y: int, x1: int) -> None:
    """Who holds the crown and the Flash token, and who is to play."""
    s = ctx.scene
    if s["crown"] is not None:
        crown(c, x + 12, y + 13, 24, GOLD, DARK)
        x += 30 + c.text(x + 30, y, f"Crown: {ctx.label(s['crown'])}", T_TEXT, TEXT) + 28
    if s["flash"] is not None:
        bolt(c, x + 10, y + 14, 26, GOLD, DARK)
        x += 26 + c.text(x + 26, y, f"Flash: {ctx.label(s['flash'])}", T_TEXT, TEXT) + 28
    seat, hero = s["active"] or (None, None)
    if hero is not None:
        who = ctx.label(hero)
    elif seat is not None and 0 <= seat < len(s["names"]):
        who = s["names"][seat]
    else:
        return
    x += c.text(x, y, "Now playing:", T_TEXT, MUTED) + 8
    if hero is not None:
        _token(c, ctx, hero, x + 13, y + 14, 12)
        x += 32
    c.text(x, y, fit(who, T_TEXT, x1 - x), T_TEXT, TEXT, bold=True)


# -- the level's cards ----------------------------------------------------------------------------------
def _column_widths(n: int, total: int) -> list[int]:
    """Entrance, middle cards sharing what is left, stairs."""
    if n < 3:
        return [total // max(1, n)] * n
    mids = n - 2
    avail = total - ENTRANCE_W - STAIRS_W - (n - 1) * GAP
    base, extra = divmod(avail, mids)
    return [ENTRANCE_W, *(base + (1 if i < extra else 0) for i in range(mids)), STAIRS_W]


def _floor_boxes(
    col: Mapping[str, SlotScene], x0: int, x1: int, y0: int, y1: int
) -> dict[str, Box]:
    """A central card spans the board's height; upper and lower cards share it."""
    floors = [f for f in ("U", "C", "D") if f in col] + sorted(f for f in col if f not in "UCD")
    if len(floors) == 1:
        return {floors[0]: (x0, y0, x1, y1)}
    step = (y1 - y0 + FLOOR_GAP) // len(floors)
    return {
        f: (x0, y0 + i * step, x1, y0 + (i + 1) * step - FLOOR_GAP) for i, f in enumerate(floors)
    }


def _board(c: Canvas, ctx: _Ctx, area: Box) -> None:
    x0, y0, x1, y1 = area
    board = ctx.scene["board"]
    x = x0
    for i, (col, w) in enumerate(zip(board, _column_widths(len(board), x1 - x0), strict=True)):
        for floor, box in _floor_boxes(col, x, x + w, y0, y1).items():
            _card(c, ctx, box, col[floor], _heroes_at(ctx, i, floor))
        x += w + GAP


def _heroes_at(ctx: _Ctx, col: int, floor: str) -> list[tuple[int, int | None]]:
    return [
        (h, hero["pos"][2])
        for h, hero in enumerate(ctx.heroes)
        if hero["pos"] is not None and hero["pos"][0] == col and hero["pos"][1] == floor
    ]


def _card(
    c: Canvas, ctx: _Ctx, box: Box, slot: SlotScene, here: list[tuple[int, int | None]]
) -> None:
    """One card of the level with the heroes on it."""
    x0, y0, x1, y1 = box
    kind = slot["kind"]
    _card_frame(c, box, slot)
    name = ascii_text(slot["name"] or "")
    inner = (x0 + PAD, y0 + CARD_BAND + 4, x1 - PAD, y1 - PAD)
    if kind == "entrance":
        _standing(c, ctx, inner, [h for h, _ in here])
        return
    if kind == "stairs":
        y = _name(c, inner, wrap(name, T_TEXT, inner[2] - inner[0], 2, bold=True))
        _stairs_body(c, ctx, (inner[0], y, inner[2], inner[3]), slot)
    else:
        _plain_card(c, ctx, inner, slot, name)
    _overlay(c, box, slot)
    _place_tokens(c, ctx, inner, slot, here)


def _card_frame(c: Canvas, box: Box, slot: SlotScene) -> None:
    """The card's outline and its coloured band naming the kind."""
    x0, y0, x1, _ = box
    kind = slot["kind"]
    fight = kind == "stairs" and slot["info"].get("type") == "fight"
    colour = KIND_COLOURS.get("fight" if fight else kind, QUEST_COLOUR)
    c.box(box, CARD, colour, 2, radius=8)
    c.box((x0, y0, x1, y0 + CARD_BAND), colour, None, radius=8)
    c.box((x0, y0 + CARD_BAND - 8, x1, y0 + CARD_BAND), colour)
    label = KIND_LABELS.get(kind, ascii_text(kind).upper())
    if kind == "stairs":
        label = "STAIRS - FIGHT" if fight else "STAIRS - REST"
    label = fit(label, T_SMALL, x1 - x0 - 8, True)
    c.text((x0 + x1) // 2, y0 + 3, label, T_SMALL, TEXT, bold=True, align="m")


def _name(c: Canvas, box: Box, lines: Sequence[str]) -> int:
    """The card's name under its band; returns the y below."""
    x0, y, _, _ = box
    for line in lines:
        c.text(x0, y, line, T_TEXT, TEXT, bold=True)
        y += line_height(T_TEXT)
    return y + 4 if lines else y


@dataclass(frozen=True)
class _Body:
    """What a card shows between its name and its spaces: a fixed head (monster stats), an
    intro line and reward groups."""

    head: int
    intro: str
    groups: list[_Group]
    gap: int

    def height(self, width: int, intro: bool) -> int:
        below = _flow_layout(0, 0, width, self.groups, self.gap)[1] if self.groups else 0
        return self.head + (line_height(T_SMALL) + 2 if intro and self.intro else 0) + below


def _plain_card(c: Canvas, ctx: _Ctx, box: Box, slot: SlotScene, name: str) -> None:
    """Name, body and spaces; when the body would run into the spaces, the intro line goes,
    then the name's second line."""
    x0, y, x1, _ = box
    body = _card_body(slot)
    room = _spaces_top(box, slot) - y
    for n_lines, intro in ((2, True), (2, False), (1, False)):
        lines = wrap(name, T_TEXT, x1 - x0, n_lines, bold=True)
        if len(lines) * line_height(T_TEXT) + 4 + body.height(x1 - x0, intro) <= room:
            break
    y = _name(c, box, lines)
    if body.head:
        y = _monster_stats(c, (x0, y, x1, y), slot)
    if intro and body.intro:
        c.text(x0, y, fit(body.intro, T_SMALL, x1 - x0), T_SMALL, MUTED)
        y += line_height(T_SMALL) + 2
    _flow(c, x0, y, x1, body.groups, body.gap)
    _spaces(c, ctx, box, slot)


def _card_body(slot: SlotScene) -> _Body:
    kind = slot["kind"]
    info = slot["info"]
    if kind == "monster":
        rewards = [i for i in info.get("rewards", []) if isinstance(i, str)]
        return _Body(MONSTER_HEAD, "", [_Group("", (i,)) for i in rewards], 4)
    if kind == "empty":
        return _Body(0, "no card", [], 10)
    intro, groups = _quest_groups(kind, info, slot)
    return _Body(0, intro, groups, 10)


def _spaces_top(box: Box, slot: SlotScene) -> int:
    """Where the spaces (and their weapon badges) begin."""
    centres, d = _space_centres(box, len(slot["spaces"]))
    return min((cy for _, cy in centres), default=box[3] + d // 2) - d // 2 - 8


def _monster_stats(c: Canvas, box: Box, slot: SlotScene) -> int:
    """Shield and bones, then the life pips with the wounds taken in red; returns the y below."""
    x0, y, x1, _ = box
    info = slot["info"]
    shield(c, x0 + 11, y + 13, 24, SHIELD_BLUE, DARK)
    x = x0 + 25 + c.text(x0 + 25, y, str(info.get("shield", 0)), T_BIG, TEXT, bold=True) + 8
    bone(c, x + 14, y + 14, 28, BONE_WHITE)
    x += 31 + c.text(x + 31, y, str(info.get("bones", 0)), T_BIG, TEXT, bold=True)
    life = max(1, int(info.get("life", 1)))
    wounds = int(slot.get("wounds", 0))
    ratio = f"{wounds}/{life}"
    if x + 6 + text_width(ratio, T_SMALL) <= x1:
        c.text(x1, y + 3, ratio, T_SMALL, DEFEATED_RED if wounds else MUTED, align="r")
    y += MONSTER_HEAD - 24
    pip = max(5, min(16, (x1 - x0 + 3) // life - 3))
    for i in range(life):
        px = x0 + i * (pip + 3)
        if i < wounds:
            c.box((px, y, px + pip, y + 16), DEFEATED_RED, None, radius=2)
        else:
            c.box((px, y, px + pip, y + 16), SPACE_BG, LINE, 2, radius=2)
    return y + 24


def _quest_groups(kind: str, info: CardInfo, slot: SlotScene) -> tuple[str, list[_Group]]:
    """The intro line and reward groups of a quest or bridge card."""
    marks = set(slot.get("marks", []))
    if kind == "escape":
        return "Flip green:", [_Group("", tuple(info.get("reward", [])))]
    if kind == "gamble":
        rows = [r for r in info.get("rewards", []) if isinstance(r, list)]
        return "Green flips:", [_Group(f"{i}:", tuple(r)) for i, r in enumerate(rows)]
    if kind == "archery":
        planks = [p for p in info.get("planks", []) if isinstance(p, list)]
        last = len(planks) - 1
        return "Pay 1A, roll:", [
            _Group(f"{i}{'+' if i == last else ''}:", tuple(p), "done" if i in marks else "")
            for i, p in enumerate(planks)
        ]
    if kind == "duel":
        done = int(slot.get("duel", 0))
        return "Flip per plank:", [
            _Group(
                f"{i + 1}:",
                ("#red", *p["red"], "#green", *p["green"]),
                "done" if i < done else "next" if i == done and not slot["locked"] else "",
            )
            for i, p in enumerate(d for d in info.get("planks", []) if isinstance(d, dict))
        ]
    if kind in ("vault", "trapped_vault"):
        intro = "Pay 1H each:" if kind == "trapped_vault" else "Take one:"
        items = info.get("items", [])
        return intro, [
            _Group("", (it,), "done" if i in marks else "") for i, it in enumerate(items)
        ]
    if kind == "bridge":
        return "", [
            _Group("STABLE", tuple(info.get("stable", []))),
            _Group("RISKY", ("#green", *info.get("green", []))),
            _Group("", ("#red", *info.get("red", []))),
        ]
    return "", []


def _overlay(c: Canvas, box: Box, slot: SlotScene) -> None:
    """A defeated monster is crossed out; a padlocked card carries a big padlock."""
    x0, y0, x1, y1 = box
    cy = (y0 + CARD_BAND + y1) // 2
    if slot.get("defeated"):
        cross(c, (x0 + 10, y0 + CARD_BAND + 6, x1 - 10, y1 - 10), DEFEATED_RED, 5)
        _stamp(c, (x0 + x1) // 2, cy, "DEFEATED", DEFEATED_RED)
    elif slot["locked"]:
        _stamp(c, (x0 + x1) // 2, cy, "LOCKED", LOCK_GREY, lock=True)


def _stamp(c: Canvas, cx: int, cy: int, text: str, colour: RGB, lock: bool = False) -> None:
    w = text_width(text, T_SMALL, True) + (36 if lock else 14)
    c.box((cx - w // 2, cy - 17, cx + w // 2, cy + 17), colour, DARK, 2, radius=6)
    x = cx - w // 2 + 7
    if lock:
        padlock(c, x + 12, cy, 24, DARK, colour)
        x += 28
    c.text(x, cy - line_height(T_SMALL) // 2, text, T_SMALL, DARK, bold=True)


# -- spaces and tokens ------------------------------------------------------------------------------------
def _space_centres(box: Box, n: int) -> tuple[list[tuple[int, int]], int]:
    """Centres and diameter of ``n`` spaces along the bottom of ``box``: one row, shrunk down to
    30 px if needed, else as many rows as it takes."""
    x0, _, x1, y1 = box
    if n == 0:
        return [], SPACE_D
    avail = x1 - x0
    d = min(SPACE_D, (avail - (n - 1) * 5) // n)
    per_row = n
    if d < 30:
        d = SPACE_D
        per_row = max(1, (avail + 5) // (d + 5))
    rows = [list(range(i, min(n, i + per_row))) for i in range(0, n, per_row)]
    out: list[tuple[int, int]] = []
    for r, row in enumerate(rows):
        cy = y1 - d // 2 - 2 - (len(rows) - 1 - r) * (d + 6)
        span = len(row) * d + (len(row) - 1) * 5
        left = x0 + (avail - span) // 2
        out += [(left + k * (d + 5) + d // 2, cy) for k in range(len(row))]
    return out, d


def _space(c: Canvas, ctx: _Ctx, cx: int, cy: int, d: int, sp: SpaceScene, five_six: bool) -> None:
    """An empty space: dashed if only for 5-6 players, a padlock if locked (coloured by the hero
    who reserved it)."""
    _weapon, lock, reserved, _extra = sp
    r = d // 2
    c.circle(cx, cy, r, SPACE_BG)
    if five_six:
        c.dashed_circle(cx, cy, r, LINE, 3)
    else:
        c.circle(cx, cy, r, None, LINE, 2)
    if reserved is not None and 0 <= reserved < len(ctx.colours):
        padlock(c, cx, cy, d * 3 // 5, ctx.colours[reserved], DARK)
    elif lock:
        padlock(c, cx, cy, d * 3 // 5, LOCK_GREY, DARK)


def _weapon_badge(c: Canvas, cx: int, cy: int, d: int, weapon: str) -> None:
    letter = WEAPON_LETTER.get(weapon)
    if letter is None:
        return
    r = d // 2
    bx, by = cx + r - 12, cy - r - 8
    c.box((bx, by, bx + 19, by + 23), TEXT, DARK, 1, radius=4)
    c.text(bx + 10, by + 1, letter, T_SMALL, DARK, bold=True, align="m")


def _spaces(c: Canvas, ctx: _Ctx, box: Box, slot: SlotScene) -> None:
    spaces = slot["spaces"]
    centres, d = _space_centres(box, len(spaces))
    five = [bool(s.get("five_six")) for s in slot["info_spaces"]]
    for i, ((cx, cy), sp) in enumerate(zip(centres, spaces, strict=True)):
        _space(c, ctx, cx, cy, d, sp, i < len(five) and five[i])


def _place_tokens(
    c: Canvas, ctx: _Ctx, box: Box, slot: SlotScene, here: list[tuple[int, int | None]]
) -> None:
    """Tokens on their spaces (with the space's weapon badge on top), and heroes standing on the
    card without a space in a row above the spaces."""
    spaces = slot["spaces"]
    if slot["kind"] == "stairs":
        centres, d = _stairs_centres(box, slot)[0], SPACE_D
    else:
        centres, d = _space_centres(box, len(spaces))
    loose = []
    for h, space in here:
        if space is None or not 0 <= space < len(centres):
            loose.append(h)
            continue
        cx, cy = centres[space]
        _token(c, ctx, h, cx, cy, d // 2)
        if spaces[space][3]:  # an Optional Extra space
            _plus(c, cx - d // 2 + 4, cy + d // 2 - 4)
    for i, (cx, cy) in enumerate(centres):
        _weapon_badge(c, cx, cy, d, spaces[i][0])
    if loose:
        top = min((cy for _, cy in centres), default=box[3]) - d // 2 - 8
        x0, _, x1, _ = box
        _standing(c, ctx, (x0, top - TOKEN_SMALL - 4, x1, top), loose)


def _plus(c: Canvas, cx: int, cy: int) -> None:
    c.circle(cx, cy, 9, TEXT, DARK, 1)
    c.line([(cx - 5, cy), (cx + 5, cy)], DARK, 3)
    c.line([(cx, cy - 5), (cx, cy + 5)], DARK, 3)


def _standing(c: Canvas, ctx: _Ctx, box: Box, heroes: Sequence[int]) -> None:
    """Tokens of heroes on a card but on no space (the entrance), left to right, wrapping."""
    x0, y0, x1, _ = box
    d = SPACE_D
    per_row = max(1, (x1 - x0 + 6) // (d + 6))
    for k, h in enumerate(heroes):
        row, pos = divmod(k, per_row)
        _token(c, ctx, h, x0 + pos * (d + 6) + d // 2, y0 + 4 + row * (d + 8) + d // 2, d // 2)


# -- the stairs card --------------------------------------------------------------------------------------
STAIRS_ROW: Final = SPACE_D + CHIP_H + 22
TEAM_W: Final = 44


def _stairs_rows(slot: SlotScene) -> list[tuple[str, list[int]]]:
    """Rows of space indexes: the two teams of a fight card, else three spaces a row."""
    n = len(slot["spaces"])
    teams = [s.get("team") for s in slot["info_spaces"]]
    if slot["info"].get("type") == "fight" and any(teams):
        rows = [
            (label, [i for i in range(n) if i < len(teams) and teams[i] == team])
            for label, team in (("TOP", "top"), ("BOT", "bottom"))
        ]
        rest = [i for i in range(n) if i >= len(teams) or teams[i] not in ("top", "bottom")]
        return rows + ([("", rest)] if rest else [])
    return [("", list(range(i, min(n, i + 3)))) for i in range(0, n, 3)]


def _stairs_centres(box: Box, slot: SlotScene) -> tuple[list[tuple[int, int]], int]:
    """Centres of the stairs spaces (rows from the bottom of ``box``) and the cell width."""
    x0, _, x1, y1 = box
    rows = _stairs_rows(slot)
    left = x0 + (TEAM_W if any(label for label, _ in rows) else 0)
    centres = [(0, 0)] * len(slot["spaces"])
    cell = (x1 - left) // max(3, *(len(idxs) for _, idxs in rows))
    for r, (_, idxs) in enumerate(rows):
        cy = y1 - (len(rows) - r) * STAIRS_ROW + SPACE_D // 2 + 10
        for k, i in enumerate(idxs):
            centres[i] = (left + k * cell + cell // 2, cy)
    return centres, cell


def _stairs_body(c: Canvas, ctx: _Ctx, box: Box, slot: SlotScene) -> None:
    """Wait and fight rewards, then each space with its entry gain or cost and the crown."""
    x0, y, x1, _ = box
    info = slot["info"]
    y = _flow(c, x0, y, x1, [_Group("Wait:", tuple(info.get("wait", [])))])
    if info.get("type") == "fight":
        _flow(c, x0, y, x1, [_Group("Win fight:", tuple(info.get("fight_reward", [])))])
    centres, cell = _stairs_centres(box, slot)
    for label, idxs in _stairs_rows(slot):
        if label and idxs:
            cy = centres[idxs[0]][1]
            c.text(x0, cy - line_height(T_SMALL) // 2, label, T_SMALL, MUTED, bold=True)
    info_spaces = slot["info_spaces"]
    for i, ((cx, cy), sp) in enumerate(zip(centres, slot["spaces"], strict=True)):
        extra = info_spaces[i] if i < len(info_spaces) else {}
        top = cy - SPACE_D // 2 - 6
        c.box(
            (cx - cell // 2 + 2, top, cx + cell // 2 - 2, top + STAIRS_ROW - 8),
            PANEL,
            None,
            radius=6,
        )
        _space(c, ctx, cx, cy, SPACE_D, sp, bool(extra.get("five_six")))
        _entry(c, cx, cy + SPACE_D // 2 + 4, list(extra.get("entry", [])), bool(extra.get("crown")))


def _entry(c: Canvas, cx: int, y: int, entry: Sequence[str], has_crown: bool) -> None:
    """Under a stairs space: the crown mark and what entering it gains or costs."""
    mark = 26 if has_crown else 0
    w = sum(_chip_width(e) + 3 for e in entry) + mark - (3 if entry else 0)
    x = cx - w // 2
    if mark:
        crown(c, x + 11, y + CHIP_H // 2, 22, GOLD, DARK)
        x += mark
    for e in entry:
        x += _chip(c, x, y, e) + 3


# -- the roof -------------------------------------------------------------------------------------------------
def _path_text(path: RoofPath) -> tuple[str, tuple[str, ...]]:
    """A roof path as (words, chips): "Pay" and its cost, or the challenge."""
    if "cost" in path:
        return "Pay", tuple(path["cost"])
    kind, need = [*path.get("challenge", []), "?", 0][:2]
    if kind == "flip":
        return "Flip green", ()
    return f"{ascii_text(str(kind)).title()} {need}+", ()


def _path_group(side: str, path: RoofPath) -> _Group:
    words, chips = _path_text(path)
    return _Group(f"{side}: {words}", chips, empty="")


def _roof_panel(c: Canvas, ctx: _Ctx, box: Box) -> None:
    """The Final Escape's four steps as built so far: each step's VP and its two paths."""
    x0, y0, x1, _ = box
    c.box(box, PANEL, None, radius=8)
    c.text(x0 + 10, y0 + 6, "ROOF - Final Escape", T_BIG, TEXT, bold=True)
    paths = ctx.scene["roof_paths"]
    y = y0 + BAND_TITLE + 2
    for step in range(4, 0, -1):
        _roof_row(c, ctx, (x0 + 10, y, x1 - 10, y + BAND_ROW), step, paths)
        y += BAND_ROW


def _roof_row(c: Canvas, ctx: _Ctx, box: Box, step: int, paths: Sequence[list[RoofPath]]) -> None:
    x0, y0, x1, _ = box
    ty = y0 + (CHIP_H - line_height(T_SMALL)) // 2
    c.circle(x0 + 14, y0 + 13, 14, GOLD)
    c.text(
        x0 + 14, y0 + 13 - line_height(T_SMALL) // 2, str(step), T_SMALL, DARK, bold=True, align="m"
    )
    vp = C.ROOF_VP[step] if step < len(C.ROOF_VP) else 0
    _chip(c, x0 + 36, y0, f"{vp}vp")
    x = x0 + 100
    if step - 1 < len(paths):
        left, right = paths[step - 1]
        _flow(c, x, y0, x1, [_path_group("L", left), _path_group("R", right)])
    else:
        c.text(x, ty, f"built after level {step}", T_SMALL, MUTED)


def _roof_area(c: Canvas, ctx: _Ctx, area: Box) -> None:
    """The board during the Final Escape and after it: each step with its two paths, and the
    heroes on the step they reached (those still to run wait at the start)."""
    x0, y0, x1, y1 = area
    c.box(area, PANEL, None, radius=8)
    s = ctx.scene
    c.text(
        x0 + 12,
        y0 + 8,
        "THE ROOF - each hero stands on the step it reached",
        T_BIG,
        TEXT,
        bold=True,
    )
    row_h = min(90, (y1 - y0 - 48) // 5)
    for k, step in enumerate(range(4, -1, -1)):
        y = y0 + 44 + k * row_h
        row = (x0 + 10, y, x1 - 10, y + row_h - 6)
        c.box(row, CARD, None, radius=6)
        ty = y + (row_h - 6 - CHIP_H) // 2
        c.text(x0 + 22, ty, f"Step {step}" if step else "Start", T_TEXT, TEXT, bold=True)
        vp = C.ROOF_VP[step] if step < len(C.ROOF_VP) else 0
        _chip(c, x0 + 104, ty, f"{vp}vp")
        if step:
            stairs = s["roof"][step - 1] if step <= len(s["roof"]) else None
            name = str(C.STAIRS[stairs]["name"]) if stairs in C.STAIRS else "not built"
            c.text(x0 + 180, ty, fit(name, T_SMALL, 190), T_SMALL, MUTED)
            if step <= len(s["roof_paths"]):
                left, right = s["roof_paths"][step - 1]
                _flow(
                    c, x0 + 380, ty, x1 - 300, [_path_group("L", left), _path_group("R", right)], 28
                )
        heroes = [h for h, hero in enumerate(ctx.heroes) if _roof_step(hero) == step]
        for i, h in enumerate(heroes):
            _token(c, ctx, h, x1 - 30 - (len(heroes) - 1 - i) * 44, y + (row_h - 6) // 2, 17)


def _roof_step(hero: HeroScene) -> int:
    """A hero still to run stands at the start (step 0)."""
    return int(hero["roof"]) if hero["roof"] is not None else 0


def _scores_panel(c: Canvas, ctx: _Ctx, box: Box) -> None:
    """Final totals, best first; the winners in gold."""
    x0, y0, x1, _ = box
    c.box(box, PANEL, None, radius=8)
    s = ctx.scene
    c.text(x0 + 10, y0 + 6, "FINAL SCORES", T_BIG, GOLD, bold=True)
    order = sorted(range(len(s["scores"])), key=lambda seat: (-s["scores"][seat], seat))
    y = y0 + BAND_TITLE + 2
    for seat in order:
        name = s["names"][seat] if seat < len(s["names"]) else f"Player {seat + 1}"
        win = seat in s["winners"]
        colour = GOLD if win else TEXT
        c.text(x0 + 10, y, fit(name, T_TEXT, x1 - x0 - 210, True), T_TEXT, colour, bold=True)
        c.text(x1 - 110, y, f"{s['scores'][seat]} VP", T_TEXT, colour, bold=True, align="r")
        if win:
            c.text(x1 - 10, y + 1, "WINNER", T_SMALL, GOLD, bold=True, align="r")
        y += BAND_ROW


# -- legend -----------------------------------------------------------------------------------------------------
def _heroes_panel(c: Canvas, ctx: _Ctx, box: Box) -> None:
    """One row per hero: token, hero and player, hearts/arrows/coins, the Flash token, a used
    2-player hero and, with powers, the power."""
    x0, y0, x1, _ = box
    c.box(box, PANEL, None, radius=8)
    c.text(x0 + 10, y0 + 6, "HEROES", T_BIG, TEXT, bold=True)
    c.text(x0 + 382, y0 + 9, "hearts  arrows  coins", T_SMALL, MUTED)
    y = y0 + BAND_TITLE + 2
    for h, hero in enumerate(ctx.heroes):
        _hero_row(c, ctx, (x0 + 10, y, x1 - 10, y + BAND_ROW), h, hero)
        y += BAND_ROW


def _hero_row(c: Canvas, ctx: _Ctx, box: Box, h: int, hero: HeroScene) -> None:
    x0, y0, x1, _ = box
    ty = y0 + (CHIP_H - line_height(T_TEXT)) // 2 + 1
    _token(c, ctx, h, x0 + 15, y0 + 13, 14)
    c.text(x0 + 38, ty, hero["name"].title(), T_TEXT, ctx.colours[h], bold=True)
    player = ctx.scene["names"][hero["seat"]] if hero["seat"] < len(ctx.scene["names"]) else "?"
    c.text(x0 + 184, ty, fit(player, T_TEXT, 180), T_TEXT, TEXT)
    x = x0 + 372
    for amount, unit in zip(hero["stock"], ("h", "a", "c"), strict=True):
        _chip(c, x, y0, f"{amount}{unit}")
        x += 62
    x = x0 + 566
    for tag, on in (("FLASH", ctx.scene["flash"] == h), ("DONE", hero["ready"] is False)):
        if on:
            w = text_width(tag, T_SMALL, True) + 10
            c.box((x, y0, x + w, y0 + CHIP_H), GOLD if tag == "FLASH" else LINE, None, radius=5)
            c.text(x + 5, y0 + 1, tag, T_SMALL, DARK, bold=True)
            x += w + 6
    if hero["power"] and x < x1 - 40:
        power = ascii_text(str(hero["power"]).replace("_", " ")).title()
        c.text(x + 2, ty, fit(power, T_SMALL, x1 - x - 2), T_SMALL, MUTED)


def _key(c: Canvas, box: Box) -> None:
    """What the symbols mean."""
    x0, y0, x1, _ = box
    c.box(box, PANEL, None, radius=8)
    y = y0 + 6
    x = x0 + 10
    d = 28
    for letter, words in (("S", "sword only"), ("B", "bow only")):
        c.circle(x + d // 2, y + 14, d // 2, SPACE_BG, LINE, 2)
        _weapon_badge(c, x + d // 2 - 4, y + 20, d, "sw" if letter == "S" else "bw")
        x += d + 12 + c.text(x + d + 8, y + 2, words, T_SMALL, TEXT) + 14
    c.circle(x + d // 2, y + 14, d // 2, SPACE_BG, LINE, 2)
    x += d + 8 + c.text(x + d + 8, y + 2, "any weapon", T_SMALL, TEXT) + 18
    c.circle(x + d // 2, y + 14, d // 2, SPACE_BG)
    c.dashed_circle(x + d // 2, y + 14, d // 2, LINE, 3)
    x += d + 8 + c.text(x + d + 8, y + 2, "5-6 players only", T_SMALL, TEXT) + 18
    padlock(c, x + 10, y + 14, 24, LOCK_GREY, DARK)
    x += 26 + c.text(x + 26, y + 2, "padlocked", T_SMALL, TEXT) + 18
    _plus(c, x + 10, y + 14)
    x += 26 + c.text(x + 26, y + 2, "extra space", T_SMALL, TEXT) + 18
    crown(c, x + 12, y + 14, 24, GOLD, DARK)
    c.text(x + 30, y + 2, "crown", T_SMALL, TEXT)
    y += 32
    x = x0 + 10
    shield(c, x + 10, y + 13, 24, SHIELD_BLUE, DARK)
    x += 26 + c.text(x + 26, y + 2, "shield", T_SMALL, TEXT) + 16
    bone(c, x + 14, y + 14, 28, BONE_WHITE)
    x += 34 + c.text(x + 34, y + 2, "strikes back", T_SMALL, TEXT) + 16
    c.box((x, y + 6, x + 12, y + 22), DEFEATED_RED, None, radius=2)
    c.box((x + 15, y + 6, x + 27, y + 22), SPACE_BG, LINE, 2, radius=2)
    x += 34 + c.text(x + 34, y + 2, "life (red = wounds)", T_SMALL, TEXT) + 16
    for item, words in (
        ("1c", "coins"),
        ("1vp", "VP"),
        ("1h", "hearts"),
        ("1a", "arrows"),
        ("L", "loot card"),
    ):
        x += _chip(c, x, y, item) + 4
        x += c.text(x, y + 2, words, T_SMALL, TEXT) + 12
    x += _chip(c, x, y, "#green") + 4
    x += c.text(x, y + 2, "/", T_SMALL, TEXT) + 4
    x += _chip(c, x, y, "#red") + 6
    c.text(x, y + 2, fit("flip", T_SMALL, x1 - x), T_SMALL, TEXT)
