"""The `/bugs` slash command group.

The group is built when the bot starts, from the registered engines, so `game:` offers every
game and each engine's options become optional parameters of `/bugs new`.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Literal, Optional

import discord
from discord import app_commands

from rules.core import GAMES

from ..host.errors import NoGameHere, NotInGuild
from ..ui.lobby import lobby_message
from ..ui.presenter import playable
from ..ui.rules_text import rules_message
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


def _option_specs() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every engine option by name: (description, choices). Same name = same meaning."""
    specs: dict[str, tuple[str, tuple[str, ...]]] = {}
    for slug, cls in GAMES.items():
        if not playable(slug):
            continue
        for option in cls.options:
            desc, choices = specs.get(option.name, (option.description, ()))
            merged = tuple(dict.fromkeys((*choices, *option.choices)))
            specs[option.name] = (f"{desc} ({cls.title})"[:100], merged)
    return specs


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

    # -- /bugs new ---------------------------------------------------------------------------
    option_specs = _option_specs()

    async def new(interaction: discord.Interaction[Any], game: str, **options: str | None) -> None:
        async def work() -> None:
            chosen = {k: v for k, v in options.items() if v is not None}
            table = await bot.host.open(
                game,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                options=chosen,
            )
            # Hold the table until the lobby message is known, so a Join clicked the instant it
            # appears edits this message instead of posting another.
            async with table.lock:
                spec = lobby_message(table)
                sent = await interaction.response.send_message(**send_kwargs(spec, table.id, 0))
                message_id = sent.message_id or (await interaction.original_response()).id
                channel_id = interaction.channel_id or 0
                await bot.store.set_message(table.id, "board", channel_id, message_id)
                bot.publisher.remember_board(table.id, message_id, spec)

        await guarded(interaction, work)

    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str),
    ]
    for name, (_, choices) in option_specs.items():
        params.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Optional[Literal[choices]],  # noqa: UP045 - discord.py reads this form
            )
        )
    new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    new.__discord_app_commands_param_choices__ = {"game": _game_choices(playable_only=True)}  # type: ignore[attr-defined]
    new.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        "game": "Which game to play",
        **{name: desc for name, (desc, _) in option_specs.items()},
    }
    new_cmd: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="new", description="Open a game lobby in this channel.", callback=new, parent=group
    )
    group.add_command(new_cmd)

    # -- lobby commands ----------------------------------------------------------------------
    @group.command(name="join", description="Join the game in this channel.")
    async def join(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            await bot.host.join(table.id, interaction.user.id, display_name(interaction.user))
            await answer(interaction, f"You joined {table.title}.")

        await guarded(interaction, work)

    @group.command(name="leave", description="Leave the lobby in this channel.")
    async def leave(interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = await channel_table(interaction)
            await bot.host.leave(table.id, interaction.user.id)
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
            table = await channel_table(interaction)
            await answer(interaction, status_text(bot, table))

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


def status_text(bot: BugtableBot, table: Table) -> str:
    names = table.names()
    lines = [f"**{table.title}** — {table.status}"]
    if table.engine is None:
        cls = table.engine_cls
        lines.append(f"Players ({len(names)}/{cls.max_players}): {', '.join(names) or 'nobody'}")
    else:
        engine = table.engine
        waiting = [names[s] for s in sorted(engine.waiting_for()) if 0 <= s < len(names)]
        lines.append(
            "Players: "
            + ", ".join(f"{n} ({sc})" for n, sc in zip(names, engine.scores(), strict=True))
        )
        if waiting:
            lines.append("Waiting for: " + ", ".join(waiting))
    board = bot.publisher.board_message_id(table.id)
    if board is not None and table.game.guild_id:
        lines.append(
            f"Board: https://discord.com/channels/{table.game.guild_id}/{table.game.channel_id}/{board}"
        )
    return "\n".join(lines)
