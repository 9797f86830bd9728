"""The `/bugs` slash command group.

The group is built when the bot starts, from the registered engines: `/bugs new <game>` has one
subcommand per playable game, whose options (in players' words) are that game's alone.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands

from rules.core import GAMES

from ..host.errors import NoGameHere, NotInGuild
from ..ui.member import settings_text
from ..ui.options import words_for
from ..ui.presenter import playable
from ..ui.rules_text import rules_message
from ..ui.specs import MessageSpec
from ..ui.stats import history_message, last_game_text, leaderboard_message, stats_message
from ..web.links import game_url
from .edge import answer, display_name, is_privileged
from .render import send_kwargs

if TYPE_CHECKING:
    from ..host.table import Table
    from .client import BugtableBot


def _game_choices(*, playable_only: bool = False) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cls.title, value=slug)
        for slug, cls in sorted(GAMES.items())
        if playable(slug) or not playable_only
    ]


LEADERS = 10
"""Lines of a leaderboard."""
HISTORY = 10
"""Games per section of `/bugs history`."""

Guarded = Callable[[discord.Interaction[Any], Callable[[], Awaitable[None]]], Awaitable[None]]


def _new_command(
    bot: BugtableBot, slug: str, parent: app_commands.Group, guarded: Guarded
) -> app_commands.Command[Any, Any, None]:
    """`/bugs new <slug>`: its parameters are the game's options, described in words."""
    cls = GAMES[slug]
    words = {option.name: words_for(slug, option) for option in cls.options}

    async def new(interaction: discord.Interaction[Any], **options: str | None) -> None:
        async def work() -> None:
            table = await bot.host.open(
                slug,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                options={k: v for k, v in options.items() if v is not None},
            )
            await bot.edge.post_lobby(interaction, table)

        await guarded(interaction, work)

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
                for name in words
            ),
        ]
    )
    new.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        name: [app_commands.Choice(name=text, value=value) for value, text in w.choices.items()]
        for name, w in words.items()
    }
    new.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        name: w.description for name, w in words.items()
    }
    return app_commands.Command(
        name=slug,
        description=f"Open a {cls.title} lobby ({cls.min_players}–{cls.max_players} players).",
        callback=new,
        parent=parent,
    )


