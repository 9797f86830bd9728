"""Errors raised by engines. Their messages are shown to players, so they are written for them."""

from __future__ import annotations


class RuleError(Exception):
    """The action is not allowed now. Raising it must leave the game unchanged."""

    def __init__(self, message: str, *, code: str = "illegal") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message
