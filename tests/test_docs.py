"""The docs are self-contained (issue 13): every ruling the code cites is defined in
docs/rulings.md, and no file of the project points outside the repository for one.

A rule id is cited two ways: written out (``BR-64``, ``BC-X1``, ``P-12``) in code, comments and
docs, and folded into test names (``test_br64_…``, ``test_bb_x3_…``, ``test_bo4_bo_x7_…``).
Both must resolve to a table row of docs/rulings.md (``| BR-64 | … |``).
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
CODE_DIRS = ("rules", "bot", "tests")

RULE_ID = re.compile(r"\b(?:BR|BB|BC|BO|P)-X?[0-9]+\b")
ROW = re.compile(r"^\|\s*((?:BR|BB|BC|BO|P)-X?[0-9]+)\s*\|", re.MULTILINE)
TEST_NAME = re.compile(r"\bdef (test_\w+)")
# One ruling inside a test name: ``_br64``, ``_brx1``, ``_bb_x3`` (followed by ``_`` or the end).
NAME_PART = re.compile(r"(?:^|_)(bb|bc|bo|br)_?(x?)([0-9]+)(?=_|$)")

# Built from parts so that this file does not itself contain what it looks for.
OUTSIDE = ("../" + "shared", "shared/" + "RULINGS", "shared/" + "DESIGN")


def tracked_files() -> list[Path]:
    """The files git tracks (the project), or every file outside .git and .venv without git."""
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
        return [
            p
            for p in ROOT.rglob("*")
            if p.is_file() and not skip.intersection(p.relative_to(ROOT).parts)
        ]
    return [ROOT / name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


def defined_ids() -> list[str]:
    return ROW.findall(RULINGS.read_text(encoding="utf-8"))


def cited_ids() -> dict[str, set[str]]:
    """Rule id -> the files citing it: Python under rules/, bot/, tests/ and the docs."""
    cited: dict[str, set[str]] = {}
    files = [p for d in CODE_DIRS for p in sorted((ROOT / d).rglob("*.py"))]
    files += sorted((ROOT / "docs").glob("*.md"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        ids = set(RULE_ID.findall(text))
        for name in TEST_NAME.findall(text):
            for game, x, number in NAME_PART.findall(name.removeprefix("test")):
                ids.add(f"{game.upper()}-{x.upper()}{number}")
        for rule_id in ids:
            cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_test_names_are_read_as_rule_ids() -> None:
    parts = [
        NAME_PART.findall(name.removeprefix("test"))
        for name in ("test_br58_br42_x", "test_bb_x3_a", "test_brx1_b", "test_bo4_bo_x7_c")
    ]
    assert parts == [
        [("br", "", "58"), ("br", "", "42")],
        [("bb", "x", "3")],
        [("br", "x", "1")],
        [("bo", "", "4"), ("bo", "x", "7")],
    ]
    assert NAME_PART.findall("_bonus_3_brown_lt12_q09") == []


def test_every_cited_rule_id_is_defined_in_docs_rulings() -> None:
    defined = set(defined_ids())
    missing = [
        f"{i}: {', '.join(sorted(files))}"
        for i, files in sorted(cited_ids().items())
        if i not in defined
    ]
    assert not missing, "rule ids cited but not defined by a row of docs/rulings.md:\n" + "\n".join(
        missing
    )


def test_every_test_named_in_docs_rulings_exists() -> None:
    """A row's Test column must name real tests (a prefix such as ``test_br64_…`` is not a name)."""
    names = set()
    for path in (ROOT / "tests").rglob("*.py"):
        names |= set(TEST_NAME.findall(path.read_text(encoding="utf-8")))
    named = {
        m.group(0)
        for m in re.finditer(r"\btest_\w+(\.py)?", RULINGS.read_text(encoding="utf-8"))
        if not m.group(1) and not m.group(0).endswith("_")
    }
    assert not named - names, (
        f"docs/rulings.md names tests that do not exist: {sorted(named - names)}"
    )


def test_no_file_points_outside_the_repository() -> None:
    offenders = []
    for path in tracked_files():
        data = path.read_bytes()
        offenders += [
            f"{path.relative_to(ROOT)}: {needle}" for needle in OUTSIDE if needle.encode() in data
        ]
    assert not offenders, "files referring to documents outside the project:\n" + "\n".join(
        offenders
    )


def test_every_ruling_row_is_defined_once() -> None:
    twice = sorted(i for i, n in Counter(defined_ids()).items() if n > 1)
    assert not twice, f"rule ids with more than one row in docs/rulings.md: {twice}"


def test_platform_rulings_are_numbered_without_gaps_or_duplicates() -> None:
    numbers = [int(i[2:]) for i in defined_ids() if i.startswith("P-")]
    assert numbers, "docs/rulings.md has no platform ruling rows (| P-1 | … |)"
    twice = sorted(n for n, count in Counter(numbers).items() if count > 1)
    gaps = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
    assert not twice and not gaps, f"P rows: duplicated {twice}, missing {gaps}"
