"""The `/bugs` slash command group, as a discord.py ``GroupCog``.

Its dependencies (the host, the store, the settings, the edge and the publisher) are handed in;
it never reaches them through the bot. A command raises a domain error (``HostError`` …) and the
tree's error handler (``Edge.command_error``) turns it into an ephemeral reply.

`/bugs new <game>` has one subcommand per playable game, made from the registered engines when
the cog is built, whose options (in players' words) are that game's alone.
"""

from __future__ import annotations

import inspect
from typing import Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from rules.core import GAMES

from ..host.errors import NoGameHere
from ..host.host import Host
from ..host.table import Table
from ..settings import Settings
from ..speeds import CONTROLS
from ..standings import public_scores
from ..store import Store
from ..ui.admin import house_rules
from ..ui.howto import rules_message
from ..ui.member import settings_text
from ..ui.options import words_for
from ..ui.presenter import playable, presenter_for
from ..ui.specs import MessageSpec
from ..ui.speeds import speeds_words, table_clocks
from ..ui.stats import history_message, last_game_text, leaderboard_message, stats_message
from ..web.links import game_url
from .edge import Edge, answer, display_name
from .publisher import Publisher
from .render import send_kwargs

LEADERS = 10
"""Lines of a leaderboard."""
HISTORY = 10
"""Games per section of `/bugs history`."""
ORDER = (
    "new",
    "join",
    "leave",
    "start",
    "cancel",
    "end",
    "kick",
    "status",
    "leaderboard",
    "stats",
    "history",
    "settings",
    "hand",
    "rules",
)
"""The subcommands in the order Discord lists them."""
SPEED = "speed"
"""`/bugs new <game> speed:` (P-71): a parameter of every game's subcommand."""
SPEED_DESCRIPTION = "How long each decision may take (the server's default if left out)"


def _game_choices(*, playable_only: bool = False) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cls.title, value=slug)
        for slug, cls in sorted(GAMES.items())
        if playable(slug) or not playable_only
    ]


