"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatches.

Sharding as on Discord: a session that IDENTIFYs with ``shard: [id, count]`` gets only the guilds
of that shard (``(guild_id >> 22) % count``) and their events; DMs go to shard 0. Several bot
processes, each with its own shard range, can so share one emulator.

Frames are plain-text JSON: discord.py only decompresses binary frames, so the ``compress``
query it sends (zlib-stream) can be ignored.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from .errors import JSON
from .models import World

log = logging.getLogger(__name__)

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

GUILD_MEMBERS_INTENT = 1 << 1
GUILD_PRESENCES_INTENT = 1 << 8
MESSAGE_CONTENT_INTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS_INTENT | GUILD_PRESENCES_INTENT | MESSAGE_CONTENT_INTENT

REPLAY_BUFFER = 5000


class GatewaySession:
    """One IDENTIFY: a sequence, the events sent in it (for RESUME), and its socket if attached."""

    def __init__(self, shard: list[int] | None, intents: int) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard
        self.intents = intents
        self.seq = 0
        self.sent: deque[tuple[int, str]] = deque(maxlen=REPLAY_BUFFER)
        self.ws: web.WebSocketResponse | None = None
        self.invalidated = False
        self.lock = asyncio.Lock()

    @property
    def attached(self) -> bool:
        return self.ws is not None and not self.ws.closed

    @property
    def shard_id(self) -> int | None:
        """This session's shard, when it IDENTIFYed as one of several."""
        if self.shard is None or len(self.shard) != 2 or int(self.shard[1]) <= 1:
            return None
        return int(self.shard[0])

    def serves(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of ``guild_id`` (None: a DM, shard 0's)."""
        if self.shard_id is None or self.shard is None:
            return True
        return shard_of(guild_id, int(self.shard[1])) == self.shard_id


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's rule: a guild's events go to shard ``(guild_id >> 22) % shard_count``; DMs to 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


class Gateway:
    """Routes dispatches to the newest session; keeps detached sessions resumable."""

    def __init__(
        self,
        world: World,
        token: str,
        *,
        heartbeat_interval: float,
        privileged_intents: bool,
        gateway_url: Callable[[], str],
    ) -> None:
        self.world = world
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.privileged_intents = privileged_intents
        self._gateway_url = gateway_url
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None
        self.shards: dict[int, GatewaySession] = {}
        """The newest session of each shard, when the bot runs several."""
        self.shard_count = 1
        self.identify_count = 0
        self.resume_count = 0
        self.sockets: set[web.WebSocketResponse] = set()
        # Sockets the emulator closed itself: aiohttp reports 1000 for them, whatever was sent.
        self._closed_by_us: set[web.WebSocketResponse] = set()

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.attached

    # --- the socket loop ----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: GatewaySession | None = None
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"only json encoding is emulated")
                return ws
            await self._send_raw(
                ws, {"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"binary frames are not emulated")
                    continue
                try:
                    frame = json.loads(msg.data)
                    op = frame["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                session = await self._on_frame(ws, session, op, frame.get("d"))
        finally:
            self.sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                # A clean close from the client ends the session, as on Discord.
                if ws not in self._closed_by_us and ws.close_code in (1000, 1001):
                    session.invalidated = True
                log.info("gateway session %s detached (close %s)", session.id, ws.close_code)
            self._closed_by_us.discard(ws)
        return ws

    async def _on_frame(
        self,
        ws: web.WebSocketResponse,
        session: GatewaySession | None,
        op: int,
        data: Any,
    ) -> GatewaySession | None:
        if op == HEARTBEAT:
            await self._send_raw(ws, {"op": HEARTBEAT_ACK})
            return session
        if op == IDENTIFY:
            if session is not None:
                await ws.close(code=4005, message=b"Already authenticated.")
                return session
            return await self._identify(ws, data if isinstance(data, dict) else {})
        if op == RESUME:
            if session is not None:
                await ws.close(code=4005, message=b"Already authenticated.")
                return session
            return await self._resume(ws, data if isinstance(data, dict) else {})
        if session is None:
            await ws.close(code=4003, message=b"Not authenticated.")
            return None
        if op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            return session
        if op == REQUEST_GUILD_MEMBERS:
            await self._members_chunk(session, data if isinstance(data, dict) else {})
            return session
        await ws.close(code=4001, message=b"Unknown opcode.")
        return session

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        if data.get("token") != self.token:
            log.warning("gateway IDENTIFY with a wrong token")
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(data.get("intents") or 0)
        if intents & PRIVILEGED_INTENTS and not self.privileged_intents:
            log.warning("gateway IDENTIFY asked for privileged intents %s", intents)
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard = data.get("shard")
        session = GatewaySession(shard if isinstance(shard, list) else None, intents)
        session.ws = ws
        self.sessions[session.id] = session
        sharded = session.shard_id is not None and session.shard is not None
        previous = self.shards.get(session.shard_id or 0) if sharded else self.current
        if previous is not None and not previous.attached:
            previous.invalidated = True
        if sharded and session.shard_id is not None and session.shard is not None:
            self.shards[session.shard_id] = session
            self.shard_count = int(session.shard[1])
        self.current = session
        world = self.world
        ready: JSON = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in world.guilds if session.serves(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._gateway_url(),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["emulator"],
            "auth": {},
            "_trace": ["bugtable-emulator"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        async with session.lock:
            await self._dispatch_locked(session, "READY", ready)
            for guild in [g for g in world.guilds.values() if session.serves(g.id)]:
                await self._dispatch_locked(
                    session, "GUILD_CREATE", world.guild_create_payload(guild)
                )
        self.identify_count += 1
        log.info("gateway IDENTIFY #%s accepted: session %s", self.identify_count, session.id)
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalidated or session.attached:
            log.info("gateway RESUME refused for session %s", data.get("session_id"))
            await self._send_raw(ws, {"op": INVALID_SESSION, "d": False})
            return None
        last = int(data.get("seq") or 0)
        async with session.lock:
            session.ws = ws
            for seq, text in list(session.sent):
                if seq > last:
                    await ws.send_str(text)
            await self._dispatch_locked(session, "RESUMED", {"_trace": ["bugtable-emulator"]})
        self.current = session
        if session.shard_id is not None:
            self.shards[session.shard_id] = session
        self.resume_count += 1
        log.info("gateway session %s resumed from seq %s", session.id, last)
        return session

    async def _members_chunk(self, session: GatewaySession, data: JSON) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        members = [
            m for m in [self.world.bot, *self.world.members] if self.world.is_member(guild, m)
        ]
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.id in ids]
        query = data.get("query")
        if query:
            members = [m for m in members if m.name.startswith(str(query))]
        payload: JSON = {
            "guild_id": str(guild.id),
            "members": [self.world.member_payload(guild, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            payload["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", payload, session=session)

    # --- sending ------------------------------------------------------------------------------

    async def _send_raw(self, ws: web.WebSocketResponse, frame: JSON) -> None:
        frame.setdefault("d", None)
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        try:
            await ws.send_str(json.dumps(frame))
        except (ConnectionResetError, RuntimeError) as exc:
            log.info("gateway send failed: %s", exc)

    async def _dispatch_locked(self, session: GatewaySession, event: str, data: JSON) -> bool:
        session.seq += 1
        text = json.dumps({"op": DISPATCH, "s": session.seq, "t": event, "d": data})
        session.sent.append((session.seq, text))
        ws = session.ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(text)
        except (ConnectionResetError, RuntimeError) as exc:
            log.info("gateway dispatch of %s failed: %s", event, exc)
            return False
        return True

    async def dispatch(
        self, event: str, data: JSON, *, session: GatewaySession | None = None
    ) -> bool:
        """Sends an event to the live session (the shard of its guild when the bot runs
        several), or buffers it for a RESUME; False if undelivered."""
        target = session or self._route(event, data)
        if target is None or target.invalidated:
            log.warning("no gateway session for %s: the bot is not connected", event)
            return False
        async with target.lock:
            sent = await self._dispatch_locked(target, event, data)
        if not sent:
            log.warning("%s buffered: the bot's gateway connection is down", event)
        return sent

    def _route(self, event: str, data: JSON) -> GatewaySession | None:
        if not self.shards:
            return self.current
        # A guild's own events name it by ``id``; its roles' and members' by ``guild_id``.
        guild = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
        return self.shards.get(shard_of(int(guild) if guild else None, self.shard_count))

    async def drop(self, *, code: int = 4000, forget_session: bool = False) -> None:
        """Closes the live socket so the bot reconnects (RESUME, or IDENTIFY if forgotten)."""
        session = self.current
        if session is None or session.ws is None:
            return
        if forget_session:
            session.invalidated = True
        self._closed_by_us.add(session.ws)
        await session.ws.close(code=code, message=b"emulator dropped the connection")

    async def close_all(self) -> None:
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"emulator stopping")
        self.sockets.clear()
