"""Private replies with buttons kept until used up (P-27)."""

from __future__ import annotations

from ..host.table import Table
from .attempts import PublisherBase
from .replies import PrivateReply


class Tracking(PublisherBase):
    """Tracks the private replies whose buttons a later change may use up."""

    def track_reply(self, table: Table, reply: PrivateReply) -> None:
        """Keep a private reply with buttons until they are used up (P-27); redraw at once if
        the game moved on while it was being sent."""
        reply.witnessed = reply.usable(table)  # else its deciding move came and went (P-61)
        self.replies.track(table.id, reply)
        if self.replies.pending(table.id):
            self.mark_dirty(table)
