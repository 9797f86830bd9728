"""Bug Run's board for a phone (issue #26, P-55): portrait, large type, only what a player needs
this turn: the current level's cards top to bottom, every hero's hearts, arrows and coins, whose
decision it is and who holds the crown.

Discord shows a picture about 400 px wide on a phone. This one is ``WIDTH`` px wide, so it is
shown at half size, and its smallest type (``T_TEXT``) is 16 px there: capitals 11 px tall
(``tests/bot/test_phone_board.py`` measures them). It draws from the same scene as the desktop
picture (``bug_run._scene``), so it shows nothing the public view does not; the full desktop
picture stays on the game's web page and behind the board's **Full board** button.

Nothing is told by colour alone: every card carries its kind's letter, every hero token its
initial, every stock its own shape (a heart, an arrow, a coin). A name too long for its line ends in "..." and is
then written out whole in the legend at the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.bug_run import content as C
from rules.bug_run.contract import RoofPath

from .bug_run import (
    BG,
    DARK,
    DEFEATED_RED,
    GOLD,
    KIND_COLOURS,
    LINE,
    LOCK_GREY,
    MUTED,
    PALETTE,
    PANEL,
    PHASES,
    QUEST_COLOUR,
    RENDER_VERSION,
    TEXT,
    Scene,
    SlotScene,
    _colours,
    _fingerprint,
)
from .canvas import RGB, Canvas, bolt, crown, fit, line_height, padlock, text_width, wrap

PHONE_VERSION: Final = 1
"""Part of the phone picture's fingerprint: bump it when this drawing changes."""

WIDTH: Final = 800
SHOWN_WIDTH: Final = 400
"""How wide Discord shows a picture on a phone: the scale the type is chosen for."""
MARGIN: Final = 20
ROW_GAP: Final = 8
T_TITLE: Final = 44
T_BIG: Final = 38
T_TEXT: Final = 32
"""The smallest type drawn: 16 px at ``SHOWN_WIDTH``."""
TOKEN_R: Final = 24
CARD_ROW: Final = 2 * line_height(T_TEXT) + 14
HERO_ROW: Final = line_height(T_BIG) + 16
ICON: Final = 36

KIND_LETTERS: Final[dict[str, str]] = {
    "entrance": "E",
    "monster": "M",
    "bridge": "B",
    "stairs": "S",
    "empty": "-",
}
"""Each card kind's letter, beside its colour; every quest kind is "Q"."""
KIND_WORDS: Final[dict[str, str]] = {
    "entrance": "Entrance",
    "monster": "Monster",
    "bridge": "Bridge",
    "stairs": "Stairs",
    "empty": "Empty",
    "escape": "Quest: escape",
    "gamble": "Quest: gamble",
    "archery": "Quest: archery",
    "duel": "Quest: duel",
    "vault": "Quest: vault",
    "trapped_vault": "Quest: trapped vault",
}
FLOOR_WORDS: Final[dict[str, str]] = {"U": "up", "D": "down"}
HEART: Final = (232, 66, 88)
ARROW: Final = (56, 186, 136)
COIN: Final = (246, 196, 52)


def phone_fingerprint(scene: Scene) -> str:
    return f"phone{PHONE_VERSION}.{_fingerprint(scene)}"


def kind_letter(kind: str) -> str:
    return KIND_LETTERS.get(kind, "Q")


def kind_colour(kind: str) -> RGB:
    return KIND_COLOURS.get(kind, QUEST_COLOUR)


