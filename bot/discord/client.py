"""The bot: a `commands.Bot` whose setup_hook opens the store, restores games and timers."""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import datetime, timedelta
from typing import Any

import discord
import yarl
from discord.ext import commands

from .. import collector
from ..event_loop import loop_name
from ..games import load_game_modules
from ..host.bots import BotPlayers
from ..host.host import Host
from ..host.policies import StoredPolicies
from ..host.policy import DefaultPolicies, Policies
from ..host.table import Outcome, Table
from ..host.thinking import Thinking, machine_cores
from ..host.timers import utcnow
from ..ops.metrics import CommitCounter, Metrics
from ..ops.server import OpsServer
from ..settings import Settings, SettingsError
from ..speeds import reminders
from ..store import Store
from ..ui.presenter import presenter_for
from ..ui.public_log import PublicLog
from ..web.server import WebServer
from .admin import AdminCog
from .commands import BugsCog
from .components import route
from .declared import DeclaredOnlyTree
from .edge import Edge
from .limiter import Budget, GlobalLimiter, RefusalCounter, transport_trace
from .publisher import Publisher
from .watched import AckTimer, interaction_kind, readiness, readings

log = logging.getLogger(__name__)
COMMANDS_HASH_KEY = "commands_hash"
STOP_SECONDS = 5.0
"""A graceful stop waits this long for the changes under way (then the boards get as long)."""


