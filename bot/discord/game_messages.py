"""What the publisher keeps about each game's messages (ids, what they show, failures waited
out, click answers in flight) and what one render of a game is (a frame, a drawing); whether a
render of a message landed after a newer one (P-45)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from datetime import datetime

import discord

from ..ui.specs import ImageSpec, MessageSpec
from .channel_hooks import ChannelHook
from .pings import PingPlan, PingPolicy
from .replies import PrivateReply

DM_CLOSED = 50007
QUIET = discord.AllowedMentions.none()
"""Boards name members (whom the game waits on) without ever notifying them: pings do that."""
CLOSE_SECONDS = 5.0
CHANNEL = "channel"
"""The part of a game's messages that stands for its channel refusing the bot (P-39)."""
GIVE_UP = 10
"""Tries of a failing part of a finished game's messages before the pump gives up (~4 min)."""
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003


@dataclass
class Wait:
    """A part of a game's messages that failed: how often in a row, and when to try again."""

    failures: int = 0
    not_before: float = 0.0


@dataclass
class Round:
    """One pass of a pump: how many requests it sent, and how long until a channel it could
    not use has a free slot (``None``: none was held back)."""

    sent: int = 0
    held: float | None = None

    channel_ok: bool = False
    """A request to the game's channel went through: it takes the bot's messages again."""

    def hold(self, delay: float) -> None:
        self.held = delay if self.held is None else min(self.held, delay)

    def channel_sent(self) -> None:
        self.sent += 1
        self.channel_ok = True


@dataclass
class Frame:
    """What one game should show now, rendered under its lock."""

    boards: list[MessageSpec]
    hands: dict[int, MessageSpec] = field(default_factory=dict)
    turn: int = 0
    settled: list[tuple[PrivateReply, MessageSpec]] = field(default_factory=list)
    """Private replies whose buttons are used up, each with what it becomes (P-27)."""
    ping: tuple[int, ...] = ()
    """Members (user ids) to ping now: the game has waited on them ``PING_AFTER`` (P-46)."""
    ping_text: str = ""
    ping_plan: PingPlan = field(default_factory=PingPlan)
    """The pinged seats' waits, and the old ping messages to delete first (P-46)."""
    refresh_at: datetime | None = None
    """When to render again even if nothing happens (``Presenter.refresh_at``)."""
    seq: int = 0
    """The render's place in the order of every render (see ``GameMessages.landed``)."""
    version: int = 0
    """The game's version this frame shows (another process may commit after it, P-36)."""


@dataclass
class Drawing:
    """The game's messages as its last committed state shows them (no side effects)."""

    boards: list[MessageSpec]
    hands: dict[int, MessageSpec]
    turn: int
    members: list[int]
    """The seats the game waits on that members play themselves (the board names them)."""
    seq: int


@dataclass(frozen=True)
class BoardsDrawn:
    """A game's boards as one state drew them (``Boards._boards``): what they were drawn from,
    until when they stay right (the presenter's ``refresh_at`` then, ``None``: until the state
    changes) and the boards."""

    drawn_from: tuple[object, ...]
    until: datetime | None
    boards: tuple[MessageSpec, ...]


@dataclass
class PictureFollow:
    """A board picture on its way after a click's answer (P-57): drawing, then sending."""

    task: asyncio.Task[None]
    drawing: bool = False
    """Its picture is being drawn: no longer cancelled by a newer one (P-86), but put on."""
    sending: bool = False
    """Past drawing: a newer picture waits for it."""


