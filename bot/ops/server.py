"""The operator's port (``METRICS_PORT``): ``/metrics`` for Prometheus, ``/healthz`` (the
process answers) and ``/readyz`` (it can serve players: every shard it runs is connected to
the gateway and the database answers), for systemd, Kubernetes or a load balancer."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from .metrics import Metrics

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Readiness:
    ready: bool
    why: str
    """What is not ready (or "ready"), in a line an operator reads in a probe's log."""


class OpsServer:
    def __init__(
        self,
        metrics: Metrics,
        readiness: Callable[[], Awaitable[Readiness]],
        *,
        host: str,
        port: int,
    ) -> None:
        self.metrics, self.readiness = metrics, readiness
        self.host, self.port = host, port
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("metrics and health checks on http://%s:%s", self.host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, _request: web.Request) -> web.Response:
        try:
            state = await self.readiness()
        except Exception as exc:  # a probe must get an answer, not a 500 page
            state = Readiness(False, f"readiness check failed: {type(exc).__name__}")
        return web.Response(text=state.why + "\n", status=200 if state.ready else 503)
