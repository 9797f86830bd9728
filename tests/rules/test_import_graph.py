"""No import circles inside ``rules/``: each module's imports, parsed with ``ast``, form a DAG.

Every import counts, including ones under ``TYPE_CHECKING`` and inside functions: a circle
hidden from the interpreter still ties two modules into one unit that cannot be read,
tested or replaced alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"


def module_name(path: Path, base: Path = ROOT) -> str:
    """``rules/bug_off/engine.py`` -> ``rules.bug_off.engine``; a package is its ``__init__``."""
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = RULES) -> dict[str, Path]:
    return {module_name(path, root.parent): path for path in sorted(root.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` (at ``path``) imports, resolved like Python does:
    ``from pkg import sub`` names the submodule when there is one, else the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return {module for module in found if module in known and module != name}


def graph(root: Path = RULES) -> dict[str, set[str]]:
    table = modules(root)
    known = set(table)
    return {name: imported(name, path, known) for name, path in table.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk, each as the modules along it."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_rules_modules_import_no_circle() -> None:
    circles = cycles(graph())
    assert not circles, "import circles in rules/:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_the_check_sees_a_circle(tmp_path: Path) -> None:
    """The walk finds a circle through a ``TYPE_CHECKING`` import and a relative one."""
    package = tmp_path / "rules" / "game"
    package.mkdir(parents=True)
    (tmp_path / "rules" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text("from . import view\n")
    (package / "view.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .engine import Engine\n"
    )
    assert cycles(graph(tmp_path / "rules")) == [
        ["rules.game.engine", "rules.game.view", "rules.game.engine"]
    ]
