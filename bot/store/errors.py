"""Typed store errors. Their messages are shown to players by the Discord layer, so they are short
and written for them; the attributes carry what code needs to react."""

from __future__ import annotations


class StoreError(Exception):
    """A store operation was refused; nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class GameNotFound(StoreError):
    """The game id names no game (a stale button, or a typo in an admin command)."""

    def __init__(self, game_id: int) -> None:
        super().__init__("That game no longer exists.")
        self.game_id = game_id


class ChannelBusy(StoreError):
    """The channel already has a lobby or a game in play (one game per channel)."""

    def __init__(self, existing_game_id: int) -> None:
        super().__init__("There is already a game in this channel.")
        self.existing_game_id = existing_game_id


class AlreadySeated(StoreError):
    """The user already has a place at this table."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__("You are already at this table.")
        self.game_id = game_id
        self.user_id = user_id


class NotSeated(StoreError):
    """The member has no place at this table: none in its lobby, or no seat of their own in its
    game (``playing``). The one error for both, raised by the store and the host alike."""

    def __init__(self, game_id: int, user_id: int, *, playing: bool = False) -> None:
        super().__init__(
            "You are not playing in this game." if playing else "You are not at this table."
        )
        self.game_id = game_id
        self.user_id = user_id


class TableFull(StoreError):
    """Every place at the table is taken."""

    def __init__(self, game_id: int, max_players: int) -> None:
        super().__init__(f"The table is full ({max_players} players).")
        self.game_id = game_id
        self.max_players = max_players


_STATUS_MESSAGES = {
    "lobby": "This game has not started yet.",
    "playing": "This game has already started.",
    "finished": "This game is over.",
    "cancelled": "This game was cancelled.",
}


class WrongStatus(StoreError):
    """The game is not in a state that allows the operation (e.g. joining a game in play)."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(_STATUS_MESSAGES.get(status, "That is not possible right now."))
        self.game_id = game_id
        self.status = status


class VersionConflict(StoreError):
    """The game changed since the caller read it; the caller's write was not applied."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__("The game moved on before that arrived. Please try again.")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
