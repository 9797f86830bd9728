"""The group writer's statements come from the models (issue 22): parameters by name, values
through the columns' own types, and a default SQLAlchemy would compute in Python is the
caller's to give rather than silently NULL."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Table, bindparam, insert, select, update

from bot.store.models import Game, TimerRow, UTCDateTime
from bot.store.sqlite_sql import DIALECT, Statement, stored_form

GAMES = cast(Table, Game.__table__)
TIMERS = cast(Table, TimerRow.__table__)


def test_parameters_are_taken_by_name_and_stored_as_the_column_types_store_them() -> None:
    add = Statement(insert(TIMERS), ["game_id", "key", "due_at", "action", "created_at"])
    at = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=2)))
    params = add.params(
        {"created_at": at, "action": {"b": 1, "a": [2]}, "key": "turn", "due_at": at, "game_id": 3}
    )
    assert add.sql == (
        'INSERT INTO timers (game_id, "key", due_at, action, created_at) VALUES (?, ?, ?, ?, ?)'
    )
    stored = "2024-05-06 05:08:09.123456"  # UTC, naive, with microseconds: as UTCDateTime stores
    assert params == (3, "turn", stored, '{"b": 1, "a": [2]}', stored)


def test_a_naive_time_is_refused_as_the_store_refuses_it() -> None:
    add = Statement(insert(TIMERS), ["game_id", "key", "due_at", "action", "created_at"])
    naive = datetime(2024, 1, 1)
    with pytest.raises(ValueError, match="naive"):
        add.params({"game_id": 1, "key": "k", "due_at": naive, "action": {}, "created_at": naive})


def test_a_python_side_onupdate_must_be_given() -> None:
    """``updated_at`` is set by SQLAlchemy at execution; compiled for sqlite3 it is a parameter."""
    touch = Statement(update(GAMES).where(GAMES.c.id == bindparam("game_id")), ["snapshot_seq"])
    with pytest.raises(KeyError, match="updated_at"):
        touch.params({"game_id": 1, "snapshot_seq": 2})


def test_rows_are_read_by_name_through_the_column_types() -> None:
    read = Statement(
        select(GAMES.c.options, GAMES.c.finished_at, GAMES.c.version).where(
            GAMES.c.id == bindparam("game_id")
        )
    )
    conn = sqlite3.connect(":memory:")
    row = conn.execute("SELECT '{\"p\": \"2\"}', '2024-01-02 03:04:05.000006', 7").fetchone()
    assert read.row(row) == {
        "options": {"p": "2"},
        "finished_at": datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
        "version": 7,
    }
    assert read.params({"game_id": 9}) == (9,)


def test_a_value_given_in_stored_form_is_taken_as_it_is() -> None:
    """The writer converts its one time once for every statement of a commit."""
    add = Statement(insert(TIMERS), ["game_id", "key", "due_at", "action", "created_at"])
    at = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    stored = {"created_at": stored_form(TIMERS.c.created_at)(at)}
    values = {"game_id": 1, "key": "k", "due_at": at, "action": {}}
    assert add.params(values, stored) == add.params({**values, "created_at": at})
    assert stored == {"created_at": "2024-01-02 03:04:05.000000"}


def _sqlalchemy_form(value: datetime | None) -> object:
    """What SQLAlchemy's own processors store for a ``UTCDateTime`` value on SQLite."""
    column = cast(UTCDateTime, TIMERS.c.due_at.type)
    chained = column.dialect_impl(DIALECT).bind_processor(DIALECT)
    assert chained is not None
    return chained(value)


@settings(max_examples=300, deadline=None)
@given(
    at=st.datetimes(
        min_value=datetime(1, 1, 2),
        max_value=datetime(9999, 12, 30),
        timezones=st.sampled_from(
            [
                UTC,
                timezone(timedelta(0), "another UTC"),  # not ``UTC`` itself: converted
                timezone(timedelta(hours=2)),
                timezone(timedelta(hours=-9, minutes=-30)),
            ]
        ),
    )
)
def test_a_time_is_stored_in_one_call_exactly_as_sqlalchemy_stores_it(at: datetime) -> None:
    """``UTCDateTime.sqlite_text``, which the compiled statements use, is the same text as
    SQLAlchemy's decorator-then-dialect chain, whatever the zone or the microseconds."""
    assert UTCDateTime.sqlite_text(at) == _sqlalchemy_form(at)


def test_the_compiled_statements_store_times_in_the_one_call_form() -> None:
    assert stored_form(TIMERS.c.due_at) is UTCDateTime.sqlite_text
    assert stored_form(GAMES.c.updated_at) is UTCDateTime.sqlite_text


def test_the_one_call_form_refuses_a_naive_time_and_keeps_none() -> None:
    assert UTCDateTime.sqlite_text(None) is None is _sqlalchemy_form(None)
    with pytest.raises(ValueError, match="naive"):
        UTCDateTime.sqlite_text(datetime(2024, 1, 1))
    assert UTCDateTime.sqlite_text(datetime(2024, 1, 1, tzinfo=UTC)) == "2024-01-01 00:00:00.000000"
