"""Channel notes: notices (DMs closed, a seat handed to a bot) and the one turn ping per game
(the previous one deleted first), each within the channel's limits (P-28, P-46); pings go
through a click's token where one can carry them (P-88)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from ..host.table import Table
from .attempts import PublisherBase
from .channel_hooks import ChannelHook, hook_of
from .game_messages import UNKNOWN_MESSAGE, Frame, GameMessages, Round
from .mentioning import ping_content

log = logging.getLogger(__name__)


class Notices(PublisherBase):
    """Sends a game's channel notices and turn pings."""

    def clicked_in_channel(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """A member's click on one of the game's messages, or command, was answered: if it was
        in the game's channel (not a DM), its token may carry the game's next ping (P-88)."""
        state = self._games.get(table.id)
        if state is None or (state.hook is not None and state.hook.fresh()):
            return
        hook = hook_of(interaction, table.game.channel_id)
        if hook is not None and (state.hook is None or hook.expires >= state.hook.expires):
            state.hook = hook

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
                hook = state.hooked.pop(message_id, None)
                if hook is None or not await deleted_through_token(hook, message_id):
                    with contextlib.suppress(discord.NotFound):
                        await channel.get_partial_message(message_id).delete()
                    rounds.channel_sent()
                else:
                    rounds.sent += 1
            finally:
                slot.release()
            pings.deleted(message_id)
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
        content = ping_content(wanted, frame.ping_text)
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in wanted]
        )
        try:
            message_id = await self._ping_through_click(table, state, content, mentions)
            if message_id is None:
                sent = await channel.send(content, allowed_mentions=mentions)
                message_id = sent.id
                rounds.channel_sent()
            else:
                rounds.sent += 1
        finally:
            slot.release()
        named = [s for s in plan.ping if table.user_at(s).user_id in wanted]
        state.pings.pinged(plan, named, message_id)
        await self.store.set_message(table.id, "ping", channel.id, message_id)

    async def _ping_through_click(
        self, table: Table, state: GameMessages, content: str, mentions: discord.AllowedMentions
    ) -> int | None:
        """Send the ping as a follow-up of the game's freshest click in its channel, which
        costs none of the bot's global budget (P-88): its message id, or None if no click can
        carry it (none, too old, or its token refused: the bot's own token sends it then)."""
        hook = state.hook
        if hook is None or not hook.can_send():
            return None
        try:
            sent = await hook.webhook.send(content, allowed_mentions=mentions, wait=True)
        except discord.HTTPException as exc:
            log.info("game %s: a click's token could not carry the ping (%s)", table.id, exc.status)
            if state.hook is hook:
                state.hook = None
            return None
        state.hooked[sent.id] = hook
        return sent.id


async def deleted_through_token(hook: ChannelHook, message_id: int) -> bool:
    """Delete a ping through the token that sent it, while it lives: False if it could not be
    (the bot's own token deletes it then)."""
    if not hook.can_delete():
        return False
    try:
        await hook.webhook.delete_message(message_id)
    except discord.NotFound as exc:
        return exc.code == UNKNOWN_MESSAGE  # already gone; not an unknown webhook
    except discord.HTTPException:
        return False
    return True
