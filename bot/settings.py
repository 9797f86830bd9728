"""Typed settings from the environment and `.env` (every one is listed in `.env.example`)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from rules.core import GAMES, Timer
from rules.core.bots import Level

_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-.]{20,}$")


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line a human can act on."""


class Settings(BaseSettings):
    """Everything the bot can be configured with. Names match the environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,
        env_nested_delimiter="__",  # TIMERS__BUGOFF_TURN=45 is timers["bugoff_turn"]
    )

    discord_token: SecretStr = Field(default=SecretStr(""))
    database_url: str = "sqlite+aiosqlite:///bugtable.db"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    extra_game_modules: str = ""

    # The games' timers (seconds), by the names their engines declare (``Engine.timers``, with
    # their defaults): TIMERS__BUGOFF_TURN=45, or TIMERS={"bugoff_turn": 45}. A name no
    # registered game declares stops the bot at start (bot/timers.py).
    timers: dict[str, Annotated[float, Field(ge=0)]] = Field(default_factory=dict)
    # The timers' names before TIMERS (P-49): each still applies (under TIMERS), and the start
    # says once that they are old.
    bag_idle_draw: float | None = Field(default=None, ge=0)
    bag_choice: float | None = Field(default=None, ge=0)
    bag_min_gap: float | None = Field(default=None, ge=0)
    bco_live_cap: float | None = Field(default=None, ge=0)
    bugoff_turn: float | None = Field(default=None, ge=0)
    bugrun_turn: float | None = Field(default=None, ge=0)
    board_edit_interval: float = 0.75
    picture_processes: int = Field(default=1, ge=0)
    """Worker processes that draw board pictures (0: a thread of the bot's own process)."""
    picture_interval: float = Field(default=2.0, ge=0)
    """Least seconds between two pictures drawn of one board (P-86): a board's text shows
    every move at once, its picture the newest state at most this often (0: every change)."""
    picture_rate: float = Field(default=5.0, ge=0)
    """Pictures per second this process draws over all its boards (P-93): past
    ``picture_rate * picture_interval`` boards with pictures, each board's interval widens to
    share it (0: no such limit)."""
    bot_player_delay: float = 2.0
    # Bot players (issue #23): BOT_PLAYER_DELAY scales each level's reaction times (P-75; the
    # default 2 gives them as written), a hard bot thinks at most BOT_THINK seconds a decision
    # in one of BOT_PROCESSES worker processes (unset: one per core), and stand-ins for
    # members who left or went quiet play at STAND_IN_LEVEL unless their server chose.
    bot_think: float = Field(default=1.0, gt=0)
    bot_processes: int | None = Field(default=None, ge=1)
    stand_in_level: Level = "normal"
    # A member is pinged once the game has waited this long on them (P-46), times TIMER_SCALE;
    # 0 pings at once.
    ping_after: float = Field(default=20.0, ge=0)
    # A turn-based game left this long with nothing happening is unloaded from memory, and
    # loaded again at its next use or reminder (P-74), times TIMER_SCALE.
    rest_after: float = Field(default=600.0, ge=0)
    # Discord's per-channel limits (P-26): sends, edits and deletes of one channel's messages.
    channel_edit_limit: int = Field(default=5, ge=1)
    channel_edit_window: float = Field(default=5.0, gt=0)
    # Discord's global limit (P-47): requests per second with the bot token over every process
    # (shared out by shard ranges); interaction responses are exempt. 0 keeps no limit.
    global_rate_limit: int = Field(default=50, ge=0)
    # Passes per second this process's pumps make over all its games (P-94): redrawing boards
    # and DMs costs the event loop, which clicks need first, whichever token carries the edits;
    # past it each game's changes wait their turn and become one pass. 0 keeps no limit.
    board_pass_rate: int = Field(default=50, ge=0)
    # A member whose own clock runs out this many times in a row gets a bot stand-in (P-31);
    # 0 never replaces anyone.
    afk_limit: int = Field(default=3, ge=0)
    # Seconds a process keeps a server's settings (`/bugtable`) before reading them again: a
    # change made through another process sharing the database is seen within this (P-63).
    server_settings_ttl: float = Field(default=10.0, ge=0)
    # Test only: multiplies every deadline the host schedules (and PING_AFTER), the rules' own
    # (Bugs & Co's 3 s start and 10 s countdown) included, so tests need not wait for them.
    timer_scale: float = Field(default=1.0, gt=0)

    # The game pages (off unless WEB_PORT is set).
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_host: str = "127.0.0.1"
    # Prometheus metrics, /healthz and /readyz (one port per process; off when unset).
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    web_base_url: str | None = None
    # The store: actions between two stored snapshots (a game loads as its snapshot plus the
    # actions after it, P-33).
    snapshot_every: int = Field(default=32, ge=1)
    # Reliability (seconds).
    database_busy_timeout: float = 10.0
    # SQLite's fsync policy (P-37): FULL (a commit survives the machine losing power, at one
    # fsync per committed group) or NORMAL (it survives the process being killed, not a power
    # loss).
    database_synchronous: Literal["NORMAL", "FULL"] = "FULL"
    retry_max_delay: float = 60.0
    # Scale-out (P-36): this process runs shards SHARD_IDS ("0-3", "0,2,4") of SHARD_COUNT;
    # several processes share one PostgreSQL DATABASE_URL. Unset: one process, one shard.
    shard_ids: str = ""
    shard_count: int | None = Field(default=None, ge=1)
    # Discord allows one IDENTIFY per rate-limit bucket per this many seconds (all processes).
    identify_window: float = Field(default=5.0, ge=0)

    @field_validator("database_synchronous", mode="before")
    @classmethod
    def _upper_synchronous(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("discord_api_base", "discord_gateway_url")
    @classmethod
    def _loopback_or_empty(cls, value: str | None) -> str | None:
        return value or None

    @property
    def web_enabled(self) -> bool:
        return self.web_port is not None

    def web_root(self) -> str:
        """Where members reach the pages: ``WEB_BASE_URL``, else the server's own address."""
        if self.web_base_url:
            return self.web_base_url.rstrip("/")
        return f"http://127.0.0.1:{self.web_port}"

    def timer_values(self) -> dict[str, float]:
        """The timers this bot sets: ``TIMERS``, over the old names (``OLD_TIMER_NAMES``)."""
        old = {name: getattr(self, name) for name in OLD_TIMER_NAMES}
        return {**{k: float(v) for k, v in old.items() if v is not None}, **self.timers}

    def old_timer_names(self) -> list[str]:
        """The old timer names this bot was given (each still applies)."""
        return [name.upper() for name in OLD_TIMER_NAMES if getattr(self, name) is not None]

    def timer_seconds(self, setting: str | None, default: float | None) -> float:
        """The delay for a deadline: its timer as the bot sets it (``TIMERS``), else as the
        game declares it (``Engine.timers``); a deadline that names no timer has the rule's
        own delay. A name no registered game declares is an error, not a silent default."""
        if setting is None:
            if default is None:
                raise SettingsError("A deadline gives neither seconds nor a timer.")
            return default
        # Asked on most moves (a new deadline, a paced action): looked up where it is, without
        # building ``timer_values()`` or ``declared_timers()`` each time.
        value = self.timers.get(setting)
        if value is not None:
            return value
        if setting in OLD_TIMER_NAMES:
            old = getattr(self, setting)
            if old is not None:
                return float(old)
        for cls in GAMES.values():
            for timer in cls.timers:
                if timer.name == setting:
                    return timer.seconds
        raise SettingsError(f"No timer {setting!r}: no registered game declares it.")

    def deadline_seconds(self, setting: str | None, default: float | None) -> float:
        """When a deadline falls due: its delay (as ``timer_seconds``) times ``TIMER_SCALE``."""
        return self.timer_seconds(setting, default) * self.timer_scale

    def require_token(self) -> str:
        token = self.discord_token.get_secret_value().strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
            )
        if not _TOKEN_SHAPE.match(token):
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token: copy it again from the Developer "
                "Portal (Bot → Reset Token) into .env."
            )
        return token

    def shards(self) -> list[int] | None:
        """The shard ids this process runs, or None when it runs unsharded."""
        if self.shard_count is None:
            if self.shard_ids.strip():
                raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total over all processes).")
            return None
        ids = parse_shards(self.shard_ids) if self.shard_ids.strip() else []
        ids = ids or list(range(self.shard_count))
        wrong = [i for i in ids if not 0 <= i < self.shard_count]
        if wrong:
            raise SettingsError(
                f"SHARD_IDS {wrong} are not shards of SHARD_COUNT {self.shard_count} "
                f"(0 to {self.shard_count - 1})."
            )
        return ids

    def extra_modules(self) -> list[str]:
        return [m.strip() for m in self.extra_game_modules.split(",") if m.strip()]


OLD_TIMER_NAMES = (
    "bag_idle_draw",
    "bag_choice",
    "bag_min_gap",
    "bco_live_cap",
    "bugoff_turn",
    "bugrun_turn",
)
"""The timer settings of before ``TIMERS`` (P-49), frozen: a new game's timers have none."""


def declared_timers() -> dict[str, Timer]:
    """Every registered engine's timers by name (bot/timers.py checks they agree)."""
    return {timer.name: timer for cls in GAMES.values() for timer in cls.timers}


def parse_shards(spec: str) -> list[int]:
    """``"0-3"`` or ``"0,2,5-7"`` -> sorted shard ids; SettingsError on anything else."""
    ids: set[int] = set()
    for part in (p.strip() for p in spec.split(",")):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if match is None or (match[2] is not None and int(match[2]) < int(match[1])):
            raise SettingsError(f"Shards {spec!r}: write a range like 0-3 or a list like 0,2,5.")
        ids.update(range(int(match[1]), int(match[2] or match[1]) + 1))
    return sorted(ids)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]).upper()
        raise SettingsError(f"Setting {where} is invalid: {first['msg']}.") from None
