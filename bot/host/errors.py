"""Typed errors of the host. Each message is shown to the member, ephemerally, at the edge."""

from __future__ import annotations


class HostError(Exception):
    """A request the host refuses; nothing changed."""

    message = "That can't be done right now."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.message)
        if message:
            self.message = message

    def __str__(self) -> str:
        return self.message


class NoGameHere(HostError):
    message = "There is no game in this channel. Start one with `/bugs new`."


class NotInGuild(HostError):
    message = "Use `/bugs` in a server channel: games are played there, not in direct messages."


class GameGone(HostError):
    message = "That game has ended or was cancelled."


class NotAllowed(HostError):
    message = (
        "Only the member who opened the game (or someone with Manage Channels, or the server's "
        "moderator role) can do that."
    )


class NotAPlayer(HostError):
    message = "Only the players of that game can ask for a rematch."


class StaleButton(HostError):
    message = "That button is from an earlier turn: the game has moved on."


class NotStarted(HostError):
    message = "The game has not started yet."


class AlreadyStarted(HostError):
    message = "The game has already started."


class UnknownGame(HostError):
    message = "There is no such game."


class TooFast(HostError):
    message = "Not so fast: give the others a moment to react, then try again."


class SeatAway(HostError):
    message = (
        "A bot plays your seat since you left (or your clock ran out too often): "
        "`/bugs join` in this channel takes it back."
    )


class NotAway(HostError):
    message = "You are already playing your own seat in this game."


class Restarting(HostError):
    """The bot is stopping (SIGTERM, a deploy): nothing new is begun (what was begun finishes)."""

    message = "I'm restarting: nothing changed. Try again in a moment."


class ChannelNotAllowed(HostError):
    """The server opens games only in some channels (``/bugtable channels``)."""

    def __init__(self, channels: list[int]) -> None:
        where = ", ".join(f"<#{c}>" for c in channels)
        super().__init__(f"Games are played in {where} on this server: open one there.")
        self.channels = channels


class GameDisabled(HostError):
    message = "This server's admins have turned that game off (`/bugtable game`)."


class BotsNotAllowed(HostError):
    message = "This server's admins do not allow bot players."


class NotAnAdmin(HostError):
    message = "Only members with **Manage Server** can see or change bugtable's settings here."


class BadSetting(HostError):
    """A server setting refused at ``/bugtable``; nothing was stored."""


class SpeedNotAllowed(HostError):
    """`/bugs new … speed:` with a preset this server does not allow (P-71)."""

    def __init__(self, speed: str, allowed: list[str]) -> None:
        shown = ", ".join(f"`{s}`" for s in allowed) or "none"
        super().__init__(f"This server does not allow `{speed}` games. Allowed here: {shown}.")


class NotModerator(HostError):
    message = (
        "Only a moderator (Manage Channels, or the server's moderator role) can end a game "
        "or hand a player's seat to a bot."
    )


class NotPlaying(HostError):
    message = "That member has no seat in the game being played here."


class LevelNotOffered(HostError):
    """Add bot at a level this server's admins do not offer (issue #24's ``bot_levels``)."""

    def __init__(self, level: str, offered: tuple[str, ...]) -> None:
        # A lobby that offers none refuses with BotsNotAllowed first.
        words = " and ".join(offered)
        super().__init__(f"This server does not offer {level} bots, only {words} ones.")