# -- names ---------------------------------------------------------------------------------------
class Names:
    """Names as drawn, and the ones that had to be cut, for the legend to write out whole."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.cut: list[str] = []

    def full(self, h: int) -> str:
        hero = self.scene["heroes"][h]
        return f"{hero['name'].title()} ({self.scene['names'][hero['seat']]})"

    def fitted(self, h: int, size: int, width: int, *, bold: bool = False) -> str:
        """Hero ``h`` and its player, as "Wasp (Ann)", cut to ``width`` if need be."""
        return self.fit(self.full(h), size, width, bold=bold)

    def fit(self, text: str, size: int, width: int, *, bold: bool = False) -> str:
        shown = fit(text, size, width, bold)
        if shown != text and text not in self.cut:
            self.cut.append(text)
        return shown


# -- layout ---------------------------------------------------------------------------------------
def _first_column(scene: Scene) -> int:
    """The leftmost column a hero stands in: nobody moves back, so the cards left of it are
    out of play (the full board still shows them)."""
    cols = [h["pos"][0] for h in scene["heroes"] if h["pos"] is not None and h["roof"] is None]
    return min(cols, default=0)


def _cards(scene: Scene) -> list[tuple[int, str, SlotScene]]:
    """The level's cards still in play in reading order: left to right, upper before lower."""
    out = []
    first = _first_column(scene)
    for col, floors in enumerate(scene["board"]):
        if col < first:
            continue
        for floor in sorted(floors, key=lambda f: "UCD".find(f) if f in "UCD" else 9):
            out.append((col, floor, floors[floor]))
    return out


def _legend_lines(scene: Scene, names: Names) -> list[str]:
    lines = ["E entrance  M monster  Q quest  B bridge  S stairs"]
    if names.cut:
        lines.append("Full names:")
        lines += names.cut
    return lines


MAX_HEIGHT: Final = 4000
"""Room to paint in; the picture is cut to what was painted."""


# -- painting -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Ctx:
    scene: Scene
    colours: tuple[RGB, ...]
    names: Names


