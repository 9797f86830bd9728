"""Drawing helpers for board images: fonts, cached text, plain icons and PNG encoding.

A FreeType face must not be used by two threads at once, so each thread loads its own fonts
(``load_default(size)`` takes well under a millisecond). Drawing text is the slow part of a
board, so rendered text masks are kept: they never change once built and are shared between
threads through a cache guarded by a lock.
"""

from __future__ import annotations

import functools
import io
import math
import threading
import unicodedata
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 (x1 and y1 excluded)."""
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

MASK_CACHE_MAX: Final = 4096
"""Text masks kept before the cache starts over (a few MB; board texts repeat a lot)."""

_FONT_LOCK = threading.Lock()
_THREAD = threading.local()
_MASK_LOCK = threading.Lock()
_MASKS: dict[tuple[str, int, bool], Image.Image] = {}

_TRANSLIT = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "ð": "d",
        "Ð": "D",
        "đ": "d",
        "Đ": "D",
        "þ": "th",
        "Þ": "Th",
        "ł": "l",
        "Ł": "L",
    }
)


def ascii_text(text: str) -> str:
    """What the bundled font can draw (it has printable ASCII only): accents are dropped, a few
    letters transliterated, anything else (emoji, other scripts) removed."""
    flat = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    return " ".join("".join(ch for ch in flat if " " <= ch <= "~").split())


def font(size: int) -> Font:
    """This thread's default font at ``size`` px (the bitmap font if FreeType is missing)."""
    fonts: dict[int, Font] | None = getattr(_THREAD, "fonts", None)
    if fonts is None:
        fonts = {}
        _THREAD.fonts = fonts
    f = fonts.get(size)
    if f is None:
        with _FONT_LOCK:  # face creation shares FreeType's library object
            f = ImageFont.load_default(size=size)
        fonts[size] = f
    return f


