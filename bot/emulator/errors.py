"""Errors of the emulator: API errors shaped like Discord's, and misuse of the test API."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class EmulatorError(Exception):
    """A test asked the emulator for something a Discord user could not do (a bug in the test)."""


class ApiError(Exception):
    """An HTTP error answered to the bot, with Discord's JSON body so discord.py parses it."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: JSON | None = None,
        headers: dict[str, str] | None = None,
        payload: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.payload = payload

    def body(self) -> JSON:
        """Discord's error shape; ``payload`` replaces it where Discord differs (429)."""
        if self.payload is not None:
            return self.payload
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")


def not_found_route() -> ApiError:
    return ApiError(404, 0, "404: Not Found")


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_guild() -> ApiError:
    return ApiError(404, 10004, "Unknown Guild")


def unknown_member() -> ApiError:
    return ApiError(404, 10007, "Unknown Member")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_user() -> ApiError:
    return ApiError(404, 10013, "Unknown User")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_application() -> ApiError:
    return ApiError(404, 10002, "Unknown Application")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def not_author() -> ApiError:
    return ApiError(403, 50005, "Cannot edit a message authored by another user")


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message")


def invalid_webhook_token() -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token")


def bad_request(message: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors={"_errors": [_err("BAD", message)]})


def _err(code: str, message: str) -> JSON:
    return {"code": code, "message": message}


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` object (code 50035)."""

    def __init__(self) -> None:
        self._errors: JSON = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self._errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append(_err(code, message))

    def __bool__(self) -> bool:
        return bool(self._errors)

    def raise_if_any(self) -> None:
        if self._errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=self._errors)