def in_guild(interaction: discord.Interaction[Any]) -> bool:
    """Declared guild only, but a client may send a command from a DM all the same."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


class BugsCog(
    commands.GroupCog, group_name="bugs", group_description="Play bug games in this channel."
):
    """Every `/bugs` command: each asks the host or the store, then answers."""

    new = app_commands.Group(name="new", description="Open a game lobby in this channel.")

    def __init__(
        self, *, host: Host, store: Store, settings: Settings, edge: Edge, publisher: Publisher
    ) -> None:
        self.host, self.store, self.settings = host, store, settings
        self.edge, self.publisher = edge, publisher
        # One subcommand per playable game, made from the registry at start, so each game
        # offers only its own options (a game whose presenter lands later appears on the next
        # start).
        for slug in sorted(GAMES):
            if playable(slug):
                self.new.add_command(self._new_command(slug))
        # Commands whose choices name the games also wait for every game to be registered.
        group = self.app_command
        assert group is not None
        group.guild_only = True  # as a flag, so the definition Discord holds stays the same
        group.add_command(self._leaderboard_command())
        group.add_command(self._rules_command())
        for name in ORDER:  # as players have always seen them
            moved = group.get_command(name)
            assert moved is not None, name
            group.remove_command(name)  # (it returns None whatever it removed)
            group.add_command(moved)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_guild(interaction)

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> Table:
        table = await self.host.table_in_channel(interaction.channel_id or 0)
        if table is None:
            raise NoGameHere()
        return table

    # -- /bugs new <game> -------------------------------------------------------------------
    def _new_command(self, slug: str) -> app_commands.Command[Any, Any, None]:
        """`/bugs new <slug>`: its parameters are the game's options, described in words."""
        cls = GAMES[slug]
        words = {option.name: words_for(slug, option) for option in cls.options}

        async def new(interaction: discord.Interaction[Any], **options: str | None) -> None:
            speed = options.pop(SPEED, None)
            table = await self.host.open(
                slug,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                options={k: v for k, v in options.items() if v is not None},
                speed=speed,
            )
            await self.edge.post_lobby(interaction, table)
            self.publisher.clicked_in_channel(table, interaction)  # may carry a ping (P-88)

        # The options differ per game, so the signature discord.py reads is built here; their
        # descriptions and choices go through the public decorators.
        new.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [
                inspect.Parameter(
                    "interaction",
                    inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    annotation=discord.Interaction,
                ),
                *(
                    inspect.Parameter(
                        name,
                        inspect.Parameter.KEYWORD_ONLY,
                        default=None,
                        annotation=Optional[str],  # noqa: UP045 - discord.py reads this form
                    )
                    for name in (*words, SPEED)
                ),
            ]
        )
        callback = app_commands.check(in_guild)(new)
        described = {n: w.description for n, w in words.items()}
        described[SPEED] = SPEED_DESCRIPTION
        callback = app_commands.describe(**described)(callback)
        choices = {
            name: [app_commands.Choice(name=text, value=value) for value, text in w.choices.items()]
            for name, w in words.items()
        }
        # Every preset is offered; the server's policy is checked when the lobby opens (a
        # preset it does not allow is refused privately, P-71).
        choices[SPEED] = [app_commands.Choice(name=CONTROLS[s].title, value=s) for s in CONTROLS]
        callback = app_commands.choices(**choices)(callback)
        return app_commands.Command(
            name=slug,
            description=f"Open a {cls.title} lobby ({cls.min_players}–{cls.max_players} players).",
            callback=callback,
            parent=self.new,
        )

    # -- commands whose choices are the games ------------------------------------------------
    def _leaderboard_command(self) -> app_commands.Command[Any, Any, None]:
        @app_commands.describe(game="Which game")
        @app_commands.choices(game=_game_choices(playable_only=True))
        @app_commands.check(in_guild)
        async def leaderboard(interaction: discord.Interaction[Any], game: str) -> None:
            entries = await self.store.leaderboard(interaction.guild_id or 0, game, LEADERS)
            await show(interaction, leaderboard_message(game, entries), ephemeral=False)

        return app_commands.Command(
            name="leaderboard",
            description="This server's best players of a game (by rating).",
            callback=leaderboard,
            parent=self.app_command,
        )

    def _rules_command(self) -> app_commands.Command[Any, Any, None]:
        @app_commands.describe(game="Which game")
        @app_commands.choices(game=_game_choices())
        @app_commands.check(in_guild)
        async def rules(interaction: discord.Interaction[Any], game: str) -> None:
            await interaction.response.send_message(
                ephemeral=True,
                **send_kwargs(
                    rules_message(game, 0, speeds_words(self.settings, GAMES[game])), 0, 0
                ),
            )

        return app_commands.Command(
            name="rules", description="How to play a game.", callback=rules, parent=self.app_command
        )

    # -- lobby commands ----------------------------------------------------------------------
    @app_commands.command(
        name="join", description="Join the game in this channel, or take your seat back from a bot."
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        playing = table.status == "playing"
        await self.host.join(table.id, interaction.user.id, display_name(interaction.user))
        if playing:
            await answer(interaction, f"You are back in {table.title}: your seat is yours.")
        else:
            await answer(interaction, f"You joined {table.title}.")
        self.publisher.clicked_in_channel(table, interaction)  # may carry a ping (P-88)

    @app_commands.command(
        name="leave", description="Leave the lobby, or hand your seat in the game to a bot."
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table.status == "playing":
            # Asked first, with a button that alone acts (P-73): nothing changes yet.
            await self.edge.ask_to_leave(interaction, table)
            return
        await self.host.leave(table.id, interaction.user.id)
        await answer(interaction, f"You left {table.title}.")

    @app_commands.command(name="start", description="Start the game in this channel.")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        await self.host.start(
            table.id, interaction.user.id, privileged=await self.edge.privileged(interaction)
        )
        await answer(interaction, f"{table.title} has started.")
        self.publisher.clicked_in_channel(table, interaction)  # may carry a ping (P-88)

    @app_commands.command(name="cancel", description="Cancel the game in this channel.")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        await self.host.cancel(
            table.id, interaction.user.id, privileged=await self.edge.privileged(interaction)
        )
        await answer(interaction, f"{table.title} was cancelled.")

    @app_commands.command(name="end", description="Moderators: end the game in this channel now.")
    @app_commands.describe(reason="Why (shown on the board and in the history)")
    async def end(
        self,
        interaction: discord.Interaction[Any],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        table = await self._channel_table(interaction)
        moderator = await self.edge.privileged(interaction)
        name = display_name(interaction.user)
        await self.host.end(table.id, interaction.user.id, name, reason, moderator=moderator)
        await answer(interaction, f"You ended {table.title}: nobody wins, no rating changes.")

    @app_commands.command(
        name="kick", description="Moderators: hand a player's seat in this game to a bot."
    )
    @app_commands.describe(member="Whose seat a bot plays from now on")
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        table = await self._channel_table(interaction)
        moderator = await self.edge.privileged(interaction)
        await self.host.kick(table.id, member.id, moderator=moderator)
        await answer(
            interaction,
            f"A bot plays {display_name(member)}'s seat in {table.title} now; "
            "`/bugs join` lets them take it back.",
        )

    @app_commands.command(name="status", description="Where the game in this channel stands.")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = interaction.channel_id or 0
        table = await self.host.table_in_channel(channel_id)
        if table is not None:
            board = self.publisher.board_message_id(table.id)
            await answer(interaction, status_text(self.settings, table, board))
            return
        last = await self.store.recent_games(channel_id=channel_id, limit=1)
        if not last:
            raise NoGameHere()
        await answer(interaction, last_game_text(last[0]))

    # -- after the game ----------------------------------------------------------------------
    @app_commands.command(name="stats", description="Games, wins, rating and best score per game.")
    @app_commands.describe(member="Whose stats (yours if left out)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = member or interaction.user
        found = await self.store.member_stats(interaction.guild_id or 0, who.id)
        await show(interaction, stats_message(display_name(who), found), ephemeral=True)

    @app_commands.command(
        name="history", description="The last games of this channel and this server."
    )
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = interaction.channel_id or 0
        here = await self.store.recent_games(channel_id=channel_id, limit=HISTORY)
        server = await self.store.recent_games(guild_id=interaction.guild_id, limit=HISTORY)
        await show(interaction, history_message(here, server, channel_id), ephemeral=True)

    @app_commands.command(name="settings", description="Your own settings: turn pings on or off.")
    @app_commands.describe(
        pings="Mention me in the channel when a game waits on me (leave out to see your settings)"
    )
    async def member_settings(
        self, interaction: discord.Interaction[Any], pings: bool | None = None
    ) -> None:
        user_id = interaction.user.id
        if pings is None:
            mine = (await self.store.member_settings([user_id]))[user_id]
        else:
            mine = await self.store.set_member_settings(user_id, pings=pings)
        policy = await self.host.policies.for_guild(interaction.guild_id)
        text = settings_text(mine, changed=pings is not None, server_default=policy.pings_default)
        await answer(interaction, text)

    @app_commands.command(
        name="hand", description="See your hand (or anything only you may know), privately."
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        await self.edge.show_hand(interaction, table.id)


async def show(
    interaction: discord.Interaction[Any], spec: MessageSpec, *, ephemeral: bool
) -> None:
    """Answer with a message that has no buttons (stats, leaderboards, history)."""
    await interaction.response.send_message(ephemeral=ephemeral, **send_kwargs(spec, 0, 0))


def status_text(settings: Settings, table: Table, board: int | None) -> str:
    """`/bugs status` for a loaded game; ``board`` is its board message's id, if known."""
    names = table.names()
    lines = [f"**{table.title}** — {table.status}", table_clocks(settings, table)]
    if table.engine is None:
        cls = table.engine_cls
        seated = ", ".join(s.name + ("" if s.confirmed else " (invited)") for s in table.seats)
        lines.append(f"Players ({len(table.confirmed())}/{cls.max_players}): {seated or 'nobody'}")
    else:
        engine = table.engine
        waiting = [names[s] for s in sorted(engine.waiting_for()) if 0 <= s < len(names)]
        words = presenter_for(table.slug).score_words
        scores = public_scores(engine)  # anyone in the channel may ask: no hidden part
        lines.append(
            "Players: "
            + ", ".join(
                f"{n} ({words(sc, over=engine.is_over)})"
                for n, sc in zip(names, scores, strict=True)
            )
        )
        if waiting:
            lines.append("Waiting for: " + ", ".join(waiting))
    rules = house_rules(table.policy)
    if rules:  # the server's settings this game opened with, where not the defaults (P-64)
        lines.append("This server's settings: " + "; ".join(rules))
    page = game_url(settings, table.game.web_token)
    if table.status != "playing" and not table.policy.public_replays:
        page = None  # the server keeps finished games' replays private (P-67)
    if page is not None:
        lines.append(f"Watch: {page}" if table.status == "playing" else f"Page: {page}")
    if board is not None and table.game.guild_id:
        lines.append(
            f"Board: https://discord.com/channels/{table.game.guild_id}/{table.game.channel_id}/{board}"
        )
    return "\n".join(lines)