def line_height(size: int) -> int:
    """Height of a text mask at ``size``: room for ascenders and descenders."""
    return size + (size + 2) // 3


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Pixels ``text`` takes at ``size``. Remembered: a board measures the same names, labels
    and numbers on every render, and ``fit`` measures a long one once per letter it cuts."""
    return math.ceil(font(size).getlength(text)) + (1 if bold else 0)


def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    key = (text, size, bold)
    with _MASK_LOCK:
        mask = _MASKS.get(key)
    if mask is not None:
        return mask
    mask = Image.new("L", (max(1, text_width(text, size, bold)), line_height(size)), 0)
    draw = ImageDraw.Draw(mask)
    draw.text((0, 0), text, font=font(size), fill=255)
    if bold:  # the bundled font has no bold face: a second pass one pixel to the right
        draw.text((1, 0), text, font=font(size), fill=255)
    with _MASK_LOCK:
        if len(_MASKS) >= MASK_CACHE_MAX:
            _MASKS.clear()
        _MASKS[key] = mask
    return mask


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with "..." so that it is at most ``width`` px wide."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "...", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "..." if text else ""


def wrap(text: str, size: int, width: int, max_lines: int, bold: bool = False) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; the last one is cut if needed."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size, bold) <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        lines[-1] = f"{lines[-1]} {' '.join(words)}"
    return [fit(line, size, width, bold) for line in lines]


class Canvas:
    """An RGB image with the few drawing operations boards need."""

    def __init__(self, size: tuple[int, int], background: RGB) -> None:
        self.im = Image.new("RGB", size, background)
        self.draw = ImageDraw.Draw(self.im)

    def text(
        self,
        x: int,
        y: int,
        text: str,
        size: int,
        fill: RGB,
        *,
        bold: bool = False,
        align: str = "l",
    ) -> int:
        """Draw one line with its top at ``y``; ``align`` l/m/r places ``x`` at its left, middle
        or right. Returns the width drawn."""
        if not text:
            return 0
        mask = _text_mask(text, size, bold)
        if align == "m":
            x -= mask.width // 2
        elif align == "r":
            x -= mask.width
        self.im.paste(fill, (x, y), mask)
        return mask.width

    def box(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        x0, y0, x1, y1 = box
        shape = (x0, y0, x1 - 1, y1 - 1)
        if radius:
            self.draw.rounded_rectangle(shape, radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(shape, fill=fill, outline=outline, width=width)

    def circle(
        self, cx: int, cy: int, r: int, fill: RGB | None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)

    def dashed_circle(
        self, cx: int, cy: int, r: int, colour: RGB, width: int = 2, dashes: int = 10
    ) -> None:
        step = 360 / dashes
        for i in range(dashes):
            start = i * step
            self.draw.arc(
                (cx - r, cy - r, cx + r, cy + r),
                start,
                start + step * 0.55,
                fill=colour,
                width=width,
            )

    def line(self, points: Sequence[tuple[int, int]], fill: RGB, width: int = 1) -> None:
        self.draw.line(list(points), fill=fill, width=width)

    def polygon(
        self, points: Sequence[tuple[float, float]], fill: RGB, outline: RGB | None = None
    ) -> None:
        self.draw.polygon(list(points), fill=fill, outline=outline)

    def crop_height(self, height: int) -> None:
        """Keep the top ``height`` px (a picture painted on a tall canvas, then cut)."""
        self.im = self.im.crop((0, 0, self.im.width, min(height, self.im.height)))
        self.draw = ImageDraw.Draw(self.im)

    def png(self, palette: Image.Image) -> bytes:
        """PNG bytes of a copy mapped to ``palette`` (see ``palette_image``): boards are flat
        colours plus text edges, so a palette image is several times smaller and faster to
        compress than RGB, and looks the same."""
        pal = self.im.quantize(palette=palette, dither=Image.Dither.NONE)
        out = io.BytesIO()
        pal.save(out, format="PNG", compress_level=3)
        return out.getvalue()


EDGE_LEVELS: Final = (0.25, 0.5, 0.75)


def _blend(fg: RGB, bg: RGB, a: float) -> RGB:
    r, g, b = (round(f * a + k * (1 - a)) for f, k in zip(fg, bg, strict=True))
    return r, g, b


def palette_image(flat: Sequence[RGB], pairs: Sequence[tuple[RGB, RGB]]) -> Image.Image:
    """A "P" image whose palette holds ``flat`` and, for each (foreground, background) pair,
    the blends that anti-aliased edges produce; at most 256 colours, duplicates dropped."""
    colours = dict.fromkeys(flat)
    for fg, bg in pairs:
        for a in EDGE_LEVELS:
            colours[_blend(fg, bg, a)] = None
    entries = list(colours)
    if len(entries) > 256:
        raise ValueError(f"{len(entries)} palette colours; at most 256 fit")
    entries += [entries[-1]] * (256 - len(entries))
    im = Image.new("P", (1, 1))
    im.putpalette([v for rgb in entries for v in rgb])
    return im


# -- plain icons (shapes, never glyphs, so they draw with any font) -------------------------------
def padlock(c: Canvas, cx: int, cy: int, s: int, fill: RGB, edge: RGB) -> None:
    """A padlock ``s`` px tall centred on (cx, cy)."""
    bw, bh = s * 3 // 4, s * 11 // 20
    top = cy + s // 2 - bh
    sr = bw * 3 // 10
    c.draw.arc(
        (cx - sr, top - sr * 2 + 2, cx + sr, top + sr),
        180,
        360,
        fill=fill,
        width=max(2, s // 8),
    )
    c.line([(cx - sr, top - sr // 2 + 1), (cx - sr, top + 1)], fill, max(2, s // 8))
    c.line([(cx + sr, top - sr // 2 + 1), (cx + sr, top + 1)], fill, max(2, s // 8))
    c.box((cx - bw // 2, top, cx + bw // 2 + 1, top + bh), fill, edge, 1, radius=max(1, s // 12))
    c.circle(cx, top + bh // 2 - 1, max(1, s // 14), edge)


def crown(c: Canvas, cx: int, cy: int, s: int, fill: RGB, edge: RGB) -> None:
    """A three-pointed crown ``s`` px wide centred on (cx, cy)."""
    h = s * 2 // 3
    x0, x1, y0, y1 = cx - s // 2, cx + s // 2, cy - h // 2, cy + h // 2
    pts = [
        (x0, y1),
        (x0, y0),
        (x0 + s / 4, y0 + h * 0.45),
        (cx, y0 - 1),
        (x1 - s / 4, y0 + h * 0.45),
        (x1, y0),
        (x1, y1),
    ]
    c.polygon(pts, fill, edge)


def shield(c: Canvas, cx: int, cy: int, s: int, fill: RGB, edge: RGB) -> None:
    """A heater shield ``s`` px tall centred on (cx, cy)."""
    w, top = s * 4 // 5, cy - s // 2
    pts = [
        (cx - w / 2, top),
        (cx + w / 2, top),
        (cx + w / 2, top + s * 0.45),
        (cx, top + s),
        (cx - w / 2, top + s * 0.45),
    ]
    c.polygon(pts, fill, edge)


def bone(c: Canvas, cx: int, cy: int, s: int, fill: RGB) -> None:
    """A bone ``s`` px long, lying flat, centred on (cx, cy)."""
    r = max(2, s // 6)
    c.box((cx - s // 2 + r, cy - r // 2 - 1, cx + s // 2 - r + 1, cy + r // 2 + 1), fill)
    for ex in (cx - s // 2 + r, cx + s // 2 - r):
        c.circle(ex, cy - r + 1, r, fill)
        c.circle(ex, cy + r - 1, r, fill)


def bolt(c: Canvas, cx: int, cy: int, s: int, fill: RGB, edge: RGB) -> None:
    """A lightning bolt ``s`` px tall (the Flash token)."""
    h, w = s / 2, s / 3
    pts = [
        (cx + w * 0.3, cy - h),
        (cx - w, cy + h * 0.15),
        (cx - w * 0.05, cy + h * 0.15),
        (cx - w * 0.3, cy + h),
        (cx + w, cy - h * 0.15),
        (cx + w * 0.05, cy - h * 0.15),
    ]
    c.polygon(pts, fill, edge)


def cross(c: Canvas, box: Box, colour: RGB, width: int) -> None:
    x0, y0, x1, y1 = box
    c.line([(x0, y0), (x1, y1)], colour, width)
    c.line([(x0, y1), (x1, y0)], colour, width)
