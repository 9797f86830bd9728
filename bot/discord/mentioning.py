"""Whom a turn ping or a board's turn line may name (members playing their own seats), how the
mentions read, and the waits a restart restores (P-28, P-46)."""

from __future__ import annotations

import dataclasses

import discord

from ..host.table import Table
from ..ui.specs import MessageSpec
from .pings import PingPolicy


def _waiting(table: Table) -> frozenset[int]:
    engine = table.engine
    if engine is None or engine.is_over or table.status != "playing":
        return frozenset()
    return engine.waiting_for()


def waiting_members(table: Table) -> list[int]:
    """The seats the game waits on that members play themselves: those a ping may name."""
    return [s for s in sorted(_waiting(table)) if s >= 0 and pingable(table, s)]


def restore_waits(
    pings: PingPolicy, table: Table, members: list[int], ping_message: int | None
) -> None:
    """After a restart, each wait began when the game last changed (``games.updated_at``);
    a ping message sent since then (a Discord id tells when it was made) already pinged them."""
    since = table.game.updated_at
    sent = None if ping_message is None else discord.utils.snowflake_time(ping_message)
    pinged = sent is not None and sent >= since
    pings.restore(members, since, pinged=pinged, message=ping_message, pinged_at=sent)


def pingable(table: Table, seat: int) -> bool:
    """A seat a member plays themself: bots, and stand-ins for a member away, are never
    pinged (P-28, P-30)."""
    return not table.bot_plays(seat)


MAX_MENTIONS = 10


def mentions(user_ids: list[int]) -> str:
    shown = " ".join(f"<@{u}>" for u in user_ids[:MAX_MENTIONS])
    more = len(user_ids) - MAX_MENTIONS
    return f"{shown} +{more}" if more > 0 else shown


def with_turn_line(spec: MessageSpec, user_ids: list[int]) -> MessageSpec:
    """The board with a first line naming whom the game waits on (as mentions, which do not
    notify anyone in an edit: the ping does that)."""
    line = f"🔔 Your move: {mentions(user_ids)}"
    content = f"{line}\n{spec.content}" if spec.content else line
    return dataclasses.replace(spec, content=content)


def ping_content(user_ids: list[int], text: str) -> str:
    return f"🔔 {mentions(user_ids)} {text} (pings: `/bugs settings`)"
