"""Channel notes: notices (DMs closed, a seat handed to a bot) and the one turn ping per game
(the previous one deleted first), each within the channel's limits (P-28, P-46)."""

from __future__ import annotations

import contextlib

import discord

from ..host.table import Table
from .attempts import PublisherBase
from .game_messages import Frame, GameMessages, Round
from .mentioning import ping_content


class Notices(PublisherBase):
    """Sends a game's channel notices and turn pings."""

    async def _sync_channel_notes(
        self, table: Table, state: GameMessages, frame: Frame, rounds: Round
    ) -> None:
        """Notices, then the turn ping (one per game: the previous one is deleted first,
        P-46), each within the channel's limits."""
        channel = self.client.get_partial_messageable(table.game.channel_id)
        while state.notices:
            slot = self._slot(channel.id, "send", rounds)
            if slot is None:
                break
            try:
                await channel.send(
                    state.notices[0], allowed_mentions=discord.AllowedMentions(users=True)
                )
            finally:
                slot.release()
            state.notices.pop(0)
            rounds.channel_sent()
        pings, plan, wanted = state.pings, frame.ping_plan, []
        if frame.ping:  # members with pings off are skipped for this wait (P-28)
            settings = await self.store.member_settings(frame.ping)
            default = table.policy.pings_default  # the server's when the game opened (P-66)
            wanted = [u for u in frame.ping if settings[u].pings_on(default)]
            if wanted:
                pings.sending(plan)
            else:
                pings.pinged(plan, (), None)
        for message_id in list(pings.doomed):
            slot = self._slot(channel.id, "delete", rounds)
            if slot is None:
                return  # the new ping waits for the old one to go
            try:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(message_id).delete()
            finally:
                slot.release()
            pings.deleted(message_id)
            rounds.channel_sent()
        if wanted:
            await self._ping(table, state, frame, wanted, rounds)

    async def _ping(
        self, table: Table, state: GameMessages, frame: Frame, wanted: list[int], rounds: Round
    ) -> None:
        """Mention the members the game has waited on for ``PING_AFTER`` who want pings, in a
        new message (edits notify nobody), P-28, P-46."""
        plan = frame.ping_plan
        channel = self.client.get_partial_messageable(table.game.channel_id)
        slot = self._slot(channel.id, "send", rounds)
        if slot is None:
            return
        try:
            message = await channel.send(
                ping_content(wanted, frame.ping_text),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in wanted]
                ),
            )
        finally:
            slot.release()
        named = [s for s in plan.ping if table.user_at(s).user_id in wanted]
        state.pings.pinged(plan, named, message.id)
        rounds.channel_sent()
        await self.store.set_message(table.id, "ping", channel.id, message.id)
