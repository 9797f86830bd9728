"""What ``pip install .`` ships: every file of bot/, rules/ and migrations/ (a wheel without the
migrations gives a bot that cannot migrate its database, issue 22). Read off pyproject.toml as
setuptools reads it, without building (.ci/run builds and runs the real wheel)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from bot.store.migrate import MIGRATIONS_DIR

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "rules", "migrations")
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _files(top: str) -> list[Path]:
    return [
        p
        for p in (REPO / top).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    ]


def _package(folder: Path) -> str:
    return ".".join(folder.relative_to(REPO).parts)


def _is_package(name: str) -> bool:
    """setuptools' ``packages.find`` (namespace packages included, as pyproject.toml's default)."""
    return any(fnmatch(name, pattern) for pattern in SETUPTOOLS["packages"]["find"]["include"])


def _data_files() -> set[Path]:
    """The files ``package-data`` adds: each pattern is a glob under its package's folder."""
    data: set[Path] = set()
    for package, patterns in SETUPTOOLS["package-data"].items():
        folder = REPO.joinpath(*package.split("."))
        for pattern in patterns:
            data.update(p for p in folder.glob(pattern) if p.is_file())
    return data


def test_every_module_and_data_file_ships() -> None:
    data = _data_files()
    left_out = [
        str(p.relative_to(REPO))
        for top in SHIPPED
        for p in _files(top)
        if not (p.suffix == ".py" and _is_package(_package(p.parent))) and p not in data
    ]
    assert left_out == []


def test_the_migrations_ship_where_the_bot_looks_for_them() -> None:
    """Next to the ``bot`` package, in a checkout and in site-packages alike."""
    assert MIGRATIONS_DIR == REPO / "migrations"
    assert _is_package("migrations") and _is_package("migrations.versions")
    assert MIGRATIONS_DIR / "script.py.mako" in _data_files()


def test_the_bugtable_command_runs_the_bot() -> None:
    assert PYPROJECT["project"]["scripts"] == {"bugtable": "bot.__main__:main"}
