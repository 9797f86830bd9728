"""Counting how often a test's object has one of its methods called."""

from __future__ import annotations

from typing import Any

import pytest


def counting_calls(monkeypatch: pytest.MonkeyPatch, target: object, name: str) -> list[int]:
    """A list that gets an item each time ``target.name(...)`` is called (it still runs)."""
    calls: list[int] = []
    real = getattr(target, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, counted)
    return calls