@dataclass
class GameMessages:
    board_ids: dict[str, int] = field(default_factory=dict)
    shown: dict[str, tuple[MessageSpec, int]] = field(default_factory=dict)
    hand_ids: dict[int, int] = field(default_factory=dict)
    hands_shown: dict[int, tuple[MessageSpec, int | None]] = field(default_factory=dict)
    """Per seat, the DM last shown and the turn its controls carry (None: it has none)."""
    dm_closed: set[int] = field(default_factory=set)
    stale_since: dict[str, float] = field(default_factory=dict)
    """Since when each board message (``board``, ``board:1`` …) has waited for an edit."""
    known: bool = False
    """This process showed the game's messages, or read them from the store (``adopt``)."""
    turn_shown: tuple[int, datetime] | None = None
    """The turn the board shows, and since when (the first of its edits that landed, P-84)."""
    pings: PingPolicy = field(default_factory=lambda: PingPolicy(0.0))
    """Whom the game waits on since when, and its one ping message (P-46)."""
    hook: ChannelHook | None = None
    """The newest answered click or command in the game's channel, whose token carries the
    pings (P-88): its follow-up webhook only, so the interaction itself is let go."""
    hooked: dict[int, ChannelHook] = field(default_factory=dict)
    """Ping messages sent through a click's token, by id: deleted through it while it lives."""
    message_hooks: dict[int, ChannelHook] = field(default_factory=dict)
    """Per board or DM message (by id), the newest click answered on it, whose token edits it
    (P-92)."""
    ping_wake: asyncio.Task[None] | None = None
    resting: asyncio.Task[None] | None = None
    """Unloads the game once it has waited ``REST_AFTER`` unchanged (turn-based, P-74)."""
    """Wakes the pump when the next ping falls due, even if nothing else happens."""
    notices: list[str] = field(default_factory=list)
    """Channel messages to send (DMs closed, a seat handed to a bot), each without a secret."""
    waits: dict[str, Wait] = field(default_factory=dict)
    """Parts whose last try failed (``board``, ``notes``, ``dm:<seat>``, ``channel`` …)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set by every change: wakes a pump that waits out one part's failure."""
    landed: dict[str, int] = field(default_factory=dict)
    """Per message (``board``, ``board:1``, ``dm:<seat>``), the newest render whose send or
    click answer landed: one landing after a newer one leaves the message stale (P-45)."""
    answering: dict[int, int] = field(default_factory=dict)
    """Messages (by id) a click is being decided and answered on: the pump's edit of such a
    message waits for that answer, which may show the same state already (P-45)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever a click's answer is done (``answering`` lost an entry)."""
    pictures: dict[str, PictureFollow] = field(default_factory=dict)
    """Per board message, the picture following a click's answer through its interaction
    (P-57): the newest only; an older one still waiting its turn gives way to it, one being
    drawn is put on first (P-86)."""
    picture_due: dict[str, datetime] = field(default_factory=dict)
    """Per board message, from when (the publisher's clock) its next picture may be drawn:
    ``PICTURE_INTERVAL`` after the last one began (P-86)."""
    picture_seq: dict[str, int] = field(default_factory=dict)
    """Per board message, the render (``seq``) whose picture it carries: an older picture
    that was still being drawn is not put on over it."""
    picture_wake: asyncio.Task[None] | None = None
    """Redraws a board whose text went out with its old picture once the new one is due, or
    (a game just ended) once it is drawn."""
    last_pictures: dict[str, tuple[ImageSpec, bytes]] = field(default_factory=dict)
    """Per board message, a game's final picture, drawn after its final words went out: the
    pump's next pass puts it on (whatever the picture cache kept meanwhile)."""
    boards_drawn: BoardsDrawn | None = None
    """The boards last drawn: a click's answer and the pump's pass after it draw them once."""
    dirty: bool = False
    pump: asyncio.Task[None] | None = None
    refresh: asyncio.TimerHandle | None = None


ANSWER_WAIT = 3.0
"""At most this long an edit waits for a click's answer on its message (Discord's own
deadline for answering a click)."""


def drawn(drawing: Drawing, key: str) -> MessageSpec | None:
    """The spec of message ``key`` in ``drawing`` (None: the game no longer shows it)."""
    if key.startswith("dm:"):
        return drawing.hands.get(int(key[3:]))
    index = 0 if key == "board" else int(key.split(":")[1])
    return drawing.boards[index] if index < len(drawing.boards) else None


async def after_answers(state: GameMessages, message_ids: list[int | None]) -> None:
    """Until no click on these messages is being answered (at most ``ANSWER_WAIT``)."""
    deadline = time.monotonic() + ANSWER_WAIT
    while any(m is not None and m in state.answering for m in message_ids):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        state.answered.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(state.answered.wait(), remaining)


def answered_newer(state: GameMessages, key: str, frame: Frame) -> bool:
    """A click's answer showed a later render of this message than ``frame``: sending the
    frame would take it back (any change after that answer marks the game dirty itself)."""
    return frame.seq < state.landed.get(key, 0)


def landed(state: GameMessages, key: str, seq: int) -> bool:
    """Note that render ``seq`` of message ``key`` landed. False if a newer render of it had
    landed already (a click's answer and the pump's edit crossed): the message may now show the
    older one, so it is marked unknown and the next pass draws it again, once (P-45)."""
    if seq > state.landed.get(key, 0):
        state.landed[key] = seq
        return True
    if key.startswith("dm:"):
        state.hands_shown.pop(int(key[3:]), None)
    else:
        state.shown.pop(key, None)
    state.dirty = True
    return False


def board_landed(state: GameMessages, key: str, turn: int, now: datetime) -> None:
    """Note that the main board now shows ``turn`` (since ``now`` if it is a new one)."""
    if key == "board" and (state.turn_shown is None or state.turn_shown[0] != turn):
        state.turn_shown = (turn, now)


def shown_as(spec: MessageSpec, turn: int) -> tuple[MessageSpec, int | None]:
    """What a DM showing ``spec`` at ``turn`` is: the same choices at a new turn are new buttons
    (a DM's are always the current ones, P-8), and a DM without any is not edited for a turn."""
    return spec, turn if spec.acts else None
