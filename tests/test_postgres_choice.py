"""Which PostgreSQL the tests use: TEST_DATABASE_URL when set, else the local server, and none
with TEST_DATABASE_URL=none (tests/support/databases.py)."""

from __future__ import annotations

import pytest

from tests.support import databases
from tests.support.databases import ENV, LOCAL, postgres_url


def test_unset_means_the_local_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert postgres_url() == LOCAL == "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    monkeypatch.setenv(ENV, "  ")
    assert postgres_url() == LOCAL


def test_a_given_url_overrides_and_none_turns_postgresql_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV, "postgresql+asyncpg://bugs@db.example.org/t")
    assert postgres_url() == "postgresql+asyncpg://bugs@db.example.org/t"
    for off in ("none", "NONE"):
        monkeypatch.setenv(ENV, off)
        assert postgres_url() is None


def test_the_header_names_the_server_or_says_why_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(databases, "postgres_unavailable", lambda: None)
    monkeypatch.setenv(ENV, "postgresql+asyncpg://bugs:secret@db.example.org/t")
    header = databases.postgres_header()
    assert header.startswith("PostgreSQL: postgresql+asyncpg://bugs:***@db.example.org/t")
    assert "secret" not in header
    monkeypatch.delenv(ENV)
    assert databases.postgres_header() == (
        f"PostgreSQL: {LOCAL} ({ENV} unset, the local server answered)"
    )
    monkeypatch.setattr(databases, "postgres_unavailable", lambda: "it is off")
    assert databases.postgres_header() == "PostgreSQL: none (it is off)"