def point_at(settings: Settings) -> None:
    """Aim discord.py at another API/gateway (the local emulator) when configured."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class BugtableBot(commands.Bot):
    """Wires the layers together once the store is open; each part gets only what it uses."""

    store: Store
    stored_policies: StoredPolicies
    host: Host
    publisher: Publisher
    edge: Edge

    def __init__(
        self,
        settings: Settings,
        *,
        sync_commands: bool = True,
        serve_web: bool = True,
        policies: Policies | None = None,
        settle_heap: bool = False,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Every REST request passes the global limiter on its way out (P-47).
        self.limiter = GlobalLimiter(Budget.of(settings))
        self._given_policies = policies
        self.policies: Policies = policies or DefaultPolicies()
        """Each server's policy (issue #24): the server settings' store once set up (P-63), or
        the one a test gave."""
        self.refusals = RefusalCounter()
        shards = client_options.get("shard_ids")
        self.metrics = Metrics(shards=",".join(map(str, shards)) if shards else "0")
        client_options.setdefault(
            "http_trace", transport_trace(self.limiter, self.refusals, AckTimer(self.metrics))
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=DeclaredOnlyTree,  # refuses what bugtable did not declare (P-24)
            **client_options,  # shard_ids / shard_count for a sharded bot (discord/shards.py)
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self.serve_web = serve_web
        self.settle_heap = settle_heap
        """Freeze the heap once set up (``bot.collector``): the bot's own process only, never
        a test's that hosts it."""
        self.web: WebServer | None = None
        self.ops: OpsServer | None = None
        self.stopping = False
        """A graceful stop has begun (``stop_gracefully``)."""

    async def setup_hook(self) -> None:
        load_game_modules(self.settings.extra_modules())
        self.store = await Store.open(
            self.settings.database_url,
            busy_timeout=self.settings.database_busy_timeout,
            snapshot_every=self.settings.snapshot_every,
            synchronous=self.settings.database_synchronous,
        )
        self.stored_policies = StoredPolicies(self.store, ttl=self.settings.server_settings_ttl)
        # The server settings' store, unless a test gave a policy of its own.
        self.policies = self._given_policies or self.stored_policies
        self.host = Host(self.store, self.settings, policies=self.policies)
        self.public_log = PublicLog()
        self.publisher = Publisher(
            self,
            self.store,
            self.settings,
            self.public_log,
            refresh=self.host.refresh,
            rest=self.host.rest,
            limiter=self.limiter,
        )
        self.host.on_screen = self.publisher.on_screen  # clocks barely seen are no strike
        self.edge = Edge(self.host, self.publisher, self.store)
        self.host.listeners.append(self.public_log)  # the publisher draws its lines on boards
        self.host.listeners.append(self.publisher)
        self.bot_players = BotPlayers(
            self.host,
            self.settings.bot_player_delay,
            max_retry_delay=self.settings.retry_max_delay,
            thought=self.metrics.note_think,
            thinking=Thinking(
                self.settings.bot_processes or machine_cores(),
                modules=self.settings.extra_modules(),
            ),
            think=self.settings.bot_think,
        )
        self.host.listeners.append(self.bot_players)
        self.host.listeners.append(CommitCounter(self.metrics))
        await self._start_web()
        await self._start_ops()
        await self.add_cog(
            BugsCog(
                host=self.host,
                store=self.store,
                settings=self.settings,
                edge=self.edge,
                publisher=self.publisher,
            )
        )
        await self.add_cog(AdminCog(policies=self.stored_policies, settings=self.settings))
        self.tree.error(self.edge.command_error)
        if self.sync_commands:
            await self.sync_if_changed()
        self.host.loaders.append(self._table_loaded)
        self.host.reloaders.append(self._table_reloaded)
        # Games load at first use (P-32); only those a bot must move on are loaded now.
        await self.host.restore(
            changed_since=self._pings_due_since(), resting_since=self._reminders_due_since()
        )
        # Only now may overdue deadlines fire: a game they move is loaded (and adopted) first.
        self.host.resume_timers()
        if self.settle_heap:
            collector.settle()
        log.info(
            "bugtable ready: %d game(s) loaded, the rest at first use (event loop: %s)",
            len(self.host.tables),
            loop_name(),
        )

    def _pings_due_since(self) -> datetime | None:
        """Games changed this recently may still owe a turn ping (P-46): loaded at start-up so
        it goes at its time. Not on a shared store: another process may be showing them."""
        after = self.settings.ping_after * self.settings.timer_scale
        if after <= 0 or self.store.shared:
            return None
        return utcnow() - timedelta(seconds=after)

    def _reminders_due_since(self) -> datetime | None:
        """Turn-based games changed this recently may still owe a reminder (1 h and 12 h into
        a wait, P-71): loaded at start-up, then left to rest until it is due (P-74)."""
        if self.store.shared:
            return None
        longest = max(reminders(self.settings.ping_after, "turn-based")) * self.settings.timer_scale
        return utcnow() - timedelta(seconds=longest)

    async def _start_web(self) -> None:
        """The game pages, when WEB_PORT asks for them; they hear of every committed move."""
        port = self.settings.web_port
        if port is None or not self.serve_web:
            return
        self.web = WebServer(
            self.store, host=self.settings.web_host, port=port, settings=self.settings
        )
        try:
            await self.web.start()
        except OSError as exc:  # links to a page nobody serves would be worse than stopping
            self.web = None
            raise SettingsError(
                f"WEB_PORT {port}: cannot serve the game pages on {self.settings.web_host}:"
                f"{port} ({exc.strerror or exc}); free the port or choose another."
            ) from None
        self.host.listeners.append(self.web)

    async def _start_ops(self) -> None:
        """Metrics and health checks, when METRICS_PORT asks for them."""
        self.metrics.read(readings(self))
        self.metrics.watch_loop()
        port = self.settings.metrics_port
        if port is None or not self.serve_web:
            return
        host = self.settings.metrics_host
        self.ops = OpsServer(self.metrics, lambda: readiness(self), host=host, port=port)
        try:
            await self.ops.start()
        except OSError as exc:
            self.ops = None
            raise SettingsError(
                f"METRICS_PORT {port}: cannot serve metrics on {host}:{port} "
                f"({exc.strerror or exc}); free the port or choose another."
            ) from None

    async def stop_gracefully(self) -> None:
        """SIGTERM: take no new change (a click is told to try again in a moment), let the
        changes under way commit and answer, send the boards' last edits (at most
        ``CLOSE_SECONDS``), close the database; the process then exits 0."""
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping: no new moves; finishing those under way")
        if hasattr(self, "host") and not await self.host.gate.close(STOP_SECONDS):
            log.warning("stopping with %d change(s) still under way", self.host.gate.inside)
        await self.close()

    async def _table_loaded(self, table: Table, replayed: list[Outcome]) -> None:
        """A game was loaded from the store (its first use since this process started): learn
        its messages, rebuild its public log from the replayed actions, redraw its board, and
        let a bot whose turn it is play on."""
        await self.publisher.adopt(table)
        self.public_log.restore(table.id, _log_lines(table, replayed))
        self.publisher.mark_dirty(table)
        self.bot_players.table_changed(table, None)

    def _table_reloaded(self, table: Table, missed: list[Outcome]) -> None:
        """Another process moved the game on: what it did is said in this process's log too,
        after what this one said (it came later)."""
        self.public_log.add(table.id, _log_lines(table, missed))

    def command_payload(self) -> list[dict[str, Any]]:
        return [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]

    def _commands_digest(self) -> str:
        payload = json.dumps(self.command_payload(), sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()

    def _sync_scope(self, guild_id: int | None = None) -> str:
        return f"{COMMANDS_HASH_KEY}:{guild_id or self.settings.dev_guild_id or 'global'}"

    async def sync_if_changed(self) -> bool:
        """Sync slash commands only when their definition changed (Discord rate-limits creates)."""
        if await self.store.get_meta(self._sync_scope()) == self._commands_digest():
            return False
        await self.sync_now()
        await self.remember_synced()
        return True

    async def remember_synced(self, guild_id: int | None = None) -> None:
        await self.store.set_meta(self._sync_scope(guild_id), self._commands_digest())

    async def sync_now(self, guild_id: int | None = None) -> int:
        guild_id = guild_id or self.settings.dev_guild_id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info(
            "synced %d command(s) %s", len(synced), f"to guild {guild_id}" if guild else "globally"
        )
        return len(synced)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click and menu choice goes to the edge by its custom id (``route``); a modal
        submit (bugtable opens none) is answered as not valid, so every input gets an answer
        (P-24). Slash commands are the command tree's."""
        self.metrics.note_interaction(interaction.id, interaction_kind(interaction))
        kind = interaction.type
        if kind is discord.InteractionType.modal_submit:
            await self.edge.invalid(interaction)
        elif kind is discord.InteractionType.component:
            try:
                await route(interaction, self.edge)
            finally:
                collector.release_clicked_message(interaction)

    async def close(self) -> None:
        if hasattr(self, "host"):
            await self.bot_players.close()
            await self.host.close()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        if self.web is not None:
            await self.web.close()
        if self.ops is not None:
            await self.ops.close()
        await self.metrics.close()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()


def _log_lines(table: Table, outcomes: list[Outcome]) -> list[str]:
    """The public log's lines of replayed outcomes, in order."""
    presenter = presenter_for(table.slug)
    return [line for outcome in outcomes for line in presenter.log_lines(outcome.view, outcome)]
