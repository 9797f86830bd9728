"""Keeps every game's public messages and private hands up to date.

Edits to one game's messages are coalesced: a change marks the game dirty, one pump per game
renders the newest committed state and sends it, then waits ``board_edit_interval`` before the
next edit, so a burst of clicks becomes a few edits and the newest state always wins. An edit that
fails (a long 429 storm, a network outage) is tried again with backoff for as long as it takes:
every board ends up showing the newest state, unless its message is gone (P-23).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from ..backoff import backoff, one_line
from ..host.table import Outcome, Table
from ..ui.lobby import cancelled_message, lobby_message
from ..ui.presenter import presenter_for
from ..ui.specs import MessageSpec
from ..web.links import game_url, with_replay_link
from .images import ImageCache
from .render import edit_kwargs, send_kwargs

if TYPE_CHECKING:
    from .client import BugtableBot

log = logging.getLogger(__name__)
DM_CLOSED = 50007
CLOSE_SECONDS = 5.0


@dataclass
class _GameMessages:
    board_ids: dict[str, int] = field(default_factory=dict)
    shown: dict[str, tuple[MessageSpec, int]] = field(default_factory=dict)
    hand_ids: dict[int, int] = field(default_factory=dict)
    hands_shown: dict[int, tuple[MessageSpec, int]] = field(default_factory=dict)
    dm_closed: set[int] = field(default_factory=set)
    dirty: bool = False
    pump: asyncio.Task[None] | None = None
    refresh: asyncio.TimerHandle | None = None


class Publisher:
    """The host's listener on the Discord side."""

    def __init__(self, bot: BugtableBot) -> None:
        self.bot = bot
        self._games: dict[int, _GameMessages] = {}
        self.images = ImageCache()

    def _state(self, game_id: int) -> _GameMessages:
        return self._games.setdefault(game_id, _GameMessages())

    async def adopt(self, table: Table) -> None:
        """Learn which messages show this game (after it opened, or after a restart)."""
        state = self._state(table.id)
        for kind, record in (await self.bot.store.messages(table.id)).items():
            if kind.startswith("board"):
                state.board_ids[kind] = record.message_id
            elif kind.startswith("hand:"):
                state.hand_ids[int(kind.split(":", 1)[1])] = record.message_id

    # -- the Listener protocol -----------------------------------------------------------
    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        if outcome is not None:
            table.log.extend(presenter_for(table.slug).log_lines(table, outcome))
        self.mark_dirty(table)

    def mark_dirty(self, table: Table) -> None:
        state = self._state(table.id)
        state.dirty = True
        if state.pump is None or state.pump.done():
            state.pump = asyncio.create_task(self._pump(table), name=f"pump:{table.id}")

    async def flush(self) -> None:
        """Wait until every pending edit has been sent (tests and shutdown)."""
        while pumps := [s.pump for s in self._games.values() if s.pump and not s.pump.done()]:
            await asyncio.gather(*pumps, return_exceptions=True)

    async def close(self) -> None:
        """Send what can be sent within ``CLOSE_SECONDS``, then stop: a pump waiting out a long
        outage must not hold up shutdown (the next start redraws every board)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), CLOSE_SECONDS)

    # -- the pump ------------------------------------------------------------------------
    async def _pump(self, table: Table) -> None:
        state = self._state(table.id)
        interval = self.bot.settings.board_edit_interval
        failures = 0
        while state.dirty:
            state.dirty = False
            try:
                boards, hands, turn, waiting = await self._render(table)
                sent = await self._sync_boards(table, state, boards, turn)
                sent += await self._sync_hands(table, state, hands, turn, waiting)
                failures = 0
            except (discord.NotFound, discord.Forbidden) as exc:
                # The message or the channel is gone, or closed to us: nothing to bring up to
                # date any more. (A closed DM is handled in _sync_hands.)
                log.warning("game %s: its messages are gone (%s)", table.id, one_line(exc))
                continue
            except Exception as exc:
                # Discord (or the database) failed: try again, later each time, until it works;
                # whatever changed meanwhile is rendered then, so the newest state is sent.
                failures += 1
                wait = backoff(failures, self.bot.settings.retry_max_delay)
                log.warning(
                    "could not update the messages of game %s (%s); trying again in %.1f s",
                    table.id,
                    one_line(exc),
                    wait,
                    exc_info=failures == 1 and not isinstance(exc, discord.HTTPException),
                )
                state.dirty = True
                await asyncio.sleep(wait)
                continue
            self._schedule_refresh(table, state)
            if sent and state.dirty:
                await asyncio.sleep(interval)
        if table.status not in ("lobby", "playing"):
            done = self._games.pop(table.id, None)
            if done is not None and done.refresh is not None:
                done.refresh.cancel()

    def _schedule_refresh(self, table: Table, state: _GameMessages) -> None:
        """Redraw at the presenter's next refresh time (live countdowns), once."""
        if state.refresh is not None:
            state.refresh.cancel()
            state.refresh = None
        if table.engine is None or table.status != "playing":
            return
        at = presenter_for(table.slug).refresh_at(table)
        if at is None:
            return
        delay = max(0.0, (at - datetime.now(UTC)).total_seconds())
        state.refresh = asyncio.get_running_loop().call_later(delay, self.mark_dirty, table)

    async def _render(
        self, table: Table
    ) -> tuple[list[MessageSpec], dict[int, MessageSpec], int, frozenset[int]]:
        """Render the last committed state (the lock guarantees no half-applied action)."""
        async with table.lock:
            if table.status == "lobby":
                return [lobby_message(table)], {}, 0, frozenset()
            if table.status == "cancelled" or table.engine is None:
                return [cancelled_message(table)], {}, 0, frozenset()
            presenter = presenter_for(table.slug)
            engine = table.engine
            boards = presenter.public_boards(table)
            if engine.is_over and boards:  # a finished game's board links to its replay
                url = game_url(self.bot.settings, table.game.web_token)
                boards[0] = with_replay_link(boards[0], url)
            hands: dict[int, MessageSpec] = {}
            for seat in range(engine.players):
                if table.user_at(seat).is_bot:
                    continue
                spec = presenter.hand(table, seat)
                if spec is not None:
                    hands[seat] = spec
            waiting = frozenset() if engine.is_over else engine.waiting_for()
            return boards, hands, engine.turn, waiting

    async def _sync_boards(
        self, table: Table, state: _GameMessages, boards: list[MessageSpec], turn: int
    ) -> int:
        sent = 0
        channel = self.bot.get_partial_messageable(table.game.channel_id)
        kinds = ["board" if i == 0 else f"board:{i}" for i in range(len(boards))]
        for kind, spec in zip(kinds, boards, strict=True):
            previous = state.shown.get(kind)
            if previous == (spec, turn):
                continue
            message_id = state.board_ids.get(kind)
            # The picture (if any) is rendered off the event loop, and uploaded only when it
            # changed: an unchanged board picture stays on the message as it is.
            shown = previous[0].image if previous is not None else None
            png = None
            if spec.image is not None and (message_id is None or spec.image != shown):
                png = await self.images.png(spec.image)
            if message_id is None:
                message = await channel.send(**send_kwargs(spec, table.id, turn, png))
                state.board_ids[kind] = message.id
                await self.bot.store.set_message(table.id, kind, channel.id, message.id)
            else:
                await channel.get_partial_message(message_id).edit(
                    **edit_kwargs(spec, table.id, turn, png, shown=shown)
                )
            state.shown[kind] = (spec, turn)
            sent += 1
        for kind in [k for k in state.board_ids if k not in kinds]:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(state.board_ids.pop(kind)).delete()
            state.shown.pop(kind, None)
            sent += 1
        return sent

    async def _sync_hands(
        self,
        table: Table,
        state: _GameMessages,
        hands: dict[int, MessageSpec],
        turn: int,
        waiting: frozenset[int],
    ) -> int:
        sent = 0
        presenter = presenter_for(table.slug)
        for seat, spec in hands.items():
            if seat in state.dm_closed or state.hands_shown.get(seat, (None, -1))[0] == spec:
                continue
            previous = state.hands_shown.get(seat)
            # A fresh DM (which notifies) when the game starts waiting on this player again;
            # otherwise the hand message is edited quietly.
            fresh = seat not in state.hand_ids or (
                presenter.fresh_dm_each_turn
                and seat in waiting
                and previous is not None
                and previous[1] != turn
            )
            user_id = table.user_at(seat).user_id
            try:
                if fresh:
                    user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                    message = await user.send(**send_kwargs(spec, table.id, turn))
                    state.hand_ids[seat] = message.id
                    await self.bot.store.set_message(
                        table.id, f"hand:{seat}", message.channel.id, message.id
                    )
                else:
                    user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                    dm = user.dm_channel or await user.create_dm()
                    await dm.get_partial_message(state.hand_ids[seat]).edit(
                        **edit_kwargs(spec, table.id, turn)
                    )
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                state.dm_closed.add(seat)
                await self._tell_dms_closed(table, user_id)
            except discord.NotFound:
                state.hand_ids.pop(seat, None)
                continue
            state.hands_shown[seat] = (spec, turn)
            sent += 1
        return sent

    async def _tell_dms_closed(self, table: Table, user_id: int) -> None:
        """Say so in the channel, without the secret, and point at the ephemeral fallback."""
        channel = self.bot.get_partial_messageable(table.game.channel_id)
        await channel.send(
            f"<@{user_id}>, I can't send you direct messages, so your hand stays hidden here: "
            "press **My hand** on the board or use `/bugs hand` to see it privately.",
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    def board_message_id(self, game_id: int) -> int | None:
        return self._state(game_id).board_ids.get("board")

    def remember_board(
        self, game_id: int, message_id: int, spec: MessageSpec | None = None
    ) -> None:
        state = self._state(game_id)
        state.board_ids["board"] = message_id
        if spec is not None:
            state.shown["board"] = (spec, 0)