def _token(c: Canvas, ctx: _Ctx, h: int, cx: int, cy: int) -> None:
    """The hero's token: its colour and its initial; a white ring while it decides."""
    active = ctx.scene["active"]
    if active is not None and active[1] == h:
        c.circle(cx, cy, TOKEN_R + 5, TEXT)
    c.circle(cx, cy, TOKEN_R, ctx.colours[h], DARK, 2)
    letter = ctx.scene["heroes"][h]["name"][:1].upper() or "?"
    c.text(cx, cy - line_height(T_TEXT) // 2, letter, T_TEXT, DARK, bold=True, align="m")


def _header(c: Canvas, ctx: _Ctx, y: int) -> int:
    s = ctx.scene
    x0, x1 = MARGIN, WIDTH - MARGIN
    phase = PHASES.get(s["phase"], s["phase"].title())
    level = f"Level {s['level']} of 4" if s["phase"] in ("trading", "adventure") else "Roof"
    c.text(x0, y, fit(f"BUG RUN  {level}", T_TITLE, x1 - x0, True), T_TITLE, GOLD, bold=True)
    y += line_height(T_TITLE)
    c.text(x0, y, phase, T_TEXT, MUTED)
    y += line_height(T_TEXT) + 8
    row = line_height(T_TEXT)
    seat, hero = s["active"] or (None, None)
    if hero is not None:
        _token(c, ctx, hero, x0 + TOKEN_R + 4, y + row // 2)
        x = x0 + 2 * TOKEN_R + 20
        who = ctx.names.fitted(hero, T_TEXT, x1 - x - text_width(" decides", T_TEXT), bold=True)
        x += c.text(x, y, who, T_TEXT, TEXT, bold=True)
        c.text(x, y, " decides", T_TEXT, TEXT)
        y += row + 8
    elif seat is not None and 0 <= seat < len(s["names"]):
        name = ctx.names.fit(s["names"][seat], T_TEXT, x1 - x0 - text_width(" decides", T_TEXT))
        c.text(x0, y, f"{name} decides", T_TEXT, TEXT)
        y += row + 8
    for h, word, icon in ((s["crown"], "Crown", crown), (s["flash"], "Flash", bolt)):
        if h is not None:
            icon(c, x0 + TOKEN_R + 4, y + row // 2, 40, GOLD, DARK)
            x = x0 + 2 * TOKEN_R + 20
            label = ctx.names.fitted(h, T_TEXT, x1 - x - text_width(f"{word}: ", T_TEXT))
            c.text(x, y, f"{word}: {label}", T_TEXT, TEXT)
            y += row + 8
    return y + 8


def _card_detail(slot: SlotScene) -> str:
    """What a card needs said beside its name: a monster's wounds, shield and bones."""
    kind = slot["kind"]
    if kind == "monster":
        info = slot["info"]
        if slot.get("defeated"):
            return "defeated"
        parts = [f"{slot.get('wounds', 0)}/{info.get('life', '?')} wounds"]
        if info.get("shield"):
            parts.append(f"shield {info['shield']}")
        if info.get("bones"):
            parts.append(f"bones {info['bones']}")
        return ", ".join(parts)
    if slot["locked"]:
        return "done"
    return KIND_WORDS.get(kind, kind.replace("_", " ").title())


def _cards_section(c: Canvas, ctx: _Ctx, y: int) -> int:
    s = ctx.scene
    x0, x1 = MARGIN, WIDTH - MARGIN
    if s["board"]:
        behind = _first_column(s)
        title = f"Level {s['level']}: cards ahead" if behind else f"Level {s['level']}: the cards"
        c.text(x0, y, title, T_BIG, TEXT, bold=True)
        y += line_height(T_BIG) + 8
    standing: dict[tuple[int, str], list[int]] = {}
    for h, hero in enumerate(s["heroes"]):
        if hero["pos"] is not None and hero["roof"] is None:
            col, floor, _ = hero["pos"]
            standing.setdefault((col, floor), []).append(h)
    for col, floor, slot in _cards(s):
        kind = slot["kind"]
        c.box((x0, y, x1, y + CARD_ROW), PANEL, None, radius=10)
        badge = 56
        c.box((x0, y, x0 + badge, y + CARD_ROW), kind_colour(kind), None, radius=10)
        c.text(x0 + badge // 2, y + 6, kind_letter(kind), T_TEXT, TEXT, bold=True, align="m")
        place = f"{col}" + (FLOOR_WORDS[floor][:1] if floor in FLOOR_WORDS else "")
        c.text(x0 + badge // 2, y + 6 + line_height(T_TEXT), place, T_TEXT, TEXT, align="m")
        heroes = standing.get((col, floor), [])
        tokens_w = len(heroes) * (2 * TOKEN_R + 6)
        x = x0 + badge + 12
        name = slot["name"] or KIND_WORDS.get(kind, kind.title())
        c.text(x, y + 6, fit(name, T_TEXT, x1 - x - 12, True), T_TEXT, TEXT, bold=True)
        detail_w = x1 - x - 12 - tokens_w
        detail = _card_detail(slot)
        ink = DEFEATED_RED if slot.get("defeated") else MUTED
        dy = y + 6 + line_height(T_TEXT)
        if slot["locked"] or slot.get("defeated"):
            padlock(c, x + 14, dy + line_height(T_TEXT) // 2, 30, LOCK_GREY, DARK)
            x += 34
            detail_w -= 34
        c.text(x, dy, fit(detail, T_TEXT, max(0, detail_w)), T_TEXT, ink)
        tx = x1 - 8 - TOKEN_R
        for h in reversed(heroes):
            _token(c, ctx, h, tx, dy + line_height(T_TEXT) // 2)
            tx -= 2 * TOKEN_R + 6
        y += CARD_ROW + ROW_GAP
    if not s["board"] and s["roof"]:
        c.text(x0, y, "The roof", T_BIG, TEXT, bold=True)
        y += line_height(T_BIG) + 8
        for step in range(1, len(s["roof"]) + 1):
            c.box((x0, y, x1, y + CARD_ROW), PANEL, None, radius=10)
            vp = C.ROOF_VP[step] if step < len(C.ROOF_VP) else 0
            c.text(x0 + 16, y + 6, f"Step {step}: {vp} VP", T_TEXT, TEXT, bold=True)
            on = [h for h, hero in enumerate(s["heroes"]) if hero["roof"] == step]
            tx = x1 - 8 - TOKEN_R
            for h in reversed(on):
                _token(c, ctx, h, tx, y + CARD_ROW // 2)
                tx -= 2 * TOKEN_R + 6
            if step <= len(s["roof_paths"]):
                left, right = s["roof_paths"][step - 1]
                paths = f"L: {_path_text(left)}  R: {_path_text(right)}"
                width = tx + TOKEN_R - x0 - 24
                c.text(
                    x0 + 16, y + 6 + line_height(T_TEXT), fit(paths, T_TEXT, width), T_TEXT, MUTED
                )
            y += CARD_ROW + ROW_GAP
    return y


def _path_text(path: RoofPath) -> str:
    """A roof path in a few words: what it costs, or the challenge to pass."""
    if "cost" in path:
        return "pay " + " ".join(_item_text(str(i)) for i in path["cost"])
    kind, need = path["challenge"][0], path["challenge"][1]
    return "toss green" if kind == "flip" else f"{kind} {need}+"


def _item_text(item: str) -> str:
    """``-3a`` as "3A": a cost or reward with its unit's letter."""
    unit = {"c": "C", "vp": "VP", "h": "H", "a": "A"}
    amount = item.lstrip("-")
    digits = "".join(ch for ch in amount if ch.isdigit())
    return f"{digits}{unit.get(amount[len(digits) :], amount[len(digits) :])}"


def _scores_section(c: Canvas, ctx: _Ctx, y: int) -> int:
    """The final totals, best first; the winners marked in words as well as in gold."""
    s = ctx.scene
    x0, x1 = MARGIN, WIDTH - MARGIN
    c.text(x0, y, "Final scores", T_BIG, GOLD, bold=True)
    y += line_height(T_BIG) + 8
    order = sorted(range(len(s["scores"])), key=lambda seat: (-s["scores"][seat], seat))
    for seat in order:
        win = seat in s["winners"]
        colour = GOLD if win else TEXT
        right = f"{s['scores'][seat]} VP" + (" WINNER" if win else "")
        room = x1 - x0 - text_width(right, T_TEXT, True) - 24
        name = ctx.names.fit(s["names"][seat], T_TEXT, room, bold=True)
        c.text(x0, y, name, T_TEXT, colour, bold=True)
        c.text(x1, y, right, T_TEXT, colour, bold=True, align="r")
        y += line_height(T_TEXT) + 6
    return y + 8


def _stock_icon(c: Canvas, index: int, cx: int, cy: int) -> None:
    """A heart, an arrow or a coin, drawn as shapes (the font has no such glyphs)."""
    r = ICON // 2
    if index == 0:
        c.circle(cx - r // 2, cy - r // 3, r // 2 + 1, HEART)
        c.circle(cx + r // 2, cy - r // 3, r // 2 + 1, HEART)
        c.polygon([(cx - r, cy - r // 4), (cx + r, cy - r // 4), (cx, cy + r)], HEART)
    elif index == 1:
        c.line([(cx - r, cy + r), (cx + r - 4, cy - r + 4)], ARROW, 4)
        c.polygon([(cx + r, cy - r), (cx + r - 12, cy - r + 2), (cx + r - 2, cy - r + 12)], ARROW)
    else:
        c.circle(cx, cy, r, COIN, DARK, 2)
        c.line([(cx, cy - r + 6), (cx, cy + r - 6)], DARK, 3)


def _heroes_section(c: Canvas, ctx: _Ctx, y: int) -> int:
    s = ctx.scene
    x0, x1 = MARGIN, WIDTH - MARGIN
    c.text(x0, y, "Heroes", T_BIG, TEXT, bold=True)
    y += line_height(T_BIG) + 8
    stock_w = 3 * (ICON + 8 + text_width("15", T_BIG, True) + 14)
    for h, hero in enumerate(s["heroes"]):
        c.box((x0, y, x1, y + HERO_ROW), PANEL, None, radius=10)
        cy = y + HERO_ROW // 2
        _token(c, ctx, h, x0 + 10 + TOKEN_R, cy)
        x = x0 + 20 + 2 * TOKEN_R
        if s["crown"] == h:
            crown(c, x + 18, cy, 34, GOLD, DARK)
            x += 42
        label = ctx.names.fitted(h, T_TEXT, x1 - stock_w - x - 8)
        c.text(x, cy - line_height(T_TEXT) // 2, label, T_TEXT, TEXT)
        sx = x1 - stock_w
        for i, amount in enumerate(hero["stock"]):
            _stock_icon(c, i, sx + ICON // 2, cy)
            c.text(sx + ICON + 8, cy - line_height(T_BIG) // 2, str(amount), T_BIG, TEXT, bold=True)
            sx += stock_w // 3
        y += HERO_ROW + ROW_GAP
    return y


def _legend(c: Canvas, lines: Sequence[str], y: int) -> int:
    c.line([(MARGIN, y + 4), (WIDTH - MARGIN, y + 4)], LINE, 2)
    y += 12
    for line in lines:
        for part in wrap(line, T_TEXT, WIDTH - 2 * MARGIN, 4):
            c.text(MARGIN, y, part, T_TEXT, MUTED)
            y += line_height(T_TEXT) + 4
    return y


def _paint(scene: Scene) -> Canvas:
    ctx = _Ctx(scene, _colours(scene["heroes"]), Names(scene))
    c = Canvas((WIDTH, MAX_HEIGHT), BG)
    y = _header(c, ctx, MARGIN)
    if "scores" in scene:
        y = _scores_section(c, ctx, y)
    y = _cards_section(c, ctx, y)
    y = _heroes_section(c, ctx, y + 4)
    # The legend comes last: by then every name that had to be cut is known.
    y = _legend(c, _legend_lines(scene, ctx.names), y)
    c.crop_height(y + MARGIN)
    return c


# -- alt text -------------------------------------------------------------------------------------
ALT_MAX: Final = 1024
"""Discord's limit on an attachment's description."""


def describe(scene: Scene) -> str:
    """The position in words, for a screen reader: level and phase, who decides, the crown,
    then each card with the heroes on it, then each hero's stocks."""
    names = Names(scene)
    level = f"level {scene['level']} of 4" if scene["board"] else "the roof"
    parts = [f"Bug Run, {level}, {PHASES.get(scene['phase'], scene['phase']).lower()}."]
    active = scene["active"]
    if active is not None and active[1] is not None:
        parts.append(f"{names.full(active[1])} decides.")
    if scene["crown"] is not None:
        parts.append(f"Crown: {names.full(scene['crown'])}.")
    standing: dict[tuple[int, str], list[str]] = {}
    for hero in scene["heroes"]:
        if hero["pos"] is not None and hero["roof"] is None:
            standing.setdefault(hero["pos"][:2], []).append(hero["name"].title())
    cards = []
    for col, floor, slot in _cards(scene):
        name = slot["name"] or KIND_WORDS.get(slot["kind"], slot["kind"])
        text = f"{col}{FLOOR_WORDS.get(floor, '')} {name} ({_card_detail(slot)})"
        if (col, floor) in standing:
            text += ": " + ", ".join(standing[(col, floor)])
        cards.append(text)
    if cards:
        parts.append("Cards: " + "; ".join(cards) + ".")
    heroes = [
        f"{hero['name'].title()} {hero['stock'][0]} hearts {hero['stock'][1]} arrows "
        f"{hero['stock'][2]} coins"
        for hero in scene["heroes"]
    ]
    parts.append("Heroes: " + "; ".join(heroes) + ".")
    text = " ".join(parts)
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 3] + "..."


# -- public API ------------------------------------------------------------------------------------
def render_phone_png(scene: Scene) -> bytes:
    """The phone picture of ``scene`` (``bug_run.board_scene``) as PNG bytes."""
    return _paint(scene).png(PALETTE)


__all__ = [
    "PHONE_VERSION",
    "RENDER_VERSION",
    "SHOWN_WIDTH",
    "T_TEXT",
    "WIDTH",
    "describe",
    "kind_letter",
    "phone_fingerprint",
    "render_phone_png",
]
