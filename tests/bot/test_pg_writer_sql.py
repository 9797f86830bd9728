"""PostgreSQL's group statement writes what the models hold (issue 22: the commit defined once):
its INSERTs name every column of the log and the timers, in the models' order, and a model with a
column the statement does not write stops the bot at import, not at a commit writing NULL."""

from __future__ import annotations

from typing import cast

import pytest
from sqlalchemy import Column, Integer, MetaData, Table

from bot.store import pg_writer
from bot.store.models import ActionRow, TimerRow


@pytest.mark.parametrize("model", [ActionRow, TimerRow])
def test_the_group_statement_writes_every_column_of_the_log_and_the_timers(model: type) -> None:
    table = cast(Table, model.__table__)
    columns = ", ".join(c.name for c in table.c)
    assert f"INSERT INTO {table.name} ({columns})" in pg_writer._GROUP


def test_a_column_the_statement_does_not_write_is_refused_at_once() -> None:
    grown = Table("actions", MetaData(), Column("game_id", Integer), Column("new", Integer))
    with pytest.raises(LookupError, match="actions"):
        pg_writer.written(grown, {"game_id": "id"})
    with pytest.raises(LookupError):  # nor a value for a column the model no longer has
        pg_writer.written(grown, {"game_id": "id", "new": "1", "gone": "2"})
    assert pg_writer.written(grown, {"new": "1", "game_id": "id"}) == ("game_id, new", "id, 1")
