"""rules/ must stay pure: the same check CI runs, so a local test run catches it too."""

from __future__ import annotations

import importlib.util
from pathlib import Path

CHECK = Path(__file__).resolve().parents[2] / ".ci" / "check_rules_pure.py"


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("check_rules_pure", CHECK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rules_import_only_the_standard_library() -> None:
    check = _load()
    assert [line for p in sorted(check.ROOT.rglob("*.py")) for line in check.offences(p)] == []


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    check = _load()
    bad = tmp_path / "rules" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("import discord\nfrom sqlalchemy import select\nimport json\n")
    check.ROOT = tmp_path / "rules"
    assert [line.split(": ", 1)[1] for line in check.offences(bad)] == [
        "imports discord",
        "imports sqlalchemy",
    ]
