"""The edge: every interaction is acknowledged here and every refusal becomes an ephemeral reply.

Domain errors (RuleError from engines, HostError from the host, StoreError from the store)
carry messages written for players; this is the one place they are turned into replies.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord

from rules.core import GAMES, RuleError

from ..host.errors import HostError, NotAnAdmin, NotInGuild, SeatAway, StaleButton
from ..host.host import Host
from ..host.policy import DEFAULT_POLICY, ServerPolicy
from ..host.table import Table
from ..store import Store
from ..store.errors import NotSeated, StoreError
from ..ui.lobby import bot_level_of, leave_answer, leave_question, lobby_message
from ..ui.presenter import presenter_for
from ..ui.specs import MessageSpec
from ..ui.speeds import speeds_words, table_clocks
from .declared import UndeclaredInput
from .howto import answer_rules_page
from .lateness import EXPIRED, Lateness
from .more import show_more
from .panels import Panel, PanelGone
from .publisher import Publisher
from .render import edit_kwargs, send_kwargs
from .replies import PrivateReply
from .written import sending

log = logging.getLogger(__name__)
NO_HAND = "This game has no hidden hand: everything you may know is on the board."
ACK_GUARD_SECONDS = 2.0
OOPS = "Something went wrong on my side; nothing changed. Please try again."
INVALID = "That button is not valid."
INVALID_COMMAND = "That command is not valid."
UNKNOWN_INTERACTION = 10062
"""Discord's code for an interaction that can no longer be answered (its 3 s are over)."""
#: What the command tree raises for a command, option or value bugtable did not declare.
INVALID_COMMANDS = (
    discord.app_commands.CommandNotFound,
    discord.app_commands.CommandSignatureMismatch,
    discord.app_commands.TransformerError,
    UndeclaredInput,
)


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def is_privileged(
    interaction: discord.Interaction[Any], policy: ServerPolicy = DEFAULT_POLICY
) -> bool:
    """Members with Manage Channels, or with the server's moderator role (``/bugtable``), may
    start, cancel and moderate any game in the channel (P-65)."""
    perms = interaction.permissions
    if perms and perms.manage_channels:
        return True
    role = policy.moderator_role
    return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", ()))


