"""One private panel per player per game: the ephemeral message later private answers edit.

A member's private answers in the channel (My hand, a Bugs & Co pick-up, Bug Off!'s draw) go to
one ephemeral message, edited in place, instead of a new reply each time (docs/rulings.md P-48).
Discord lets a bot edit an ephemeral message only through an interaction token that made it
(its original response or a followup) or that came from a click on it (``@original`` after an
``UPDATE_MESSAGE`` or deferred update), for 15 minutes. So a panel remembers the freshest such
token: the one that created it, or the latest click made on it. Panels live in memory only:
after a restart, or once the token is too old, the next private answer starts a new panel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from ..ui.specs import MessageSpec
from .render import edit_kwargs
from .replies import TOKEN_LIFETIME, PrivateReply

log = logging.getLogger(__name__)
ANSWER_WAIT = 3.0
"""At most this long a settling edit waits for a click of the panel's member being answered
(Discord's own deadline for answering a click)."""


class PanelGone(Exception):
    """The panel can no longer be edited (dismissed, token expired, Discord refused): the
    answer goes in a new panel instead."""

    def __init__(self, status: int, code: int) -> None:
        super().__init__(f"{status} {code}")
        self.status = status

    @property
    def dismissed(self) -> bool:
        """The member dismissed the message (Discord answers 404): its token still works."""
        return self.status == 404


@dataclass(eq=False)
class Panel:
    """One member's ephemeral message of one game and the token that can edit it."""

    game_id: int
    seat: int
    user_id: int
    message_id: int
    """The ephemeral message's own id (a click on it carries it)."""
    interaction: discord.Interaction[Any]
    followup_id: int | None
    """``None``: the message is ``interaction``'s original (or the message it was clicked
    on); else a followup of ``interaction`` with this id."""
    since: float = field(default_factory=time.monotonic)
    """When ``interaction`` came: its token edits the panel for 15 minutes."""
    reply: PrivateReply | None = None
    """What the panel shows now, if its buttons may still act (P-27)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by every edit, so an answer and a settling edit land in the order they were made."""
    owner: Panels | None = None

    def live(self, now: float | None = None) -> bool:
        return (time.monotonic() if now is None else now) - self.since < TOKEN_LIFETIME

    def clicked(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether ``interaction`` is a click on this panel."""
        message = interaction.message
        return message is not None and message.id == self.message_id

    def adopt_click(self, interaction: discord.Interaction[Any]) -> None:
        """A click on the panel brings a fresh token that edits it (``@original``)."""
        self.interaction, self.followup_id, self.since = interaction, None, time.monotonic()

    async def edit(self, spec: MessageSpec, turn: int) -> None:
        """Show ``spec`` through the stored token; ``PanelGone`` if Discord will not."""
        kwargs = edit_kwargs(spec, self.game_id, turn)
        kwargs.pop("attachments", None)
        try:
            if self.followup_id is None:
                await self.interaction.edit_original_response(**kwargs)
            else:
                await self.interaction.followup.edit_message(self.followup_id, **kwargs)
        except discord.HTTPException as exc:  # 401/403/404/429/5xx: a new panel instead
            gone = PanelGone(exc.status, exc.code)
            if self.owner is not None and not gone.dismissed:
                self.owner.trusted.discard(self.game_id)
            raise gone from exc
        if self.owner is not None:
            self.owner.trusted.add(self.game_id)

    async def settle(self, reply: PrivateReply, spec: MessageSpec, turn: int) -> None:
        """Edit the panel to ``spec`` (its buttons gone, P-27) if it still shows ``reply``;
        one its member dismissed, or whose token expired, is left as it is. A click of its
        member being answered goes first: its answer may replace what is settled here."""
        if self.owner is not None:
            await self.owner.quiet(self.game_id, self.user_id)
        async with self.lock:
            if self.reply is not reply:
                return  # a newer answer replaced it
            try:
                await self.edit(spec, turn)
            except PanelGone as exc:
                log.info(
                    "game %s: could not settle the panel of seat %s (%s)",
                    self.game_id,
                    self.seat,
                    exc,
                )
                return
            self.reply = None


class Panels:
    """Every game's panels, by (game, seat)."""

    def __init__(self) -> None:
        self.trusted: set[int] = set()
        """Games whose last panel edit through a stored token went through (a dismissed panel
        aside). In a game's other moments (before its first edit, after Discord refused
        one) a click's private answer waits for its panel's edit before the click is
        answered, so that a refused edit is replaced by a new reply in the click's own
        answer, which needs no token (P-95)."""
        self._by_game: dict[int, dict[int, Panel]] = {}
        self._answering: dict[tuple[int, int], int] = {}
        self._answered = asyncio.Event()

    @contextlib.contextmanager
    def answering(self, game_id: int, user_id: int) -> Iterator[None]:
        """While a click of ``user_id`` on game ``game_id`` is decided and answered."""
        key = (game_id, user_id)
        self._answering[key] = self._answering.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._answering.pop(key) - 1
            if left:
                self._answering[key] = left
            self._answered.set()

    async def quiet(self, game_id: int, user_id: int) -> None:
        """Until no click of this member on this game is being answered (``ANSWER_WAIT``)."""
        deadline = time.monotonic() + ANSWER_WAIT
        while (game_id, user_id) in self._answering:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            self._answered.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answered.wait(), remaining)

    def live(self, game_id: int, seat: int) -> Panel | None:
        """The seat's panel if its token may still edit it."""
        panel = self._by_game.get(game_id, {}).get(seat)
        if panel is None:
            return None
        if not panel.live():
            self.drop(panel)
            return None
        return panel

    def clicked(
        self, game_id: int, seat: int, interaction: discord.Interaction[Any]
    ) -> Panel | None:
        """The seat's panel if ``interaction`` is a click on it (its token is fresh)."""
        panel = self._by_game.get(game_id, {}).get(seat)
        return panel if panel is not None and panel.clicked(interaction) else None

    def put(self, panel: Panel) -> None:
        panel.owner = self
        self._by_game.setdefault(panel.game_id, {})[panel.seat] = panel

    def drop(self, panel: Panel) -> None:
        panels = self._by_game.get(panel.game_id, {})
        if panels.get(panel.seat) is panel:
            del panels[panel.seat]
        if not panels:
            self._by_game.pop(panel.game_id, None)

    def forget(self, game_id: int) -> None:
        """The game is over and its messages settled: its panels take no more answers."""
        self._by_game.pop(game_id, None)
        self.trusted.discard(game_id)

    def count(self, game_id: int) -> int:
        return len(self._by_game.get(game_id, {}))
