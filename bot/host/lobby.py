"""The lobby: opening a game (or a rematch), joining, leaving, seating bots, starting and
cancelling."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from rules.core import GAMES

from ..host.policy import ServerPolicy, Speed
from ..speeds import allowed, control_of, speed_of
from ..store.records import LobbySeat
from .core import through_gate
from .errors import (
    AlreadyStarted,
    BotsNotAllowed,
    ChannelNotAllowed,
    GameDisabled,
    GameGone,
    HostError,
    LevelNotOffered,
    NotAllowed,
    NotAPlayer,
    NotModerator,
    NotPlaying,
    NotStarted,
    SeatAway,
    SpeedNotAllowed,
    UnknownGame,
)
from .play import Play
from .policy import BotLevel
from .policy_values import policy_values
from .seating import bot_name
from .table import Table


class Lobby(Play):
    """Lobby operations, each committed before it returns (and the listeners told)."""

    async def _open(
        self,
        slug: str,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: Mapping[str, str] | None = None,
        seats: Sequence[LobbySeat] = (),
        speed: str | None = None,
    ) -> Table:
        if slug not in GAMES:
            raise UnknownGame()  # not echoed: it came from the client, and may be anything
        policy = await self.policies.for_guild(guild_id)
        if not policy.allows_channel(channel_id):
            raise ChannelNotAllowed(sorted(policy.channels))
        if not policy.game(slug).enabled:
            raise GameDisabled()
        cls = GAMES[slug]
        resolved = cls.resolve_options(options)
        control = self._time_control(slug, policy, speed)
        record = await self.store.create_lobby(
            slug=slug,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            options=resolved,
            seed=secrets.randbits(62),
            seats=seats,
            policy=policy_values(policy),  # the game keeps it as it opens (P-64)
            time_control=control,
        )
        table = Table(record, cls, await self.store.seats(record.id))
        self.tables[record.id] = table
        return table

    @staticmethod
    def _time_control(slug: str, policy: ServerPolicy, speed: str | None) -> Speed:
        """The control a new game gets (P-71): the opener's pick if the server allows it, else
        the server's default for the game (always allowed: an admin chose it)."""
        default = policy.game(slug).speed
        if speed is None or speed == default:
            return default
        picked = speed_of(speed)
        allowed_here = allowed(policy.speeds | {default})
        if picked is None or picked not in allowed_here:
            raise SpeedNotAllowed(speed if picked is not None else "that", list(allowed_here))
        return picked

    open = through_gate(_open)
    """A new lobby (``_open`` within a change already begun, as a rematch)."""

    @through_gate
    async def rematch(self, game_id: int, user_id: int, name: str) -> Table:
        """A new lobby in a finished game's channel: same game, options and seat order.

        The member who asked opens it and sits in, bots sit in again, and every other player's
        seat is held until they press Join (docs/rulings.md P-12). A channel that already has a
        game refuses it (ChannelBusy).
        """
        record = await self._record(game_id)
        if record.status != "finished":
            raise GameGone("Only a finished game can be played again.")
        seats = await self.store.seats(game_id)
        if not any(s.user_id == user_id and not s.is_bot for s in seats):
            raise NotAPlayer()
        policy = await self.policies.for_guild(record.guild_id)
        speed = control_of(record.time_control).speed
        return await self._open(
            record.slug,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            user_id=user_id,
            name=name,
            options=record.options,
            # The same control, unless the server no longer allows it (then its default).
            speed=speed if speed in policy.speeds else None,
            seats=[
                LobbySeat(
                    s.user_id,
                    name if s.user_id == user_id else s.name,
                    is_bot=s.is_bot,
                    confirmed=s.is_bot or s.user_id == user_id,
                    bot_level=s.bot_level if s.is_bot else "easy",
                )
                for s in seats
            ],
        )

    @through_gate
    async def join(self, game_id: int, user_id: int, name: str, *, is_bot: bool = False) -> Table:
        """Take a lobby seat; during play, take back one's own seat from its bot (P-30)."""
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status == "playing" and table.seat_of(user_id) is not None:
                await self._set_away_locked(table, user_id, away=False, why="back")
            elif table.status != "lobby":
                raise AlreadyStarted("The game has already started; wait for the next one.")
            else:
                table.seats = await self.store.join(
                    game_id,
                    user_id=user_id,
                    name=name,
                    max_players=table.engine_cls.max_players,
                    is_bot=is_bot,
                )
                table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

    @through_gate
    async def add_bot(
        self,
        game_id: int,
        user_id: int,
        level: BotLevel = "easy",
        *,
        privileged: bool = False,
    ) -> Table:
        """Seat a bot player of ``level``, if the server's policy offers it (P-77). Bots take
        negative user ids: -1, -2, ..."""
        table = await self.table(game_id)
        async with self._guarded(table):
            self._check_privileged(table, user_id, privileged)
            if table.status != "lobby":
                raise AlreadyStarted()
            offered = table.bot_levels  # as the server allowed when the game opened (P-64)
            if not offered:
                raise BotsNotAllowed()
            if level not in offered:
                raise LevelNotOffered(level, offered)
            taken = {s.user_id for s in table.seats}
            number = next(n for n in range(1, 100) if -n not in taken)
            table.seats = await self.store.join(
                game_id,
                user_id=-number,
                name=bot_name(level, [s.name for s in table.seats]),
                max_players=table.engine_cls.max_players,
                is_bot=True,
                bot_level=level,
            )
            table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

    @through_gate
    async def leave(self, game_id: int, user_id: int) -> Table:
        """Give up a lobby seat; during play, hand one's seat to a bot until `/bugs join`
        (P-30)."""
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status == "playing":
                await self._set_away_locked(table, user_id, away=True, why="left")
            elif table.status != "lobby":
                raise GameGone()
            else:
                table.seats = await self.store.leave(game_id, user_id)
                table.game = await self._record(game_id)
        await self._notify(table, None)
        return table

    def _check_privileged(self, table: Table, user_id: int, privileged: bool) -> None:
        if not privileged and user_id != table.game.creator_id:
            raise NotAllowed()

    @through_gate
    async def start(self, game_id: int, user_id: int, *, privileged: bool = False) -> Table:
        table = await self.table(game_id)
        await self._locked(table, lambda: self._start_locked(table, user_id, privileged))
        self.scheduler.set_game(game_id, table.timers.items())
        await self._notify(table, None)
        return table

    async def _start_locked(self, table: Table, user_id: int, privileged: bool) -> None:
        game_id = table.id
        self._check_privileged(table, user_id, privileged)
        if table.status != "lobby":
            raise AlreadyStarted()
        cls = table.engine_cls
        seated = table.confirmed()  # held rematch seats nobody confirmed are given up
        count = len(seated)
        if not cls.min_players <= count <= cls.max_players:
            raise HostError(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players; "
                f"{count} {'has' if count == 1 else 'have'} joined."
            )
        engine = cls.new(count, table.game.seed, table.game.options)
        snapshot = engine.to_dict()
        timers = self._timer_specs(table, engine, {}, self.clock())
        record = await self.store.start(
            game_id,
            expected_version=table.game.version,
            seat_order=[s.user_id for s in seated],
            snapshot=snapshot,
            timers=timers,
        )
        table.game = record
        table.seats = await self.store.seats(game_id)
        table.engine, table.committed, table.tail = engine, snapshot, []
        table.timers = {t.key: t.due_at for t in timers}

    @through_gate
    async def end(
        self, game_id: int, user_id: int, name: str, reason: str, *, moderator: bool
    ) -> Table:
        """A moderator ends the game at once (P-72): cancelled with who and why, no winner,
        no results, no rating; the board and the history say who ended it."""
        if not moderator:
            raise NotModerator()
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status not in ("lobby", "playing"):
                raise GameGone()
            table.game = await self.store.cancel(
                game_id, ended_by=user_id, name=name, reason=reason.strip()
            )
        self.scheduler.drop_game(game_id)
        self.tables.pop(game_id, None)
        await self._notify(table, None)
        return table

    @through_gate
    async def kick(self, game_id: int, member_id: int, *, moderator: bool) -> Table:
        """A moderator hands a member's seat to a stand-in, as if they had left (P-73); the
        member may take it back with `/bugs join`, as after leaving (P-30)."""
        if not moderator:
            raise NotModerator()
        table = await self.table(game_id)
        async with self._guarded(table):
            if table.status != "playing":
                raise NotStarted() if table.status == "lobby" else GameGone()
            held = table.seat_of(member_id)
            if held is None or table.user_at(held).is_bot:
                raise NotPlaying()
            if table.user_at(held).away:
                raise SeatAway("A bot already plays that member's seat.")
            await self._set_away_locked(table, member_id, away=True, why="kicked")
        await self._notify(table, None)
        return table

    @through_gate
    async def cancel(self, game_id: int, user_id: int, *, privileged: bool = False) -> Table:
        table = await self.table(game_id)
        async with self._guarded(table):
            self._check_privileged(table, user_id, privileged)
            if table.status not in ("lobby", "playing"):
                raise GameGone()
            table.game = await self.store.cancel(game_id)
        self.scheduler.drop_game(game_id)
        self.tables.pop(game_id, None)
        await self._notify(table, None)
        return table
