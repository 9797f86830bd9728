"""`/bugtable`: a server's admins set how bugtable's games run there (issue #24, P-63..P-67).

A top-level command of its own, because Discord applies ``default_permissions`` only to
top-level commands: members without Manage Server do not see it (server owners may change who
does in their integration settings), and one who calls it anyway (a forging client, or an
override the bot does not know) is refused privately all the same. Every answer is private.

Each setter checks its values here where they are Discord's (a channel or role of this server)
and in ``StoredPolicies`` where they are the policy's; a refused value changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from rules.core import GAMES

from ..host.errors import BadSetting
from ..host.policies import StoredPolicies
from ..host.policy import BOT_LEVELS, SPEEDS, BotLevel, Speed
from ..host.policy_values import SERVER_FIELDS, SettingKey
from ..settings import Settings
from ..ui.admin import changed_text, settings_message
from ..ui.presenter import playable
from .edge import answer, display_name
from .render import send_kwargs

RECENT_CHANGES = 10
"""Changes `/bugtable show` lists."""
ALL = "all"
GAMES_CHOICE = "games"


def require_admin(interaction: discord.Interaction[Any]) -> bool:
    """Guild only, and Manage Server, checked again at run time: a client may send anything."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    if not interaction.permissions.manage_guild:  # answered by ``Edge.command_error``
        raise app_commands.MissingPermissions(["manage_guild"])
    return True


def own_channel(
    interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel
) -> int:
    """A channel of this server that can hold a game's messages, or a clear refusal."""
    guild = interaction.guild
    found = guild.get_channel_or_thread(channel.id) if guild is not None else None
    if found is None or channel.guild_id != interaction.guild_id:
        raise BadSetting("That channel is not one of this server's. Nothing changed.")
    if not isinstance(found, discord.abc.Messageable):
        raise BadSetting(
            f"<#{channel.id}> holds no messages: games need a channel they can post in. "
            "Nothing changed."
        )
    return channel.id


def own_role(interaction: discord.Interaction[Any], role: discord.Role) -> int:
    """A role of this server other than @everyone, or a clear refusal."""
    guild = interaction.guild
    if guild is None or guild.get_role(role.id) is None:
        raise BadSetting("That role is not one of this server's. Nothing changed.")
    if role.id == guild.id:
        raise BadSetting(
            "@everyone cannot be the moderator role: it would let every member end and "
            "cancel anyone's game. Nothing changed."
        )
    return role.id


def chosen_set(current: frozenset[str], wanted: Mapping[str, bool | None]) -> frozenset[str]:
    """``current`` with each option given turned on or off (an option left out: unchanged)."""
    on = {name for name, value in wanted.items() if value}
    off = {name for name, value in wanted.items() if value is False}
    return frozenset((current | on) - off)


