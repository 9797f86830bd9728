"""Skill ratings: openskill's Plackett-Luce model, one rating per member, server and game.

Only members are rated. Bot seats are left out before rating, so a bot neither gets a rating nor
moves anyone else's, and a game with fewer than two members changes no rating at all. Ranks
are the stored results' ranks (from the final scores, winners first; equal scores share a
rank), which Plackett-Luce treats as ties. Games outside a server (no guild) are not rated.

:func:`update_ratings` runs on the connection that records the results, inside the same
transaction, so ratings and results are written together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Table, false, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .models import RatingRow, Seat
from .records import ResultSpec

MODEL = PlackettLuce()
Z = 3.0
"""Standard deviations below ``mu`` of the conservative rating (openskill's ``ordinal``)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as stored: the model's belief ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @classmethod
    def initial(cls) -> Skill:
        rating = MODEL.rating()
        return cls(rating.mu, rating.sigma)

    @property
    def ordinal(self) -> float:
        """What leaderboards sort by: low until a member has shown their skill in a few games."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal(z=Z))


def rate(field: Sequence[tuple[Skill, int]]) -> list[Skill]:
    """New skills after one free-for-all game, given each player's skill and rank (1 = best;
    equal ranks are a tie). Fewer than two players teach the model nothing."""
    if len(field) < 2:
        return [skill for skill, _ in field]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill, _ in field]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in field])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def update_ratings(
    conn: Connection,
    *,
    game_id: int,
    guild_id: int | None,
    slug: str,
    results: Sequence[ResultSpec],
    now: datetime,
) -> None:
    """Rate one finished game on ``conn`` (the caller's open transaction; an async one runs
    this through ``run_sync``)."""
    if guild_id is None:
        return
    seats = cast(Table, Seat.__table__)
    members = {
        row.user_id: row.name
        for row in conn.execute(
            select(seats.c.user_id, seats.c.name).where(
                seats.c.game_id == game_id, seats.c.is_bot == false()
            )
        )
    }
    rated = [r for r in results if r.user_id in members]
    if len(rated) < 2:
        return
    table = cast(Table, RatingRow.__table__)
    initial = Skill.initial()
    _insert_missing(
        conn,
        table,
        [
            {
                "guild_id": guild_id,
                "slug": slug,
                "user_id": r.user_id,
                "name": members[r.user_id],
                "mu": initial.mu,
                "sigma": initial.sigma,
                "rated_games": 0,
                "updated_at": now,
            }
            for r in rated
        ],
    )
    key = (table.c.guild_id == guild_id) & (table.c.slug == slug)
    # FOR UPDATE: two games of one server finishing at once on PostgreSQL take turns here
    # (SQLite writers already hold the database lock).
    current = {
        row.user_id: row
        for row in conn.execute(
            select(table)
            .where(key, table.c.user_id.in_([r.user_id for r in rated]))
            .with_for_update()
        )
    }
    skills = rate([(Skill(current[r.user_id].mu, current[r.user_id].sigma), r.rank) for r in rated])
    for result, skill in zip(rated, skills, strict=True):
        conn.execute(
            update(table)
            .where(key, table.c.user_id == result.user_id)
            .values(
                mu=skill.mu,
                sigma=skill.sigma,
                name=members[result.user_id],
                rated_games=current[result.user_id].rated_games + 1,
                updated_at=now,
            )
        )


def _insert_missing(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert the rows whose key is not there yet, without failing when a concurrent game
    inserted one first (PostgreSQL): ON CONFLICT DO NOTHING where the dialect has it."""
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        statement = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(table)
        conn.execute(statement.on_conflict_do_nothing(), rows)
        return
    keys = list(table.primary_key.columns)
    existing = {
        tuple(row)
        for row in conn.execute(
            select(*keys).where(table.c.user_id.in_([r["user_id"] for r in rows]))
        )
    }
    missing = [r for r in rows if tuple(r[c.name] for c in keys) not in existing]
    if missing:
        conn.execute(insert(table), missing)
