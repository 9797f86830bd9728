"""Members' DM channels, by id: a DM is sent and edited without asking Discord who the member is.

discord.py's ``fetch_user`` costs a ``GET /users/{id}`` and ``create_dm`` a
``POST /users/@me/channels``, both from the bot's global budget (about 50 requests per second
for the whole bot, issue #21). The bot keeps no member cache, so without this every DM edit
would cost both. Here a member's DM channel id is learned once per process — from the stored
hand messages of the games it adopts, or by opening the DM once — and every later send or
edit goes straight to ``/channels/{dm}/messages``.
"""

from __future__ import annotations

import asyncio

import discord


class DirectMessages:
    """The DM channel of each member this process has written to (user id → channel id)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._ids: dict[int, int] = {}
        self._opening: dict[int, asyncio.Future[int]] = {}

    def learn(self, user_id: int, channel_id: int) -> None:
        """A DM channel read from the store (a hand message sent earlier, maybe by another
        process): no need to open it again."""
        self._ids.setdefault(user_id, channel_id)

    def known(self, user_id: int) -> int | None:
        return self._ids.get(user_id)

    async def channel(self, user_id: int) -> discord.PartialMessageable:
        """The member's DM channel, opened at most once per process even when several games
        write to the same member at once (the others wait for that one request)."""
        channel_id = self._ids.get(user_id)
        if channel_id is None:
            channel_id = await self._open(user_id)
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _open(self, user_id: int) -> int:
        opening = self._opening.get(user_id)
        if opening is not None:
            return await asyncio.shield(opening)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._opening[user_id] = future
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:  # the waiters meet the same refusal (DMs closed, an outage)
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        else:
            self._ids[user_id] = dm.id
            future.set_result(dm.id)
            return dm.id
        finally:
            del self._opening[user_id]