def build_group(bot: BugtableBot) -> app_commands.Group:
    group = app_commands.Group(
        name="bugs", description="Play bug games in this channel.", guild_only=True
    )

    async def channel_table(interaction: discord.Interaction[Any]) -> Table:
        table = await bot.host.table_in_channel(interaction.channel_id or 0)
        if table is None:
            raise NoGameHere()
        return table

    async def guarded(interaction: discord.Interaction[Any], work: Any) -> None:
        try:
            # Declared guild only, but a client may send it from a DM all the same.
            if interaction.guild_id is None:
                raise NotInGuild()
            await work()
        except Exception as exc:
            await bot.edge.refuse(interaction, exc)

    # -- /bugs new <game> ---------------------------------------------------------------------
    # One subcommand per playable game, made from the registry at start, so each game offers
    # only its own options (a game whose presenter lands later appears on the next start).
    new_group = app_commands.Group(
        name="new", description="Open a game lobby in this channel.", parent=group
    )
    for slug in sorted(GAMES):
        if playable(slug):
            new_group.add_command(_new_command(bot, slug, new_group, guarded))

    # -- lobby commands ----------------------------------------------------------------------
    @group.command(
        name="join", description="Join the game in this channel, or take your seat back from a bot."
    )
    async def join(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            playing = table.status == "playing"
            await bot.host.join(table.id, interaction.user.id, display_name(interaction.user))
            if playing:
                await answer(interaction, f"You are back in {table.title}: your seat is yours.")
            else:
                await answer(interaction, f"You joined {table.title}.")

        await guarded(interaction, work)

    @group.command(
        name="leave", description="Leave the lobby, or hand your seat in the game to a bot."
    )
    async def leave(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            playing = table.status == "playing"
            await bot.host.leave(table.id, interaction.user.id)
            if playing:
                await answer(
                    interaction,
                    f"You left {table.title}: a bot plays your seat now. `/bugs join` here "
                    "takes it back before the game ends.",
                )
            else:
                await answer(interaction, f"You left {table.title}.")

        await guarded(interaction, work)

    @group.command(name="start", description="Start the game in this channel.")
    async def start(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            await bot.host.start(
                table.id, interaction.user.id, privileged=is_privileged(interaction)
            )
            await answer(interaction, f"{table.title} has started.")

        await guarded(interaction, work)

    @group.command(name="cancel", description="Cancel the game in this channel.")
    async def cancel(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            await bot.host.cancel(
                table.id, interaction.user.id, privileged=is_privileged(interaction)
            )
            await answer(interaction, f"{table.title} was cancelled.")

        await guarded(interaction, work)

    @group.command(name="status", description="Where the game in this channel stands.")
    async def status(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            channel_id = interaction.channel_id or 0
            table = await bot.host.table_in_channel(channel_id)
            if table is not None:
                await answer(interaction, status_text(bot, table))
                return
            last = await bot.store.recent_games(channel_id=channel_id, limit=1)
            if not last:
                raise NoGameHere()
            await answer(interaction, last_game_text(last[0]))

        await guarded(interaction, work)

    # -- after the game ----------------------------------------------------------------------
    @group.command(
        name="leaderboard", description="This server's best players of a game (by rating)."
    )
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=_game_choices(playable_only=True))
    async def leaderboard(interaction: discord.Interaction[Any], game: str) -> None:
        async def work() -> None:
            entries = await bot.store.leaderboard(interaction.guild_id or 0, game, LEADERS)
            await show(interaction, leaderboard_message(game, entries), ephemeral=False)

        await guarded(interaction, work)

    @group.command(name="stats", description="Games, wins, rating and best score per game.")
    @app_commands.describe(member="Whose stats (yours if left out)")
    async def stats(
        interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        async def work() -> None:
            who = member or interaction.user
            found = await bot.store.member_stats(interaction.guild_id or 0, who.id)
            await show(interaction, stats_message(display_name(who), found), ephemeral=True)

        await guarded(interaction, work)

    @group.command(name="history", description="The last games of this channel and this server.")
    async def history(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            channel_id = interaction.channel_id or 0
            here = await bot.store.recent_games(channel_id=channel_id, limit=HISTORY)
            server = await bot.store.recent_games(guild_id=interaction.guild_id, limit=HISTORY)
            await show(interaction, history_message(here, server, channel_id), ephemeral=True)

        await guarded(interaction, work)

    @group.command(name="settings", description="Your own settings: turn pings on or off.")
    @app_commands.describe(
        pings="Mention me in the channel when a game waits on me (leave out to see your settings)"
    )
    async def settings(interaction: discord.Interaction[Any], pings: bool | None = None) -> None:
        async def work() -> None:
            user_id = interaction.user.id
            if pings is None:
                mine = (await bot.store.member_settings([user_id]))[user_id]
            else:
                mine = await bot.store.set_member_settings(user_id, pings=pings)
            await answer(interaction, settings_text(mine, changed=pings is not None))

        await guarded(interaction, work)

    @group.command(
        name="hand", description="See your hand (or anything only you may know), privately."
    )
    async def hand(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            await bot.edge.show_hand(interaction, table.id)

        await guarded(interaction, work)

    @group.command(name="rules", description="How to play a game.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=_game_choices())
    async def rules(interaction: discord.Interaction[Any], game: str) -> None:
        async def work() -> None:
            from .render import embed_of

            spec = rules_message(game)
            assert spec.embed is not None
            await interaction.response.send_message(embed=embed_of(spec.embed), ephemeral=True)

        await guarded(interaction, work)

    return group


async def show(
    interaction: discord.Interaction[Any], spec: MessageSpec, *, ephemeral: bool
) -> None:
    """Answer with a message that has no buttons (stats, leaderboards, history)."""
    await interaction.response.send_message(ephemeral=ephemeral, **send_kwargs(spec, 0, 0))


def status_text(bot: BugtableBot, table: Table) -> str:
    names = table.names()
    lines = [f"**{table.title}** — {table.status}"]
    if table.engine is None:
        cls = table.engine_cls
        seated = ", ".join(s.name + ("" if s.confirmed else " (invited)") for s in table.seats)
        lines.append(f"Players ({len(table.confirmed())}/{cls.max_players}): {seated or 'nobody'}")
    else:
        engine = table.engine
        waiting = [names[s] for s in sorted(engine.waiting_for()) if 0 <= s < len(names)]
        lines.append(
            "Players: "
            + ", ".join(f"{n} ({sc})" for n, sc in zip(names, engine.scores(), strict=True))
        )
        if waiting:
            lines.append("Waiting for: " + ", ".join(waiting))
    page = game_url(bot.settings, table.game.web_token)
    if page is not None:
        lines.append(f"Watch: {page}" if table.status == "playing" else f"Page: {page}")
    board = bot.publisher.board_message_id(table.id)
    if board is not None and table.game.guild_id:
        lines.append(
            f"Board: https://discord.com/channels/{table.game.guild_id}/{table.game.channel_id}/{board}"
        )
    return "\n".join(lines)
