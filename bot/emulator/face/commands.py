"""The face's command box: completion and parsing of ``/bugs new bug-off first_player:1``.

Both read the slash commands the bot registered with the emulator (their subcommands, options
and choices), as Discord's client does; nothing here knows bugtable's commands. What the box
sends goes through ``Emulator.slash``, which checks it again as Discord would.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import JSON
from ..models import User

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10
TYPE_WORDS = {
    STRING: "text",
    INTEGER: "a whole number",
    BOOLEAN: "true or false",
    USER: "a member",
    NUMBER: "a number",
}
TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}
SHOWN = 25
"""Suggestions at most, as Discord's client lists them."""

Value = str | int | float | bool | User
NO_COMMANDS = (
    "The bot has registered no commands with this emulator yet: a bot registers them as it "
    "starts (bugtable's, once per database: `python -m bot sync` registers them again)."
)


class CommandError(Exception):
    """What is wrong with what was typed, in words for the person who typed it."""


@dataclass(frozen=True)
class Suggestion:
    text: str
    """The whole box once this suggestion is taken."""
    label: str
    detail: str
    kind: Literal["command", "option", "value"]


@dataclass(frozen=True)
class Invocation:
    """A command ready for ``Emulator.slash``: its path (``bugs new bug-off``) and options."""

    path: str
    options: dict[str, Value]


@dataclass(frozen=True)
class _Reached:
    """How far the typed words walk down the command tree."""

    path: list[str]
    node: JSON | None
    """The command or subcommand the words name (None: not one yet)."""
    rest: str
    """What follows the path (the options), untouched."""


_WORD = re.compile(r"\S+")


def _children(node: JSON) -> list[JSON]:
    return [o for o in node.get("options") or [] if o.get("type") in (SUBCOMMAND, GROUP)]


def _options(node: JSON) -> list[JSON]:
    return [o for o in node.get("options") or [] if o.get("type") not in (SUBCOMMAND, GROUP)]


def _walk(commands: Sequence[JSON], text: str) -> _Reached:
    """Follow whole words (each followed by a space, or the last one) down the tree."""
    body = text.lstrip().removeprefix("/")
    path: list[str] = []
    node: JSON | None = None
    choices: list[JSON] = [c for c in commands if c.get("type", 1) == 1]
    position = 0
    for match in _WORD.finditer(body):
        word = match.group()
        if node is not None and not _children(node):
            break
        found = next((c for c in choices if c["name"] == word), None)
        if found is None:
            break
        path.append(word)
        node = found
        choices = _children(found)
        position = match.end()
    return _Reached(path, node, body[position:])


def _split_options(node: JSON, rest: str) -> list[tuple[str, str]]:
    """``name:value`` pairs; a value runs up to the next ``name:`` of this command's options."""
    names = "|".join(re.escape(o["name"]) for o in _options(node))
    if not names:
        return [] if not rest.strip() else [("", rest.strip())]
    marker = re.compile(rf"(?:^|\s)({names}):")
    found = list(marker.finditer(rest))
    lead = rest[: found[0].start()] if found else rest
    pairs: list[tuple[str, str]] = [("", lead.strip())] if lead.strip() else []
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(rest)
        pairs.append((match.group(1), rest[match.end() : end].strip()))
    return pairs


def complete(commands: Sequence[JSON], text: str, members: Sequence[User]) -> list[Suggestion]:
    """What Discord's client would offer for ``text``: commands, then options, then values."""
    reached = _walk(commands, text)
    typed = text.lstrip().removeprefix("/")
    head = "/" + " ".join(reached.path)
    node = reached.node
    if node is None or _children(node):
        siblings = (
            _children(node) if node is not None else [c for c in commands if c.get("type", 1) == 1]
        )
        prefix = reached.rest.strip()
        if " " in prefix:
            return []
        base = head + " " if reached.path else "/"
        return [
            Suggestion(
                text=f"{base}{c['name']} ",
                label=f"{base}{c['name']}",
                detail=str(c.get("description", "")),
                kind="command",
            )
            for c in siblings
            if c["name"].startswith(prefix)
        ][:SHOWN]
    if not typed.endswith(" ") and reached.rest == "" and typed:
        return [
            Suggestion(
                text=head + " ", label=head, detail=str(node.get("description", "")), kind="command"
            )
        ]
    options = {o["name"]: o for o in _options(node)}
    pairs = _split_options(node, reached.rest)
    given = {name for name, _ in pairs if name}
    before = text[: len(text) - len(_last_word(text))]
    last = _last_word(text)
    if ":" in last and last.split(":", 1)[0] in options:
        name, value = last.split(":", 1)
        return _values(before + name + ":", options[name], value, members)
    return [
        Suggestion(
            text=f"{before}{o['name']}:",
            label=f"{o['name']}:",
            detail=_option_detail(o),
            kind="option",
        )
        for o in sorted(options.values(), key=lambda o: not o.get("required"))
        if o["name"] not in given and o["name"].startswith(last)
    ][:SHOWN]


