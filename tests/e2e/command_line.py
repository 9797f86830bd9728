"""``python -m bot`` run as a deployment runs it, in a folder of its own (no .env there)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.support.processes import run

from .conftest import REPO


def cli_env(tmp_path: Path, **env: str) -> dict[str, str]:
    """The environment of ``python -m bot`` run in ``tmp_path``: no DISCORD_ setting but
    ``env``'s, its database there."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    clean.update(PYTHONPATH=str(REPO), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    clean.update(env)
    return clean


async def run_cli(
    tmp_path: Path, *args: str, prefix: tuple[str, ...] = (), **env: str
) -> tuple[int, str, str]:
    """``python -m bot *args`` in ``tmp_path`` (no .env there) to its end; killed if it runs on.
    ``prefix`` runs it through another command (``unshare …``)."""
    done = await run(
        [*prefix, sys.executable, "-m", "bot", *args],
        timeout=90,
        cwd=tmp_path,
        env=cli_env(tmp_path, **env),
    )
    return done.code, done.out, done.err