def _choices(values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in values]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    commands.GroupCog,
    group_name="bugtable",
    group_description="This server's settings for bug games (Manage Server).",
):
    """Every `/bugtable` command: read or change the server's settings, answered privately."""

    channels = app_commands.Group(
        name="channels", description="Where games may be opened (none listed: any channel)."
    )

    def __init__(self, *, policies: StoredPolicies, settings: Settings) -> None:
        self.policies, self.settings = policies, settings
        group = self.app_command
        assert group is not None
        # Its choices name the games, registered by the time the cog is made (as `/bugs new`).
        group.add_command(self._game_command())

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return require_admin(interaction)

    async def _save(
        self, interaction: discord.Interaction[Any], changes: Mapping[SettingKey, Any]
    ) -> None:
        if not changes:
            raise BadSetting("Give at least one value to change (see `/bugtable show`).")
        made = await self.policies.change(
            interaction.guild_id or 0,
            changes,
            user_id=interaction.user.id,
            user_name=display_name(interaction.user),
        )
        await self._answer_changes(interaction, made)

    async def _answer_changes(self, interaction: discord.Interaction[Any], made: list[Any]) -> None:
        text = changed_text(
            made, afk_limit=self.settings.afk_limit, ping_after=self.settings.ping_after
        )
        await answer(interaction, text)

    # -- reading -----------------------------------------------------------------------------
    @app_commands.command(
        name="show", description="Every setting, where it comes from, and the recent changes."
    )
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = interaction.guild_id or 0
        self.policies.forget(guild_id)  # an admin reading them sees what the database holds
        found = await self.policies.settings(guild_id)
        changes = await self.policies.changes(guild_id, RECENT_CHANGES)
        spec = settings_message(
            found,
            changes,
            afk_limit=self.settings.afk_limit,
            ping_after=self.settings.ping_after,
        )
        await interaction.response.send_message(ephemeral=True, **send_kwargs(spec, 0, 0))

    # -- per game ----------------------------------------------------------------------------
    def _game_command(self) -> app_commands.Command[Any, Any, None]:
        @app_commands.describe(
            game="Which game",
            enabled="Whether members may open it here",
            speed="The time control its games get unless the opener picks another",
        )
        @app_commands.choices(
            game=[
                app_commands.Choice(name=cls.title, value=slug)
                for slug, cls in sorted(GAMES.items())
                if playable(slug)
            ],
            speed=_choices(SPEEDS),
        )
        @app_commands.check(require_admin)
        async def game(
            interaction: discord.Interaction[Any],
            game: str,
            enabled: bool | None = None,
            speed: str | None = None,
        ) -> None:
            if game not in GAMES:
                raise BadSetting("There is no such game. Nothing changed.")
            changes: dict[SettingKey, Any] = {}
            if enabled is not None:
                changes[SettingKey("enabled", game)] = enabled
            if speed is not None:
                changes[SettingKey("speed", game)] = speed
            await self._save(interaction, changes)

        return app_commands.Command(
            name="game",
            description="Turn a game on or off here, and set its default speed.",
            callback=game,
            parent=self.app_command,
        )

    # -- server-wide -------------------------------------------------------------------------
    @app_commands.command(
        name="speeds", description="Which speeds openers may pick (options left out: unchanged)."
    )
    @app_commands.rename(turn_based="turn-based")
    async def speeds(
        self,
        interaction: discord.Interaction[Any],
        fast: bool | None = None,
        normal: bool | None = None,
        slow: bool | None = None,
        turn_based: bool | None = None,
    ) -> None:
        given: dict[str, bool | None] = {
            "fast": fast,
            "normal": normal,
            "slow": slow,
            "turn-based": turn_based,
        }
        if all(v is None for v in given.values()):
            raise BadSetting("Give at least one speed to allow or forbid.")
        policy = await self.policies.fresh(interaction.guild_id)
        allowed = chosen_set(frozenset(policy.speeds), given)
        if not allowed:
            raise BadSetting("At least one speed must stay allowed. Nothing changed.")
        speeds: frozenset[Speed] = frozenset(s for s in SPEEDS if s in allowed)
        await self._save(interaction, {SettingKey("speeds"): speeds})

    @channels.command(name="add", description="Allow games in a channel (then only the listed).")
    @app_commands.describe(channel="A channel of this server")
    async def channels_add(
        self, interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel
    ) -> None:
        channel_id = own_channel(interaction, channel)
        policy = await self.policies.fresh(interaction.guild_id)
        await self._save(interaction, {SettingKey("channels"): policy.channels | {channel_id}})

    @channels.command(name="remove", description="No longer open games in a channel.")
    @app_commands.describe(channel="A channel on the list")
    async def channels_remove(
        self, interaction: discord.Interaction[Any], channel: app_commands.AppCommandChannel
    ) -> None:
        policy = await self.policies.fresh(interaction.guild_id)
        if channel.id not in policy.channels:
            raise BadSetting(f"<#{channel.id}> is not on the list. Nothing changed.")
        left = policy.channels - {channel.id}
        await self._save(interaction, {SettingKey("channels"): left or None})

    @channels.command(name="clear", description="Allow games in any channel again.")
    async def channels_clear(self, interaction: discord.Interaction[Any]) -> None:
        await self._save(interaction, {SettingKey("channels"): None})

    @app_commands.command(
        name="moderator",
        description="A role that may start, cancel and moderate any game (leave out: none).",
    )
    @app_commands.describe(role="The role (leave out to have none: Manage Channels only)")
    async def moderator(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        role_id = None if role is None else own_role(interaction, role)
        await self._save(interaction, {SettingKey("moderator_role"): role_id})

    @app_commands.command(
        name="bots", description="Which bot levels Add bot offers (all off: no bots)."
    )
    async def bots(
        self,
        interaction: discord.Interaction[Any],
        easy: bool | None = None,
        normal: bool | None = None,
        hard: bool | None = None,
    ) -> None:
        given: dict[str, bool | None] = {"easy": easy, "normal": normal, "hard": hard}
        if all(v is None for v in given.values()):
            raise BadSetting("Give at least one bot level to allow or forbid.")
        policy = await self.policies.fresh(interaction.guild_id)
        allowed = chosen_set(frozenset(policy.bot_levels), given)
        levels: frozenset[BotLevel] = frozenset(lv for lv in BOT_LEVELS if lv in allowed)
        await self._save(interaction, {SettingKey("bot_levels"): levels})

    @app_commands.command(
        name="standins", description="When a bot stands in for a member whose clock runs out."
    )
    @app_commands.describe(
        afk_limit="Missed clocks in a row before a bot takes the seat (0: never)",
        level="How well stand-ins play",
    )
    @app_commands.rename(afk_limit="afk-limit")
    @app_commands.choices(level=_choices(BOT_LEVELS))
    async def standins(
        self,
        interaction: discord.Interaction[Any],
        afk_limit: int | None = None,  # checked by the bot, to answer a bad one in words
        level: str | None = None,
    ) -> None:
        changes: dict[SettingKey, Any] = {}
        if afk_limit is not None:
            changes[SettingKey("afk_limit")] = afk_limit
        if level is not None:
            changes[SettingKey("stand_in_level")] = level
        await self._save(interaction, changes)

    @app_commands.command(name="pings", description="Turn pings for members who have not chosen.")
    @app_commands.describe(
        default="Ping members who have not chosen (`/bugs settings`)",
        after="Seconds a game waits on a member before the ping (0: at once)",
    )
    async def pings(
        self,
        interaction: discord.Interaction[Any],
        default: bool | None = None,
        after: float | None = None,
    ) -> None:
        changes: dict[SettingKey, Any] = {}
        if default is not None:
            changes[SettingKey("pings_default")] = default
        if after is not None:
            changes[SettingKey("ping_after")] = after
        await self._save(interaction, changes)

    @app_commands.command(
        name="replays", description="Whether finished games get a public replay link."
    )
    @app_commands.describe(public="Show a link to each finished game's replay")
    async def replays(self, interaction: discord.Interaction[Any], public: bool) -> None:
        await self._save(interaction, {SettingKey("public_replays"): public})

    @app_commands.command(name="reset", description="Put settings back to the bot's defaults.")
    @app_commands.describe(setting="Which (all: every one)")
    @app_commands.choices(setting=_choices((ALL, GAMES_CHOICE, *SERVER_FIELDS)))
    async def reset(self, interaction: discord.Interaction[Any], setting: str) -> None:
        guild_id = interaction.guild_id or 0
        keys: list[SettingKey] | None
        if setting == ALL:
            keys = None
        elif setting == GAMES_CHOICE:
            keys = [SettingKey(f, slug) for slug in sorted(GAMES) for f in ("enabled", "speed")]
        else:
            try:
                keys = [SettingKey.parse(setting)]
            except ValueError:
                raise BadSetting("There is no such setting. Nothing changed.") from None
        made = await self.policies.reset(
            guild_id, keys, user_id=interaction.user.id, user_name=display_name(interaction.user)
        )
        await self._answer_changes(interaction, made)