def _last_word(text: str) -> str:
    return "" if not text or text[-1].isspace() else text.split()[-1]


def _option_detail(option: JSON) -> str:
    need = "required" if option.get("required") else "optional"
    kind = TYPE_WORDS.get(int(option.get("type", STRING)), "a value")
    return f"{option.get('description', '')} ({need}, {kind})"


def _values(lead: str, option: JSON, typed: str, members: Sequence[User]) -> list[Suggestion]:
    kind = int(option.get("type", STRING))
    wanted = typed.lower()
    candidates: list[tuple[str, str]]
    if option.get("choices"):
        candidates = [(str(c["value"]), str(c["name"])) for c in option["choices"]]
    elif kind == BOOLEAN:
        candidates = [("true", "yes"), ("false", "no")]
    elif kind == USER:
        candidates = [(m.name, "a member") for m in members]
    else:
        return []
    return [
        Suggestion(text=f"{lead}{value} ", label=value, detail=name, kind="value")
        for value, name in candidates
        if value.lower().startswith(wanted) or name.lower().startswith(wanted)
    ][:SHOWN]


def parse(commands: Sequence[JSON], text: str, members: Sequence[User]) -> Invocation:
    """``text`` as a command to run; CommandError says what is missing or wrong."""
    if not text.strip():
        raise CommandError("Type a command, e.g. /bugs new.")
    reached = _walk(commands, text)
    node = reached.node
    if node is None:
        first = text.strip().removeprefix("/").split()[0] if text.strip("/ ") else ""
        known = ", ".join(f"/{c['name']}" for c in commands if c.get("type", 1) == 1)
        if not known:
            raise CommandError(NO_COMMANDS)
        raise CommandError(f"No command /{first}. The bot offers: {known}.")
    path = " ".join(reached.path)
    if _children(node):
        subs = ", ".join(c["name"] for c in _children(node))
        raise CommandError(f"/{path} needs one of: {subs}.")
    options = {o["name"]: o for o in _options(node)}
    values: dict[str, Value] = {}
    for name, raw in _split_options(node, reached.rest):
        if not name:
            hint = ", ".join(f"{n}:" for n in options) or "no options"
            raise CommandError(f"/{path} does not understand {raw!r} (it takes {hint}).")
        values[name] = _value(options[name], raw, members)
    missing = [n for n, o in options.items() if o.get("required") and n not in values]
    if missing:
        raise CommandError(f"/{path} needs {', '.join(f'{n}:' for n in missing)}.")
    return Invocation(path, values)


def _value(option: JSON, raw: str, members: Sequence[User]) -> Value:
    name = option["name"]
    kind = int(option.get("type", STRING))
    if not raw:
        raise CommandError(f"{name}: give a value after the colon.")
    if option.get("choices"):
        for choice in option["choices"]:
            if raw == str(choice["value"]) or raw.lower() == str(choice["name"]).lower():
                return choice["value"]
        listed = ", ".join(str(c["value"]) for c in option["choices"])
        raise CommandError(f"{name}: {raw!r} is not one of {listed}.")
    if kind == INTEGER:
        try:
            return int(raw)
        except ValueError:
            raise CommandError(f"{name}: write a whole number, not {raw!r}.") from None
    if kind == NUMBER:
        try:
            return float(raw)
        except ValueError:
            raise CommandError(f"{name}: write a number, not {raw!r}.") from None
    if kind == BOOLEAN:
        if raw.lower() in TRUE_WORDS | FALSE_WORDS:
            return raw.lower() in TRUE_WORDS
        raise CommandError(f"{name}: write true or false, not {raw!r}.")
    if kind == USER:
        wanted = raw.removeprefix("<@").removesuffix(">").lstrip("@!").lower()
        for member in members:
            if wanted in (member.name.lower(), str(member.id)):
                return member
        raise CommandError(f"{name}: no member {raw!r}.")
    if kind == STRING:
        return raw
    raise CommandError(f"{name}: the command box cannot give this kind of option.")
