"""Boards: rendering a game's newest committed state, drawing its board messages (and DMs'
specs), syncing the board messages in its channel, and answering a click in place (P-45)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from .. import collector
from ..backoff import one_line
from ..host.table import Table
from ..host.view import TableView
from ..ui.lobby import cancelled_message, lobby_message
from ..ui.marks import lettered_spec
from ..ui.presenter import BOARD_COPY_FOOTER, presenter_for
from ..ui.specs import EmbedSpec, ImageSpec, MessageSpec
from ..ui.speeds import table_clocks
from ..web.links import game_url, with_replay_link
from .attempts import PublisherBase
from .game_messages import (
    QUIET,
    UNKNOWN_MESSAGE,
    BoardsDrawn,
    Drawing,
    Frame,
    GameMessages,
    PictureFollow,
    Round,
    after_answers,
    answered_newer,
    board_landed,
    drawn,
    landed,
    shown_as,
)
from .mentioning import pingable, with_turn_line
from .message_hooks import edit_through_click, message_hook, original_hook
from .render import edit_kwargs, embed_of, file_of, send_kwargs

# Every part logs as the one publisher module did, so log records keep their names.
log = logging.getLogger("bot.discord.publisher")


class Boards(PublisherBase):
    """Draws and syncs the board messages; answers clicks on them (and on DMs) in place."""

    async def _render(self, table: Table) -> Frame:
        """Render the last committed state (the lock guarantees no half-applied action), the
        newest of any process when several share the store (P-36)."""
        if self.refresh is not None and self.store.shared and table.status in ("lobby", "playing"):
            try:
                await self.refresh(table)
            except Exception as exc:  # draw what this process knows; the next change redraws
                log.warning(
                    "game %s: could not check for newer moves (%s)", table.id, one_line(exc)
                )
        async with table.lock:
            presenter = presenter_for(table.slug)
            view = table.view()  # what the presenter reads: this committed state, immutable
            if table.status == "lobby":
                return Frame(
                    [lobby_message(view, table_clocks(self.settings, table))],
                    seq=next(self._seq),
                    version=table.game.version,
                )
            settled = [
                (reply, presenter.answered(view, reply.seat, reply.spec, reply.fate))
                for reply in self.replies.used_up(table)
            ]
            if table.status == "cancelled" or table.engine is None:
                state = self._state(table.id)
                state.pings.clear()
                plan = state.pings.plan(self.clock())
                return Frame(
                    [cancelled_message(view)],
                    settled=settled,
                    ping_plan=plan,
                    seq=next(self._seq),
                    version=table.game.version,
                )
            # Asked before drawing: a board drawn while a cooldown still ran then always has
            # its redraw due, even if the cooldown ends while the board is being drawn.
            refresh_at = None if table.engine.is_over else presenter.refresh_at(view)
            drawing = self._draw(table, view)
            state = self._state(table.id)
            if not drawing.members:  # over, or waiting on nobody a member plays (P-28)
                state.pings.observe((), (), self.clock())
            plan = state.pings.plan(self.clock())
            ping = list(plan.ping)
            return Frame(
                drawing.boards,
                drawing.hands,
                drawing.turn,
                settled,
                ping=tuple(table.user_at(s).user_id for s in ping),
                ping_text=presenter.ping_text(view, ping) if ping else "",
                ping_plan=plan,
                refresh_at=refresh_at,
                seq=drawing.seq,
                version=table.game.version,
            )

    def _draw(
        self,
        table: Table,
        view: TableView,
        *,
        boards: bool = True,
        seats: Iterable[int] | None = None,
    ) -> Drawing:
        """A game in play as it should show now: its boards (the first naming whom the game
        waits on, P-28) and each member's DM. Holding the table's lock; no side effects but
        keeping the boards drawn (P-90), so a click's answer and the pump draw alike. A click's
        answer needs only the message it came from: ``boards=False`` leaves the boards out,
        ``seats`` the DMs of the other seats."""
        presenter = presenter_for(table.slug)
        engine = table.running()
        waiting = frozenset() if engine.is_over else engine.waiting_for()
        members = [s for s in sorted(waiting) if s >= 0 and pingable(table, s)]
        specs = self._boards(table, view, members) if boards else []
        hands: dict[int, MessageSpec] = {}
        for seat in range(engine.players) if seats is None else seats:
            if table.user_at(seat).is_bot:
                continue
            spec = presenter.hand(view, seat)
            if spec is not None:
                hands[seat] = spec
        return Drawing(specs, hands, engine.turn, members, next(self._seq))

    def _boards(self, table: Table, view: TableView, members: list[int]) -> list[MessageSpec]:
        """The game's boards as this state draws them (the first naming whom the game waits
        on, P-28), drawn once per state: a click's answer and the pump's pass after it draw the
        same boards, and the pump then finds the clicked message showing them already. A
        presenter's boards depend on the clock only through ``refresh_at`` (a countdown, a
        cooldown): boards drawn before that time stay right until it, as they would on the
        message (P-90)."""
        state = self._state(table.id)
        lines = self.log.lines(table.id)
        engine = table.running()
        # A finished game's board links to its replay, unless its server keeps replays private
        # (as it did when the game opened, P-67).
        replay = None
        if engine.is_over and table.policy.public_replays:
            replay = game_url(self.settings, table.game.web_token)
        drawn_from = (
            view.moment,  # one per engine position (``Table.view``), compared by identity
            table.game.version,
            table.status,
            view.seats,
            view.timers,
            view.paced_until,
            lines,
            tuple(members),
            replay,
        )
        last = state.boards_drawn
        if (
            last is not None
            and last.drawn_from == drawn_from
            and (last.until is None or datetime.now(UTC) < last.until)
        ):
            return list(last.boards)
        presenter = presenter_for(table.slug)
        # Asked before drawing, as the pump asks: boards drawn while a cooldown still ran are
        # not reused once it has ended, even if it ends while they are being drawn.
        until = None if engine.is_over else presenter.refresh_at(view)
        specs = presenter.public_boards(view, lines)
        if replay is not None and specs:
            specs[0] = with_replay_link(specs[0], replay)
        if members and specs:  # the board says whom the game waits on (P-28)
            specs[0] = with_turn_line(specs[0], [table.user_at(s).user_id for s in members])
        state.boards_drawn = BoardsDrawn(drawn_from, until, tuple(specs))
        return specs

    async def _sync_boards(
        self, table: Table, state: GameMessages, frame: Frame, rounds: Round
    ) -> None:
        boards, turn = frame.boards, frame.turn
        channel = self.client.get_partial_messageable(table.game.channel_id)
        kinds = ["board" if i == 0 else f"board:{i}" for i in range(len(boards))]
        await after_answers(state, [state.board_ids.get(kind) for kind in kinds])
        # A picture being sent through a click lands before this edit, never after it (P-57).
        sending = [f.task for k in kinds if (f := state.pictures.get(k)) and f.sending]
        if sending:
            await asyncio.wait(sending)
        now = time.monotonic()
        changed = [
            (kind, spec)
            for kind, spec in zip(kinds, boards, strict=True)
            if state.shown.get(kind) != (spec, turn) and not answered_newer(state, kind, frame)
        ]
        for kind, _ in changed:
            state.stale_since.setdefault(kind, now)
        # The message that has waited longest goes first: no page starves behind a busier one.
        changed.sort(key=lambda item: state.stale_since[item[0]])
        for kind, spec in changed:
            previous = state.shown.get(kind)
            message_id = state.board_ids.get(kind)
            slot = self._slot(channel.id, "send" if message_id is None else "edit", rounds)
            if slot is None:
                continue
            try:
                # The picture (if any) is rendered off the event loop, and uploaded only when it
                # changed: an unchanged board picture stays on the message as it is. A new one
                # not due yet (P-86) leaves the old one on, beside the new text, until it is.
                shown = previous[0].image if previous is not None else None
                png = None
                sent = spec
                last = state.last_pictures.pop(kind, None)
                if spec.image is not None and (message_id is None or spec.image != shown):
                    if last is not None and last[0] == spec.image:
                        png = last[1]  # the final picture, drawn after the final words
                    elif (
                        message_id is None
                        or shown is None
                        or self.images.cached(spec.image) is not None
                        or (table.status == "playing" and self._picture_wait(state, kind) == 0.0)
                    ):
                        png = await self._picture(state, kind, spec.image)
                    elif table.status != "playing":
                        # The last picture is never held back, nor are the last words held
                        # back for it: they go now, beside the old picture, and the new one
                        # as soon as it is drawn (a busy machine may take seconds to).
                        sent = replace(spec, image=shown)
                        self._wake_when_drawn(table, state, kind, spec.image)
                    else:
                        sent = replace(spec, image=shown)
                        self._wake_for_picture(table, state, kind)
                if message_id is None:
                    message = await channel.send(
                        **send_kwargs(sent, table.id, turn, png), allowed_mentions=QUIET
                    )
                    state.board_ids[kind] = message.id
                    await self.store.set_message(table.id, kind, channel.id, message.id)
                else:
                    kwargs = edit_kwargs(sent, table.id, turn, png, shown=shown)
                    if not await edit_through_click(
                        state.message_hooks, message_id, table.id, **kwargs, allowed_mentions=QUIET
                    ):
                        await channel.get_partial_message(message_id).edit(
                            **kwargs, allowed_mentions=QUIET
                        )
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE or message_id is None:
                    raise
                # Someone deleted the board: post it again, once, with the newest state (the
                # next round; the store then records the new message, P-39).
                log.warning("game %s: its %s message was deleted; posting it again", table.id, kind)
                state.board_ids.pop(kind, None)
                state.shown.pop(kind, None)
                state.dirty = True
                rounds.hold(0.0)
                continue
            finally:
                slot.release()
            if png is not None:
                state.picture_seq[kind] = frame.seq
            if landed(state, kind, frame.seq):
                state.shown[kind] = (sent, turn)
                state.stale_since.pop(kind, None)
                board_landed(state, kind, turn, self.clock())
            rounds.channel_sent()
        for kind in [k for k in state.board_ids if k not in kinds]:
            slot = self._slot(channel.id, "delete", rounds)
            if slot is None:
                continue
            try:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(state.board_ids[kind]).delete()
            finally:
                slot.release()
            state.board_ids.pop(kind)
            state.shown.pop(kind, None)
            state.stale_since.pop(kind, None)
            rounds.channel_sent()

    @contextlib.contextmanager
    def answering(self, game_id: int, message: discord.Message | None) -> Iterator[None]:
        """While a click on ``message`` is being decided and answered, the pump's edit of that
        message waits: the click's own answer (``answer_click``) may show the same state, and
        the pump then has nothing to send. A click answered otherwise (refused, a private
        reply) lets the edit go as soon as it is done."""
        if message is None:
            yield
            return
        state = self._state(game_id)
        state.answering[message.id] = state.answering.get(message.id, 0) + 1
        try:
            yield
        finally:
            left = state.answering.pop(message.id) - 1
            if left:
                state.answering[message.id] = left
            state.answered.set()

    async def answer_click(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Answer a click that changed the game by updating the message it came from (the
        board, or the clicker's own DM) in the click's response (``UPDATE_MESSAGE``): the
        clicker and everyone else see the new state at once, and it costs none of the bot's
        global request budget. The pump then has nothing left to edit there (P-45).

        False when the click came from another message, or its message shows the same thing
        as before: the caller acknowledges the click itself."""
        message = interaction.message
        if message is None:
            return False
        state = self._state(table.id)
        async with table.lock:
            key = self._clicked(table, state, message.id, interaction.user.id)
            if key is None:
                return False
            drawing = self._answer_drawing(table, key)
            version = table.game.version
            spec = drawn(drawing, key)
            if spec is None:
                return False
            turn = drawing.turn
            board = not key.startswith("dm:")
            if board:
                previous = state.shown.get(key)
                if previous == (spec, turn):
                    return False
                state.shown[key] = (spec, turn)  # claimed: the pump does not send it too
            else:
                seat = int(key[3:])
                previous_hand = state.hands_shown.get(seat)
                if previous_hand == shown_as(spec, turn):
                    return False
                state.hands_shown[seat] = shown_as(spec, turn)
        shown_image = previous[0].image if board and previous is not None else None
        follows: ImageSpec | None = None
        try:
            png = None
            answer = spec
            if spec.image is not None and spec.image != shown_image:
                png = self.images.cached(spec.image)
                if png is None:
                    # Answered now with the picture the board carries (none yet, on the board
                    # a lobby became); the new one follows through this interaction once
                    # drawn (P-57).
                    follows, answer = spec.image, replace(spec, image=shown_image)
            kwargs = edit_kwargs(answer, table.id, turn, png, shown=shown_image)
            if interaction.response.is_done():  # deferred by the ack guard: edit through it
                await interaction.edit_original_response(**kwargs, allowed_mentions=QUIET)
            else:
                await interaction.response.edit_message(**kwargs, allowed_mentions=QUIET)
        except Exception as exc:
            # Unanswered (too late, or Discord failed): the pump edits the message instead.
            log.warning(
                "game %s: could not answer a click on its %s (%s)", table.id, key, one_line(exc)
            )
            if board:
                state.shown.pop(key, None)
            else:
                state.hands_shown.pop(int(key[3:]), None)
            self.mark_dirty(table)
            return interaction.response.is_done()
        if board:
            if png is not None:
                state.picture_seq[key] = drawing.seq
            if landed(state, key, drawing.seq):
                state.stale_since.pop(key, None)
                board_landed(state, key, turn, self.clock())
        else:
            landed(state, key, drawing.seq)
        if follows is not None:
            self._follow_with_picture(table, state, key, interaction, follows, drawing.seq)
        if state.dirty or await self.overtaken(table, version):
            self.mark_dirty(table)
        return True

    def board_embed(self, table: Table) -> EmbedSpec | None:
        """The main board's embed as the committed state draws it (holding the table's lock):
        the copy a settled panel shows beneath (P-85)."""
        spec = drawn(self._answer_drawing(table, "board"), "board")
        if spec is None or spec.embed is None:
            return None
        return replace(spec.embed, footer=BOARD_COPY_FOOTER)

    def on_screen(self, game_id: int, turn: int) -> float | None:
        """Seconds the game's board has shown ``turn`` (0.0 while it shows an earlier one), or
        None if this process does not know what it shows (P-84: the host's strikes ask)."""
        state = self._games.get(game_id)
        if state is None or state.turn_shown is None:
            return None
        shown, since = state.turn_shown
        if shown != turn:
            return 0.0 if shown < turn else None
        return max(0.0, (self.clock() - since).total_seconds())

    async def overtaken(self, table: Table, version: int) -> bool:
        """Whether another process sharing the store committed to the game after ``version``,
        the state a message just landed with. Its own edit may then have landed before this
        one, which showed older news: the caller draws the game again, so every message ends
        at the newest state whichever process's request Discord took last (P-36). One read,
        after the request, on a shared store only."""
        if not self.store.shared:
            return False
        try:
            current = await self.store.game_state(table.id)
        except Exception as exc:  # the next change draws again
            log.warning("game %s: could not check for newer moves (%s)", table.id, one_line(exc))
            return False
        return current is not None and current.version > version

    def _follow_with_picture(
        self,
        table: Table,
        state: GameMessages,
        key: str,
        interaction: discord.Interaction[Any],
        image: ImageSpec,
        seq: int,
    ) -> None:
        """Put ``image`` on the board ``key`` a click was answered on without it: drawn off the
        event loop, then sent through the click's own interaction (no global request). Drawn
        when the board's next picture is due (P-86); a newer picture replaces this one while
        it waits, and it is never drawn. Once it is being drawn it is put on all the same, if
        the board carries none newer by then: under a stream of moves every picture drawn
        lands, and a busy board gets one picture per interval, of the newest state then."""

        def wanted() -> bool:
            shown = state.shown.get(key)
            return shown is not None and shown[0].image == image

        earlier = state.pictures.get(key)

        async def follow() -> None:
            try:
                while table.status == "playing" and not self._picture_free(state, key, image):
                    await self.sleep(self._picture_wait(state, key))
                follow_up.drawing = True
                png = await self._picture(state, key, image)
                if earlier is not None:  # pictures of one board are sent in order
                    await asyncio.wait({earlier.task})
                follow_up.sending = True
                shown = state.shown.get(key)
                if shown is not None and seq > state.picture_seq.get(key, -1):
                    # With the board's newest text, whose embed now shows the picture.
                    embed = lettered_spec(shown[0]).embed  # as render.py sends it (P-53)
                    files = [file_of(image, png)]
                    if embed is None:
                        await interaction.edit_original_response(attachments=files)
                    else:
                        await interaction.edit_original_response(
                            attachments=files, embed=embed_of(embed, image)
                        )
                    state.picture_seq[key] = max(seq, state.picture_seq.get(key, -1))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the pump puts the picture on instead
                log.warning(
                    "game %s: could not add the picture to its %s (%s)",
                    table.id,
                    key,
                    one_line(exc),
                )
                if wanted():
                    state.shown.pop(key, None)
                    self.mark_dirty(table)

        if earlier is not None and not (earlier.drawing or earlier.sending):
            earlier.task.cancel()  # still waiting its turn: the newer picture goes instead
        follow_up = PictureFollow(asyncio.create_task(follow(), name=f"picture:{table.id}:{key}"))
        state.pictures[key] = follow_up
        follow_up.task.add_done_callback(
            lambda _: state.pictures.pop(key) if state.pictures.get(key) is follow_up else None
        )
        follow_up.task.add_done_callback(collector.forget_cancellation)

    # -- pictures at most every PICTURE_INTERVAL (P-86) -----------------------------------
    def _picture_wait(self, state: GameMessages, key: str) -> float:
        """Seconds until board ``key`` may have its next picture drawn."""
        due = state.picture_due.get(key)
        return 0.0 if due is None else max(0.0, (due - self.clock()).total_seconds())

    def _picture_free(self, state: GameMessages, key: str, image: ImageSpec) -> bool:
        """Whether ``image`` may go on board ``key`` now: drawn already (the same state drawn
        before costs nothing), or the board's next picture is due."""
        return self.images.cached(image) is not None or self._picture_wait(state, key) == 0.0

    async def _picture(self, state: GameMessages, key: str, image: ImageSpec) -> bytes:
        """``image`` drawn (or taken from the cache); a drawing starts the board's interval."""
        if self.images.cached(image) is None:
            interval = timedelta(seconds=self._picture_interval())
            state.picture_due[key] = self.clock() + interval
        return await self.images.png(image)

    def _picture_interval(self) -> float:
        """Seconds until a board that just had its picture drawn may have the next one:
        ``PICTURE_INTERVAL``, or longer, so that the boards with pictures share
        ``PICTURE_RATE`` pictures a second between them (P-93). Every picture is drawn in the
        picture process and uploaded by the event loop, whichever token carries it."""
        interval, rate = self.settings.picture_interval, self.settings.picture_rate
        if interval <= 0 or rate <= 0:  # every change has its picture, as asked
            return interval
        boards = sum(len(state.picture_due) for state in self._games.values())
        return max(interval, boards / rate)

    def _wake_for_picture(self, table: Table, state: GameMessages, key: str) -> None:
        """Draw the board again when its picture falls due: its text went out with the old
        picture, and nothing else may happen in the game until then."""
        if state.picture_wake is not None:
            state.picture_wake.cancel()
        state.picture_wake = asyncio.create_task(
            self._wake_for(table, self._picture_wait(state, key)), name=f"picture:{table.id}"
        )

    async def _wake_for(self, table: Table, delay: float) -> None:
        await self.sleep(delay)
        self.mark_dirty(table)

    def _wake_when_drawn(
        self, table: Table, state: GameMessages, key: str, image: ImageSpec
    ) -> None:
        """Draw ``image`` now, then the board again, which puts it on (``last_pictures``). The
        game's pump waits for it before it lets the game go (``Publisher._pump``)."""
        if state.picture_wake is not None:
            state.picture_wake.cancel()

        async def drawn() -> None:
            state.last_pictures[key] = (image, await self._picture(state, key, image))
            self.mark_dirty(table)

        state.picture_wake = asyncio.create_task(drawn(), name=f"picture:{table.id}")

    def _answer_drawing(self, table: Table, key: str) -> Drawing:
        """What the clicked message ``key`` should show now, and nothing else."""
        view = table.view()
        if table.status == "lobby":
            return Drawing(
                [lobby_message(view, table_clocks(self.settings, table))],
                {},
                0,
                [],
                next(self._seq),
            )
        if table.status == "cancelled" or table.engine is None:
            return Drawing([cancelled_message(view)], {}, 0, [], next(self._seq))
        if key.startswith("dm:"):
            return self._draw(table, view, boards=False, seats=[int(key[3:])])
        return self._draw(table, view, seats=())

    @staticmethod
    def _clicked(table: Table, state: GameMessages, message_id: int, user_id: int) -> str | None:
        """Which of the game's messages was clicked: ``board``, ``board:1``, or ``dm:<seat>``
        of the clicker only."""
        for kind, board_id in state.board_ids.items():
            if board_id == message_id:
                return kind
        seat = table.seat_of(user_id)
        if seat is not None and state.hand_ids.get(seat) == message_id:
            return f"dm:{seat}"
        return None

    def clicked_on(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        """A click on one of the game's boards or on its member's own DM was answered: if by
        updating that message, its token edits the message's next changes (P-92)."""
        state = self._games.get(table.id)
        message = interaction.message
        if state is None or message is None:
            return
        seat = table.seat_of(interaction.user.id)
        if message.id not in state.board_ids.values() and (
            seat is None or state.hand_ids.get(seat) != message.id
        ):
            return
        kept = state.message_hooks.get(message.id)
        if kept is not None and kept.fresh():
            return  # a click under a minute older will do: no webhook built for this one
        hook = message_hook(interaction)
        if hook is not None:
            state.message_hooks[message.id] = hook

    def board_message_id(self, game_id: int) -> int | None:
        return self._state(game_id).board_ids.get("board")

    def remember_board(
        self,
        game_id: int,
        message_id: int,
        spec: MessageSpec | None = None,
        *,
        posted_by: discord.Interaction[Any] | None = None,
    ) -> None:
        """The game's board is message ``message_id``; ``posted_by``: the interaction whose
        original response it is (a lobby opened by a command or Rematch), whose token edits it
        until a click on it is kept (P-92)."""
        state = self._state(game_id)
        state.known = True
        state.board_ids["board"] = message_id
        if spec is not None:
            state.shown["board"] = (spec, 0)
        hook = None if posted_by is None else original_hook(posted_by)
        if hook is not None:
            state.message_hooks[message_id] = hook
