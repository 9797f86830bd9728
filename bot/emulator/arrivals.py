"""Requests reported as their bytes come in, before aiohttp handles them.

aiohttp starts a keep-alive connection's next handler only once that connection is done with
its last answer, so two requests sent one after the other on two connections may be handled
in the other order. Discord does not promise an order either, but a test reads a click's
private answer as the panel edit the bot sent before answering the click (P-48): the order in
which the bytes arrived is the one that tells. Each connection's protocol reports the request
line at the start of every chunk it reads (a request's head comes in one chunk over the
loopback; one that does not is linked when it is handled instead).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

Arrived = Callable[[str, str], None]
"""Called with a request's method and route path (no ``/api/v10``, no query)."""

_REQUEST_LINE = re.compile(rb"(GET|POST|PATCH|PUT|DELETE) /api/v\d+(/[^ ?]*)[^ ]* HTTP/1\.[01]\r\n")


def _reporting(arrived: Arrived) -> type[RequestHandler]:
    class ReportingHandler(RequestHandler):
        __slots__ = ()

        def data_received(self, data: bytes) -> None:
            found = _REQUEST_LINE.match(data)
            if found is not None:
                arrived(found[1].decode(), found[2].decode())
            super().data_received(data)

    return ReportingHandler


class _ReportingServer:
    """aiohttp's server, whose connections report their requests' arrival."""

    def __init__(self, server: web.Server, arrived: Arrived) -> None:
        self._server = server
        self._handler = _reporting(arrived)

    def __call__(self) -> RequestHandler:
        protocol = self._server()
        # The same object, with one method more: same slots, so the class may be swapped.
        protocol.__class__ = self._handler
        return protocol

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)


class ReportingRunner(web.AppRunner):
    """An ``AppRunner`` whose sites' connections call ``arrived`` for every request head."""

    def __init__(self, app: web.Application, arrived: Arrived, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._arrived = arrived

    @property
    def server(self) -> Any:
        server = super().server
        return None if server is None else _ReportingServer(server, self._arrived)
