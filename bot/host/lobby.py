"""The lobby: opening a game (or a rematch), joining, leaving, seating bots, starting and
cancelling."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from rules.core import GAMES

from ..store.records import LobbySeat
from .core import through_gate
from .errors import (
    AlreadyStarted,
    GameGone,
    HostError,
    LevelNotOffered,
    NotAllowed,
    NotAPlayer,
    UnknownGame,
)
from .play import Play
from .policy import BotLevel
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
    ) -> Table:
        if slug not in GAMES:
            raise UnknownGame()  # not echoed: it came from the client, and may be anything
        cls = GAMES[slug]
        resolved = cls.resolve_options(options)
        record = await self.store.create_lobby(
            slug=slug,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            options=resolved,
            seed=secrets.randbits(62),
            seats=seats,
        )
        table = Table(record, cls, await self.store.seats(record.id))
        table.bot_levels = await self.offered_levels(table)
        self.tables[record.id] = table
        return table

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
        return await self._open(
            record.slug,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            user_id=user_id,
            name=name,
            options=record.options,
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
        offered = await self.offered_levels(table)
        redraw = offered != table.bot_levels
        try:
            async with self._guarded(table):
                self._check_privileged(table, user_id, privileged)
                if table.status != "lobby":
                    raise AlreadyStarted()
                table.bot_levels = offered  # the lobby, redrawn, offers what the server does
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
                redraw = True
        finally:
            if redraw:  # a bot seated, or the server's offer changed since the lobby was drawn
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
        timers = self._timer_specs(engine, {}, self.clock())
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