async def answer(interaction: discord.Interaction[Any], text: str) -> None:
    """Reply ephemerally, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class AckGuard:
    """Discord drops an interaction not acknowledged within 3 s. If the game is slow to answer
    (a long queue for its lock, a slow disk), acknowledge first; the answer then goes as a
    followup. ``settle()`` stops the guard, or waits for a deferral already on its way, so the
    interaction is never acknowledged twice.

    The 3 s run from when Discord made the interaction (its id's time), not from when this
    process got round to it: a bot whose event loop lags under load defers that much sooner
    (at once, if it is 2 s late already)."""

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        after: float | None = None,
        *,
        now: datetime | None = None,
        late: float | None = None,
    ) -> None:
        self.interaction = interaction
        wait = ACK_GUARD_SECONDS if after is None else after
        if late is None:  # by this machine's clock (``Lateness`` corrects for its offset)
            made = discord.utils.snowflake_time(interaction.id)
            late = ((now or discord.utils.utcnow()) - made).total_seconds()
        self.after = max(0.0, wait - min(max(late, 0.0), wait))
        self.deferring = False
        self.deferral: asyncio.Task[Any] | None = None
        # A timer, not a task: nearly every click is answered in time, and a timer handle
        # costs a fraction of a task made and cancelled on every click (issue #21).
        self.timer = asyncio.get_running_loop().call_later(self.after, self._fire)

    def _fire(self) -> None:
        if not self.interaction.response.is_done():
            self.deferring = True
            self.deferral = asyncio.create_task(self.interaction.response.defer())

    async def settle(self) -> None:
        self.timer.cancel()
        if self.deferral is not None:
            try:
                await self.deferral
            except discord.HTTPException:
                log.warning("could not defer interaction %s", self.interaction.id)


class Edge:
    """Runs what a click asks of the host and answers it; refuses with the error's own words."""

    def __init__(self, host: Host, publisher: Publisher, store: Store) -> None:
        self.host, self.publisher, self.store = host, publisher, store
        self.lateness = Lateness()

    async def privileged(self, interaction: discord.Interaction[Any]) -> bool:
        """``is_privileged`` under the server's policy as it is now: who moderates is the
        server's to change at once, as Discord's own permissions are (P-65)."""
        return is_privileged(interaction, await self.host.policies.for_guild(interaction.guild_id))

    def _shed(self, interaction: discord.Interaction[Any]) -> float | None:
        """How late a click reached the bot; ``None`` when it is too late to be answered at
        all: it is then not acted on, since its player is told it failed (P-58)."""
        late = self.lateness.of(interaction.id)
        if late <= EXPIRED:
            return late
        log.warning(
            "interaction %s reached the bot %.1f s late: not acted on (Discord takes no "
            "answer after 3 s)",
            interaction.id,
            late,
        )
        return None

    async def command_error(
        self, interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
    ) -> None:
        """The command tree's error handler: every slash command's refusal is answered here."""
        if isinstance(error, INVALID_COMMANDS):  # not a command bugtable declared
            await self.invalid(interaction, INVALID_COMMAND)
        elif isinstance(error, discord.app_commands.NoPrivateMessage):
            await self.refuse(interaction, NotInGuild())
        elif isinstance(error, discord.app_commands.MissingPermissions):  # only `/bugtable`
            await self.refuse(interaction, NotAnAdmin())
        else:
            await self.refuse(interaction, getattr(error, "original", error))

    async def refuse(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        if isinstance(error, RuleError | HostError | StoreError):
            text = str(error)
        elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
            # Too late to answer (the bot got it after Discord's 3 s, a lagging or resuming
            # gateway): nothing to tell, and no error of the bot's.
            log.warning("interaction %s expired before it was answered", interaction.id)
            return
        else:
            log.error("unexpected error", exc_info=error)
            text = OOPS
        try:
            await answer(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    async def invalid(self, interaction: discord.Interaction[Any], text: str = INVALID) -> None:
        """An interaction bugtable did not make (a garbled or forged component id or value, an
        unknown command): answered, and logged in one line without the payload, which may be
        anything (P-24)."""
        log.warning(
            "refused an invalid %s from user %s in channel %s",
            "command" if text == INVALID_COMMAND else "component",
            interaction.user.id,
            interaction.channel_id,
        )
        try:
            await answer(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    async def stale(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, action: dict[str, Any]
    ) -> None:
        """A game button not on the message it came from: one of an earlier turn of a game in
        memory (a double click after the first one's answer updated the message) is "from an
        earlier turn"; anything else is "not valid" (P-24, P-45)."""
        table = self.host.tables.get(game_id)
        if table is None or table.engine is None or turn >= table.engine.turn:
            await self.invalid(interaction)
            return
        try:
            await answer(interaction, presenter_for(table.slug if table else "").stale_text(action))
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    async def game_action(
        self, interaction: discord.Interaction[Any], game_id: int, turn: int, action: dict[str, Any]
    ) -> None:
        late = self._shed(interaction)
        if late is None:
            return
        with (
            self.publisher.answering(game_id, interaction.message),
            self.publisher.panels.answering(game_id, interaction.user.id),
        ):
            await self._game_action(interaction, game_id, turn, action, late)
        self._note_click(game_id, interaction)

    async def _game_action(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        turn: int,
        action: dict[str, Any],
        late: float,
    ) -> None:
        host = self.host
        guard = AckGuard(interaction, late=late)
        try:
            table = await host.table(game_id)  # the live table: its messages are answered below
            outcome = await host.act(game_id, interaction.user.id, action, turn=turn)
        except StaleButton:
            await guard.settle()
            known = host.tables.get(game_id)
            slug = known.slug if known else ""
            await answer(interaction, presenter_for(slug).stale_text(action))
            return
        except Exception as exc:
            await guard.settle()
            await self.refuse(interaction, exc)
            return
        await guard.settle()
        in_dm = self.publisher.dm_shows_hand(table.id, outcome.seat)
        async with table.lock:  # the newest committed state: a presenter sees what came since
            view = table.view()
        reply = presenter_for(table.slug).private_reply(view, outcome, in_dm=in_dm)
        if reply is None:
            if await self._settle_clicked_panel(interaction, table, outcome.seat):
                return
            await self.acknowledge(interaction, table)
            # A click on the member's panel with no private answer: its fresh token settles
            # the panel when its buttons are used up (P-27, P-48).
            panel = self.publisher.panels.clicked(table.id, outcome.seat, interaction)
            if panel is not None and interaction.response.is_done():
                panel.adopt_click(interaction)
            return
        await self.reply_privately(interaction, table, outcome.seat, reply, outcome.turn_after)

    async def _settle_clicked_panel(
        self, interaction: discord.Interaction[Any], table: Table, seat: int
    ) -> bool:
        """A move made on the member's panel that has no private answer (P-85): the panel is
        settled in the click's own response (its buttons gone, P-27), with the board as the
        move left it beneath. The clicker sees the board change at once, while the board's own
        edit waits its turn under the channel's pacing. False if the click was elsewhere, or
        the panel's buttons may still act."""
        panel = self.publisher.panels.clicked(table.id, seat, interaction)
        if panel is None or panel.reply is None or interaction.response.is_done():
            return False
        reply = panel.reply
        async with table.lock:
            if reply.usable(table) or table.engine is None:
                return False
            settled = presenter_for(table.slug).answered(
                table.view(), reply.seat, reply.spec, reply.fate
            )
            board = self.publisher.board_embed(table)
            turn = table.engine.turn
        kwargs = edit_kwargs(replace(settled, board=board), table.id, turn)
        async with panel.lock:
            if panel.reply is not reply:
                return False
            try:
                await interaction.response.edit_message(**kwargs)
            except discord.HTTPException as exc:  # acknowledged below; the pump settles it
                log.info("game %s: could not settle a clicked panel (%s)", table.id, exc)
                return False
            panel.reply = None
            panel.adopt_click(interaction)
        return True

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click that changed the game and has no private answer: the message it came from
        shows the change in the click's own response where it can (P-45), else the click is
        acknowledged without a word and the publisher edits the messages."""
        if await self.publisher.answer_click(interaction, table):
            return
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def reply_privately(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        spec: MessageSpec,
        turn: int,
    ) -> None:
        """A private answer goes to the member's panel for this game (P-48): a click on the
        panel updates it in its own response; a click elsewhere edits it through its stored
        token and is answered without a new message; with no panel that can still be edited,
        a new ephemeral reply becomes the panel. One with game buttons is remembered until
        they are used up, then edited without them (P-27)."""
        panels = self.publisher.panels
        panel = panels.clicked(table.id, seat, interaction)
        if panel is not None and await self._update_clicked_panel(interaction, panel, spec, turn):
            self._track(table, panel, spec, turn)
            return
        panel = panels.live(table.id, seat)
        if panel is not None and interaction.type is discord.InteractionType.component:
            # Timed from the click's lateness, as every guard is (P-58), not from this
            # machine's clock.
            guard = AckGuard(interaction, late=self.lateness.of(interaction.id))
            editing, written = sending(self._edit_panel(table, panel, spec, turn))
            if table.id in panels.trusted:
                # The edit goes first and the click's answer right behind it, without waiting
                # for the edit's reply: one round trip to Discord less before the click is
                # answered. An edit that then fails becomes a new panel through the click's
                # own token (a followup).
                await written
                if not editing.done():
                    await guard.settle()
                    await self.acknowledge(interaction, table)
            if await editing:
                await guard.settle()
                if not interaction.response.is_done():
                    await self.acknowledge(interaction, table)
                return
            await guard.settle()
        await self._new_panel(interaction, table, seat, spec, turn)

    async def _edit_panel(self, table: Table, panel: Panel, spec: MessageSpec, turn: int) -> bool:
        """Show ``spec`` in the member's panel through its stored token; False (the panel
        forgotten) if it can no longer be edited: dismissed, expired, refused."""
        try:
            async with panel.lock:
                await panel.edit(spec, turn)
                self._track(table, panel, spec, turn)
        except PanelGone as exc:
            log.info("game %s: a new panel for seat %s (%s)", table.id, panel.seat, exc)
            self.publisher.panels.drop(panel)
            return False
        return True

    async def _update_clicked_panel(
        self, interaction: discord.Interaction[Any], panel: Panel, spec: MessageSpec, turn: int
    ) -> bool:
        """Answer a click on the panel by updating it in the click's response (type 7)."""
        kwargs = edit_kwargs(spec, panel.game_id, turn)
        kwargs.pop("attachments", None)
        async with panel.lock:
            try:
                if interaction.response.is_done():  # deferred by the ack guard
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.response.edit_message(**kwargs)
            except discord.HTTPException as exc:
                log.info("game %s: could not update a clicked panel (%s)", panel.game_id, exc)
                self.publisher.panels.drop(panel)
                return False
            panel.adopt_click(interaction)
            return True

    async def _new_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        spec: MessageSpec,
        turn: int,
    ) -> None:
        kwargs = send_kwargs(spec, table.id, turn)
        followup_id: int | None = None
        if interaction.response.is_done():
            try:
                sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            except discord.HTTPException as exc:
                # Discord refused even this click's fresh token: nothing more can show it
                # privately now; **My hand** answers with it (P-95). Until a panel edit goes
                # through again, this game's answers wait for their panel's edit.
                self.publisher.panels.trusted.discard(table.id)
                log.warning(
                    "game %s: could not answer seat %s privately (%s %s)",
                    table.id,
                    seat,
                    exc.status,
                    exc.code,
                )
                return
            message_id = followup_id = sent.id
        else:
            response = await interaction.response.send_message(ephemeral=True, **kwargs)
            message_id = response.message_id or (await interaction.original_response()).id
        panel = Panel(table.id, seat, interaction.user.id, message_id, interaction, followup_id)
        self.publisher.panels.put(panel)
        self._track(table, panel, spec, turn)

    def _track(self, table: Table, panel: Panel, spec: MessageSpec, turn: int) -> None:
        """The panel now shows ``spec``: settled once its buttons are used up (P-27)."""
        reply = PrivateReply(
            panel.interaction, panel.followup_id, panel.seat, spec, turn, panel=panel
        )
        panel.reply = reply
        self.publisher.track_reply(table, reply)

    async def ask_to_leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """`/bugs leave` during play (P-73): say what happens to the seat and ask, privately,
        with a button that alone acts; nothing changes until it is pressed."""
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.user_at(seat).is_bot:
            raise NotSeated(table.id, interaction.user.id, playing=True)
        if table.user_at(seat).away:
            raise SeatAway("A bot already plays your seat: `/bugs join` here takes it back.")
        await interaction.response.send_message(
            ephemeral=True, **send_kwargs(leave_question(table.title), table.id, 0)
        )

    async def _answer_leave(
        self, interaction: discord.Interaction[Any], game_id: int, go: bool
    ) -> None:
        """The confirmation's buttons: **Leave** hands the seat to a bot (P-30), **Stay**
        changes nothing; either way the question becomes its answer, without buttons."""
        table = None
        if go:
            table = await self.host.leave(game_id, interaction.user.id)
        spec = leave_answer(table.title if table else None)
        await interaction.response.edit_message(**edit_kwargs(spec, game_id, 0))

    async def rules_page(self, interaction: discord.Interaction[Any], slug: str, page: int) -> None:
        speeds = speeds_words(self.host.settings, GAMES[slug]) if slug in GAMES else None
        await answer_rules_page(interaction, slug, page, speeds)

    async def host_op(self, interaction: discord.Interaction[Any], game_id: int, op: str) -> None:
        if self._shed(interaction) is None:
            return
        with (
            self.publisher.answering(game_id, interaction.message),
            self.publisher.panels.answering(game_id, interaction.user.id),
        ):
            await self._host_op(interaction, game_id, op)
        self._note_click(game_id, interaction)

    def _note_click(self, game_id: int, interaction: discord.Interaction[Any]) -> None:
        """An answered click on a game's message: its token may carry the game's next turn
        ping (P-88) and edit the message it came from (P-92), costing none of the bot's global
        budget."""
        table = self.host.tables.get(game_id)
        if table is not None:
            self.publisher.clicked_in_channel(table, interaction)
            self.publisher.clicked_on(table, interaction)

    async def _host_op(self, interaction: discord.Interaction[Any], game_id: int, op: str) -> None:
        host, user = self.host, interaction.user
        try:
            if op == "hand":
                await self.show_hand(interaction, game_id)
                return
            if op in ("details", "fullboard"):
                await show_more(interaction, await host.table(game_id), self.publisher, op)
                return
            if op == "rematch":
                table = await host.rematch(game_id, user.id, display_name(user))
                await self.post_lobby(interaction, table)
                return
            if op in ("leavego", "stay"):
                await self._answer_leave(interaction, game_id, op == "leavego")
                return
            if op == "join":
                table = await host.join(game_id, user.id, display_name(user))
            elif op == "leave":
                table = await host.table(game_id)
                if table.status == "playing":  # asked first, as `/bugs leave` is (P-73)
                    await self.ask_to_leave(interaction, table)
                    return
                table = await host.leave(game_id, user.id)
            elif (level := bot_level_of(op)) is not None:
                table = await host.add_bot(
                    game_id, user.id, level, privileged=await self.privileged(interaction)
                )
            elif op == "start":
                table = await host.start(
                    game_id, user.id, privileged=await self.privileged(interaction)
                )
            elif op == "cancel":
                table = await host.cancel(
                    game_id, user.id, privileged=await self.privileged(interaction)
                )
            else:  # the codec admits only HOST_OPS
                await self.invalid(interaction)
                return
        except Exception as exc:
            await self.refuse(interaction, exc)
            return
        await self.acknowledge(interaction, table)

    async def post_lobby(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer ``interaction`` with the new lobby's message (later the board) in the channel."""
        # Hold the table until the lobby message is known, so a Join clicked the instant it
        # appears edits this message instead of posting another.
        async with table.lock:
            spec = lobby_message(table.view(), table_clocks(self.host.settings, table))
            sent = await interaction.response.send_message(**send_kwargs(spec, table.id, 0))
            message_id = sent.message_id or (await interaction.original_response()).id
            channel_id = interaction.channel_id or 0
            await self.store.set_message(table.id, "board", channel_id, message_id)
            self.publisher.remember_board(table.id, message_id, spec, posted_by=interaction)

    async def show_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        table = await self.host.table(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated(game_id, interaction.user.id, playing=True)
        async with table.lock:
            engine = table.running()
            in_dm = self.publisher.dm_shows_hand(table.id, seat)
            spec = presenter_for(table.slug).private_hand(table.view(), seat, in_dm=in_dm)
            turn = engine.turn
        if spec is None:
            await answer(interaction, NO_HAND)
        else:
            await self.reply_privately(interaction, table, seat, spec, turn)
