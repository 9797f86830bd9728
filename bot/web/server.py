"""The game pages: a small aiohttp server inside the bot process (off unless ``WEB_PORT``).

Routes (``<token>`` is the game's random web token; anything else is a 404):

- ``GET /games/<token>``: the page (plain HTML and a little JavaScript);
- ``GET /games/<token>/moves?since=n``: the game, its status and its moves after the n-th;
- ``GET /games/<token>/steps/<k>``: the position after k moves (public view, board, result);
- ``GET /games/<token>/board.png?step=k``: the board picture, for games that draw one;
- ``GET /rules/<game>``: how to play a game (its slug, ``bag-of-bugs``): the How to play pages.

Every answer is built from the public view, the seat names and the public log; see replays.py.
"""

from __future__ import annotations

import functools
import html
import json
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from string import Template

from aiohttp import web

from rules.core import GAMES, get_game

from ..host.policy_values import policy_from_values
from ..host.table import Outcome, Table
from ..picture_cache import ImageCache
from ..settings import Settings
from ..store import Store
from ..ui.specs import ImageSpec
from ..ui.speeds import clock_words, speeds_words
from .html import markdown
from .pictures import picture_for
from .replays import Replays, Watched
from .rules_page import rules_html

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
PAGE = Template((STATIC / "game.html").read_text(encoding="utf-8"))
ASSETS: dict[str, tuple[bytes, str]] = {
    "replay.js": ((STATIC / "replay.js").read_bytes(), "text/javascript"),
    "replay.css": ((STATIC / "replay.css").read_bytes(), "text/css"),
    "icon.svg": ((STATIC / "icon.svg").read_bytes(), "image/svg+xml"),
}
SECURITY_HEADERS = {
    # Scripts and styles from files only: nothing a player typed can ever run.
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # The token is the key to the page: never send it on as a Referer.
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
}
NO_STORE = {"Cache-Control": "no-store"}
KEEP = {"Cache-Control": "private, max-age=3600"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
REPLAYS = web.AppKey("replays", Replays)
IMAGES = web.AppKey("images", ImageCache)
SETTINGS: web.AppKey[Settings | None] = web.AppKey("settings")
"""The bot's settings: a page shows its game's time control with their numbers (P-71)."""


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    response.headers.update(SECURITY_HEADERS)
    return response


def _not_found(what: str = "No game here: check the link.") -> web.HTTPNotFound:
    return web.HTTPNotFound(text=what, headers=NO_STORE)


async def _watch(request: web.Request) -> Watched:
    token = request.match_info["token"]
    if not TOKEN_SHAPE.match(token):
        raise _not_found()
    watched = await request.app[REPLAYS].get(token)
    if watched is None:
        raise _not_found()
    record = watched.replay.record
    if not record.is_unfinished and not policy_from_values(record.policy or {}).public_replays:
        # Its server keeps finished games' replays private (P-67): as if there were none.
        raise _not_found()
    return watched


def _int(request: web.Request, name: str, default: int) -> int:
    raw = request.query.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise web.HTTPBadRequest(text=f"{name} must be a whole number")
    return int(raw)


async def index(request: web.Request) -> web.Response:
    return web.Response(text="bugtable: open a game's page from its link on Discord.\n")


async def page(request: web.Request) -> web.Response:
    watched = await _watch(request)
    settings = request.app[SETTINGS]
    record = watched.replay.record
    speed = (
        ""
        if settings is None
        else markdown(clock_words(settings, get_game(record.slug), record.time_control))
    )
    body = PAGE.substitute(title=html.escape(watched.replay.title), speed=speed)
    return web.Response(text=body, content_type="text/html", headers=NO_STORE)


async def moves(request: web.Request) -> web.Response:
    watched = await _watch(request)
    since = _int(request, "since", 0)
    async with watched.lock:
        replay = watched.replay
        summary = replay.summary(min(since, replay.steps))
    summary["picture"] = replay.started and picture_for(replay.record.slug) is not None
    body = json.dumps(summary, ensure_ascii=False)
    return web.Response(text=body, content_type="application/json", headers=NO_STORE)


async def step(request: web.Request) -> web.Response:
    watched = await _watch(request)
    raw = request.match_info["step"]
    if not raw.isdigit() or not watched.replay.started or int(raw) > watched.replay.steps:
        raise _not_found("No such step in this game.")
    data = await request.app[REPLAYS].frame(watched, int(raw))
    return web.Response(body=data, content_type="application/json", headers=KEEP)


async def board_png(request: web.Request) -> web.Response:
    watched = await _watch(request)
    replay = watched.replay
    picture = picture_for(replay.record.slug)
    if picture is None or not replay.started:
        raise _not_found("This game has no board picture.")
    at = _int(request, "step", replay.steps)
    # A given step never changes; "the newest position" does while the game is on.
    headers = KEEP if "step" in request.query else NO_STORE
    if at > replay.steps:
        raise _not_found("No such step in this game.")
    async with watched.lock:
        view = replay.engine_at(at).view(None)
        names = replay.names()
    key = f"{replay.record.slug}:{picture.fingerprint(view, names)}"
    image = ImageSpec("board.png", key, functools.partial(picture.render, view, names))
    png = await request.app[IMAGES].png(image)
    return web.Response(body=png, content_type="image/png", headers=headers)


async def asset(request: web.Request) -> web.Response:
    found = ASSETS.get(request.match_info["name"])
    if found is None:
        raise _not_found("No such file.")
    body, kind = found
    return web.Response(body=body, content_type=kind, headers={"Cache-Control": "max-age=300"})


async def rules(request: web.Request) -> web.Response:
    slug, settings = request.match_info["slug"], request.app[SETTINGS]
    speeds = speeds_words(settings, GAMES[slug]) if settings and slug in GAMES else None
    body = rules_html(slug, speeds)
    if body is None:
        raise _not_found("No such game.")
    return web.Response(text=body, content_type="text/html", headers=KEEP)


async def slash(request: web.Request) -> web.Response:
    raise web.HTTPPermanentRedirect(f"../{request.match_info['token']}")


def build_app(
    replays: Replays, images: ImageCache | None = None, settings: Settings | None = None
) -> web.Application:
    app = web.Application(middlewares=[_headers])
    app[REPLAYS] = replays
    app[SETTINGS] = settings
    app[IMAGES] = images or ImageCache()
    app.router.add_get("/", index)
    app.router.add_get("/games/{token}", page)
    app.router.add_get("/games/{token}/", slash)
    app.router.add_get("/games/{token}/moves", moves)
    app.router.add_get("/games/{token}/steps/{step}", step)
    app.router.add_get("/games/{token}/board.png", board_png)
    app.router.add_get("/static/{name}", asset)
    app.router.add_get("/rules/{slug}", rules)
    return app


class WebServer:
    """The pages of one bot process, and the host listener that tells them a game moved on."""

    def __init__(
        self, store: Store, *, host: str, port: int, settings: Settings | None = None
    ) -> None:
        self.replays = Replays(store)
        self.app = build_app(self.replays, settings=settings)
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        self.replays.changed(table.id)

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except BaseException:
            await self.close()
            raise
        self.port = int(self._runner.addresses[0][1])  # the real one when asked for port 0
        log.info("game pages on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
