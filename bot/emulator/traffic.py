"""What a game cost in Discord traffic, counted in the emulator: messages and edits per member
(DMs, private replies, pings) and per channel, and the busiest window of edits.

The demo prints it after each game; tests and ``bench/`` may use it to keep the bot's noise in
check (issue 11: a DM per turn, hundreds of edits, nobody pinged).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .models import Channel, Message, User
from .server import Emulator


@dataclass(frozen=True)
class MemberTraffic:
    """What one member was sent: DMs and their edits, private replies and their edits, and how
    many channel messages notified them (pings)."""

    name: str
    dms: int
    dm_edits: int
    replies: int
    reply_edits: int
    pinged: int


@dataclass(frozen=True)
class Traffic:
    channel_messages: int
    """Messages the bot sent to the channel (deleted ones included)."""
    channel_edits: int
    channel_deletes: int
    pings: int
    """Channel messages that notified somebody."""
    busiest_edits: int
    """The most edits of the channel's messages within any ``window`` seconds."""
    window: float
    too_many: int
    """Requests answered 429 (0 when the bot keeps within the limits)."""
    members: list[MemberTraffic] = field(default_factory=list)

    def lines(self) -> list[str]:
        """A short report, one line per member."""
        out = [
            f"channel: {self.channel_messages} messages ({self.pings} pings, "
            f"{self.channel_deletes} deleted), {self.channel_edits} edits, at most "
            f"{self.busiest_edits} edits in any {self.window:g} s, {self.too_many} × 429",
        ]
        out += [
            f"{m.name}: {m.dms} DM ({m.dm_edits} edits), {m.replies} private replies "
            f"({m.reply_edits} edits), pinged {m.pinged}×"
            for m in self.members
        ]
        return out


def _sent(emu: Emulator, channel: Channel) -> list[Message]:
    return [
        m
        for m in emu.world.messages.values()
        if m.channel is channel and m.ephemeral_to is None and m.author is emu.bot_user
    ]


def busiest(times: list[float], window: float) -> int:
    """The most of ``times`` (seconds) that fall within any ``window``."""
    times = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def measure(emu: Emulator, channel: Channel, users: list[User], *, window: float = 5.0) -> Traffic:
    """Everything the bot sent to ``channel`` and to ``users`` so far."""
    sent = _sent(emu, channel)
    edits = re.compile(rf"^/channels/{channel.id}/messages/\d+$")
    patch_times = [r.time for r in emu.requests if r.method == "PATCH" and edits.match(r.path)]
    members = []
    for user in users:
        dm_channel = emu.world.dm_channels.get(user.id)
        dms = _sent(emu, dm_channel) if dm_channel is not None else []
        replies = [m for m in emu.world.messages.values() if m.ephemeral_to is user]
        members.append(
            MemberTraffic(
                name=user.name,
                dms=len(dms),
                dm_edits=sum(len(m.history) for m in dms),
                replies=len(replies),
                reply_edits=sum(len(m.history) for m in replies),
                pinged=sum(1 for m in sent if user.id in m.notified),
            )
        )
    return Traffic(
        channel_messages=len(sent),
        channel_edits=sum(len(m.history) for m in sent),
        channel_deletes=sum(1 for m in sent if m.deleted),
        pings=sum(1 for m in sent if m.notified),
        busiest_edits=busiest(patch_times, window),
        window=window,
        too_many=sum(1 for r in emu.requests if r.status == 429),
        members=members,
    )
