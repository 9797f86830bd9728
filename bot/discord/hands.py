"""Hands: each member's one DM per game (P-8), sent once then edited in place, and what the
channel is told when a member takes no DMs."""

from __future__ import annotations

import asyncio
import functools
import logging

import discord

from ..backoff import one_line
from ..host.table import Table
from ..ui.specs import MessageSpec
from .attempts import PublisherBase
from .game_messages import (
    Frame,
    GameMessages,
    Round,
    after_answers,
    answered_newer,
    landed,
    shown_as,
)
from .message_hooks import edit_through_click
from .render import edit_kwargs, send_kwargs

# Every part logs as the one publisher module did, so log records keep their names.
log = logging.getLogger("bot.discord.publisher")


class Hands(PublisherBase):
    """Keeps every member's DM of a game showing their hand."""

    async def _sync_hands(
        self, table: Table, state: GameMessages, frame: Frame, rounds: Round
    ) -> None:
        """One DM per player per game (P-8): sent once, then edited in place, "your turn" and
        its buttons included. Edits never notify. Each DM is its own part: one that fails is
        tried again later while the others go on (P-39)."""
        await asyncio.gather(
            *(
                self._attempt(
                    table,
                    state,
                    f"dm:{seat}",
                    rounds,
                    functools.partial(self._sync_hand, table, state, seat, spec, frame, rounds),
                )
                for seat, spec in frame.hands.items()
                if seat not in state.dm_closed
                and state.hands_shown.get(seat) != shown_as(spec, frame.turn)
            )
        )

    async def _sync_hand(
        self,
        table: Table,
        state: GameMessages,
        seat: int,
        spec: MessageSpec,
        frame: Frame,
        rounds: Round,
    ) -> None:
        turn = frame.turn
        await after_answers(state, [state.hand_ids.get(seat)])
        if state.hands_shown.get(seat) == shown_as(spec, turn) or answered_newer(
            state, f"dm:{seat}", frame
        ):
            return  # the click on it showed this, or newer, in its own answer
        first = seat not in state.hand_ids
        user_id = table.user_at(seat).user_id
        slot = self._slot(("dm", user_id), "send" if first else "edit", rounds)
        if slot is None:
            return
        try:
            dm = await self.dms.channel(user_id)  # by id: no GET /users/{id} (issue #21)
            if first:
                message = await dm.send(**send_kwargs(spec, table.id, turn))
                state.hand_ids[seat] = message.id
                await self.store.set_message(table.id, f"hand:{seat}", dm.id, message.id)
            else:
                message_id = state.hand_ids[seat]
                kwargs = edit_kwargs(spec, table.id, turn)
                if not await edit_through_click(
                    state.message_hooks, message_id, table.id, **kwargs
                ):
                    await dm.get_partial_message(message_id).edit(**kwargs)
        except discord.Forbidden as exc:
            # DMs closed (50007), or any other refusal to reach this member: their hand stays
            # a click away (My hand), and the channel is told once.
            log.info("game %s: seat %s takes no DMs (%s)", table.id, seat, one_line(exc))
            state.dm_closed.add(seat)
            await self._tell_dms_closed(table, user_id)
            return
        except discord.NotFound:  # the DM is gone: send a new one, now
            state.hand_ids.pop(seat, None)
            state.dirty = True
            rounds.hold(0.0)
            return
        finally:
            slot.release()
        if landed(state, f"dm:{seat}", frame.seq):
            state.hands_shown[seat] = shown_as(spec, turn)
        rounds.sent += 1

    async def _tell_dms_closed(self, table: Table, user_id: int) -> None:
        """Say so in the channel, without the secret, and point at the ephemeral fallback (in
        the next pass: the channel's part of this one may have gone already)."""
        state = self._state(table.id)
        state.dirty = True
        state.notices.append(
            f"<@{user_id}>, I can't send you direct messages, so your hand stays hidden here: "
            "press **My hand** on the board or use `/bugs hand` to see it privately."
        )

    def dm_shows_hand(self, game_id: int, seat: int) -> bool:
        """Whether the seat's DM shows their hand (sent, DMs not closed): their panel then
        need not repeat it (P-48)."""
        state = self._games.get(game_id)
        return state is not None and seat in state.hand_ids and seat not in state.dm_closed
