"""SQLAlchemy Core statements compiled once for a plain ``sqlite3`` connection.

The group-commit writer (``writer.py``) runs on its own ``sqlite3`` connection for speed, but
its statements are built from the same tables as the rest of the store (``models.py``) and its
values go through the same column types (JSON documents, UTC times), so a schema change is one
model and one migration, and both write paths store a value alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement, ColumnElement
from sqlalchemy.sql.type_api import TypeEngine

from .models import UTCDateTime

#: The dialect of Python's own ``sqlite3`` module, which the writer's connection is.
DIALECT = SQLiteDialect_pysqlite()

Processor = Callable[[Any], Any] | None


def _bind_processor(type_: TypeEngine[Any]) -> Processor:
    # A stored time in one call (``UTCDateTime.sqlite_text``): SQLAlchemy's processors chain
    # the decorator's and the dialect's, several calls a value.
    if isinstance(type_, UTCDateTime):
        return UTCDateTime.sqlite_text
    return type_.dialect_impl(DIALECT).bind_processor(DIALECT)


def _result_processor(type_: TypeEngine[Any]) -> Processor:
    return type_.dialect_impl(DIALECT).result_processor(DIALECT, None)


def stored_form(column: ColumnElement[Any]) -> Callable[[Any], Any]:
    """How ``column``'s type stores a value on SQLite (for :meth:`Statement.params`' ``stored``)."""
    process = _bind_processor(column.type)
    return (lambda value: value) if process is None else process


class Statement:
    """One statement: its SQL text (``?`` placeholders, which ``sqlite3`` caches compiled), the
    parameters it takes by name, and the columns it returns, read by name.

    ``columns`` names the columns an INSERT or UPDATE sets from parameters of those names."""

    def __init__(self, statement: ClauseElement, columns: Sequence[str] | None = None) -> None:
        compiled = cast(
            SQLCompiler,
            statement.compile(
                dialect=DIALECT, column_keys=None if columns is None else list(columns)
            ),
        )
        self.sql = compiled.string
        names = compiled.positiontup or []
        binds = [compiled.binds[name] for name in names]
        # A column default or onupdate that SQLAlchemy computes in Python at execution (like
        # ``updated_at``'s) does not run here: the caller gives that value too.
        computed = {c.key for c in (*compiled.insert_prefetch, *compiled.update_prefetch)}
        # (name, whether the caller gives it, else the statement's own value, processor)
        self._params: list[tuple[str, bool, Any, Processor]] = [
            (
                name,
                bind.required or name in computed,
                bind.effective_value,
                _bind_processor(bind.type),
            )
            for name, bind in zip(names, binds, strict=True)
        ]
        returned = getattr(statement, "exported_columns", ())
        self._results: list[tuple[str, Processor]] = [
            (column.name, _result_processor(column.type)) for column in returned
        ]

    def params(
        self, values: Mapping[str, Any], stored: Mapping[str, Any] | None = None
    ) -> tuple[Any, ...]:
        """The positional parameters for ``values`` (by name), each as its column stores it.
        ``stored`` holds values already in stored form (see :func:`stored_form`): one time
        written by several statements of a commit is converted once."""
        out = []
        for name, given, constant, process in self._params:
            if given and stored is not None and name in stored:
                out.append(stored[name])
                continue
            value = values[name] if given else constant
            out.append(value if process is None else process(value))
        return tuple(out)

    def row(self, row: Sequence[Any]) -> dict[str, Any]:
        """A returned row by column name, each value as its column reads it."""
        return {
            name: value if process is None else process(value)
            for (name, process), value in zip(self._results, row, strict=True)
        }


def batched(insert: Statement) -> str:
    """``insert`` (an INSERT of one row) for many rows at once, given as one parameter: a JSON
    array of rows, each the positional parameters ``insert.params`` gives, in order. SQLite's
    ``json_each`` reads each value back as it was (integers as integers, text as text), so the
    rows are stored exactly as ``insert`` would store them one by one."""
    head, values, tail = insert.sql.rpartition(" VALUES (")
    width = tail.count("?")
    if not values or tail != ", ".join(["?"] * width) + ")":
        raise ValueError(f"not a one-row INSERT: {insert.sql}")
    columns = ", ".join(f"row.value ->> {i}" for i in range(width))
    return f"{head} SELECT {columns} FROM json_each(?) AS row"
