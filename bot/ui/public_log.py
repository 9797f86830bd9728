"""The public log of every loaded game: what boards show under "Log".

A host listener, so the lines are written by the UI layer from committed outcomes rather than by
whoever sends messages; presenters are handed the lines to draw. Only public events reach it
(``Presenter.log_lines``), so a secret can never be on a board through the log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from ..host.table import Outcome, Table
from .presenter import presenter_for

LOG_LINES = 40
"""Lines kept per game: more than any board shows."""


class PublicLog:
    """Keeps the newest public log lines of each game, newest last."""

    def __init__(self, size: int = LOG_LINES) -> None:
        self.size = size
        self._games: dict[int, deque[str]] = {}

    def _log(self, game_id: int) -> deque[str]:
        return self._games.setdefault(game_id, deque(maxlen=self.size))

    def lines(self, game_id: int) -> Sequence[str]:
        """The game's lines, oldest first (empty for a game that has none yet)."""
        return tuple(self._games.get(game_id, ()))

    def add(self, game_id: int, lines: Iterable[str]) -> None:
        """New lines, after every line the game has."""
        self._log(game_id).extend(lines)

    def restore(self, game_id: int, lines: Iterable[str]) -> None:
        """Lines rebuilt from the action log after a restart: they go before any newer one."""
        log = self._log(game_id)
        newer = list(log)
        log.clear()
        log.extend([*lines, *newer])  # the deque keeps the newest ``size``

    def forget(self, game_id: int) -> None:
        """The game's last board is drawn: its lines are no longer needed."""
        self._games.pop(game_id, None)

    # -- the Listener protocol ---------------------------------------------------------------
    def table_changed(self, table: Table, outcome: Outcome | None) -> None:
        presenter = presenter_for(table.slug)
        if outcome is not None:
            self.add(table.id, presenter.log_lines(outcome.view, outcome))
        # A seat handed to a bot or taken back is said in the log too.
        self.add(
            table.id, [presenter.seat_line(change.view, change) for change in table.seat_changes]
        )
