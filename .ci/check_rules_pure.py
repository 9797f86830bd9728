"""Fails if anything under rules/ imports something other than the standard library or rules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "rules"
ALLOWED = set(sys.stdlib_module_names) | {"rules", "__future__"}


def offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            if name.split(".")[0] not in ALLOWED:
                bad.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: imports {name}")
    return bad


def main() -> int:
    found = [line for path in sorted(ROOT.rglob("*.py")) for line in offences(path)]
    for line in found:
        print(line)
    if found:
        print("rules/ must import only the standard library.")
        return 1
    print(
        f"rules/ is pure: {len(list(ROOT.rglob('*.py')))} modules import only the standard library."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
