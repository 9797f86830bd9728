"""Private replies with buttons, kept until their buttons are used up, then edited without them.

A reply only its member sees (the hand after a Draw, a peeked tile, **My hand**) carries buttons
for what that member may do now. Once none of them can act any more (the choice was made,
from there or elsewhere, the clock made it, the game moved on or ended), the publisher edits the
reply through its interaction (tokens last 15 minutes) so no dead button stays clickable
(docs/rulings.md P-27). Replies are remembered in memory only: after a restart the old ones
keep their buttons, which are then answered "from an earlier turn" as before.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from ..host.table import Table
from ..ui.specs import MessageSpec, SelectSpec
from .render import edit_kwargs

log = logging.getLogger(__name__)
TOKEN_LIFETIME = 14 * 60.0
"""Discord lets an interaction's replies be edited for 15 minutes; stop a minute short."""


def spec_actions(spec: MessageSpec) -> list[dict[str, Any]]:
    """The engine actions a message's buttons and menus carry."""
    actions: list[dict[str, Any]] = []
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            actions += [option.action for option in row.options]
        else:
            actions += [b.action for b in row if b.action is not None and not b.disabled]
    return actions


class Surface(Protocol):
    """Where a reply is shown when it is a member's private panel (``panels.Panel``, P-48)."""

    since: float

    async def settle(self, reply: PrivateReply, spec: MessageSpec, turn: int) -> None: ...


@dataclass
class PrivateReply:
    """One ephemeral reply with game buttons; ``message_id`` is ``None`` for the original
    response, else a followup's id. A reply shown on a panel is edited through the panel's
    freshest token instead."""

    interaction: discord.Interaction[Any]
    message_id: int | None
    seat: int
    spec: MessageSpec
    turn: int
    sent_at: float = field(default_factory=time.monotonic)
    panel: Surface | None = None
    fate: str | None = None
    """What the move that used its buttons up did with its choice, in words, once a committed
    outcome said (``Presenter.settled_by``, P-61); shown when it is settled."""
    witnessed: bool = True
    """Whether later outcomes may say its fate: not if its buttons were used up before it was
    tracked (that move went unseen; a later one is another choice's)."""

    def expired(self, now: float) -> bool:
        since = self.sent_at if self.panel is None else self.panel.since
        return now - since > TOKEN_LIFETIME

    def usable(self, table: Table) -> bool:
        """Whether any of its buttons could still act: same turn, every action still legal."""
        engine = table.engine
        if engine is None or engine.is_over or table.status != "playing":
            return False
        if engine.turn != self.turn:
            return False
        # Compared as the engine's own check compares them (``Engine.listed``), not by a JSON
        # text of every legal action, which cost Bug Run a fraction of a millisecond per pass.
        legal = engine.legal_actions(self.seat)
        return all(engine.listed(action, legal) is not None for action in spec_actions(self.spec))

    async def edit(self, spec: MessageSpec, game_id: int, turn: int) -> None:
        kwargs = edit_kwargs(spec, game_id, turn)
        kwargs.pop("attachments", None)
        if self.message_id is None:
            await self.interaction.edit_original_response(**kwargs)
        else:
            await self.interaction.followup.edit_message(self.message_id, **kwargs)


class PrivateReplies:
    """The replies of every game whose buttons may still act."""

    def __init__(self) -> None:
        self._by_game: dict[int, list[PrivateReply]] = {}

    def track(self, game_id: int, reply: PrivateReply) -> None:
        if spec_actions(reply.spec):
            self._by_game.setdefault(game_id, []).append(reply)

    def used_up(self, table: Table) -> list[PrivateReply]:
        """Replies of ``table`` whose buttons can no longer act, forgotten here. Call it holding
        the table's lock, so the engine is the committed one. Replies too old to edit are
        forgotten without being returned."""
        replies = self._by_game.get(table.id, [])
        now = time.monotonic()
        keep: list[PrivateReply] = []
        done: list[PrivateReply] = []
        for reply in replies:
            if reply.expired(now):
                continue
            (keep if reply.usable(table) else done).append(reply)
        if keep:
            self._by_game[table.id] = keep
        else:
            self._by_game.pop(table.id, None)
        return done

    def witness(self, game_id: int, fate_of: Callable[[PrivateReply], str | None]) -> None:
        """A committed outcome of the game: each reply whose choice it decided learns how
        (``fate_of``, asked once per reply until it answers), in the order moves commit."""
        for reply in self._by_game.get(game_id, ()):
            if reply.fate is None and reply.witnessed:
                reply.fate = fate_of(reply)

    def pending(self, game_id: int) -> int:
        return len(self._by_game.get(game_id, []))

    @staticmethod
    async def settle(reply: PrivateReply, spec: MessageSpec, game_id: int, turn: int) -> None:
        """Edit a used-up reply to ``spec`` (its buttons gone); a reply its member dismissed,
        or whose token expired, is left as it is. One on a panel is edited only if the panel
        still shows it (a newer answer may have replaced it)."""
        if reply.panel is not None:
            await reply.panel.settle(reply, spec, turn)
            return
        with contextlib.suppress(discord.NotFound):
            try:
                await reply.edit(spec, game_id, turn)
            except discord.HTTPException as exc:
                log.warning("could not settle a private reply of game %s: %s", game_id, exc)
