"""Holding engines and presenters to a game's typed contract (``rules/<game>/contract.py``).

mypy checks that rules and presenters agree on the declared shapes; these helpers check that
the runtime values really have them (random games' views, actions and events) and that a
presenter's formatter table covers every event type the contract declares, so an event an
engine can emit never reaches a presenter that has no words for it.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from rules.core import Engine, Event, Rng, random_playout


def conforms(value: Any, shape: Any, where: str = "value") -> list[str]:
    """Every place where ``value`` does not fit the type ``shape`` (empty when it does).

    Understands what contracts use: TypedDicts, ``list``, ``dict``, ``Literal``, unions and
    ``None``, plain ``int``/``str``/``bool``/``float`` and ``Any``."""
    if shape is Any or shape is object:
        return []
    if shape is None or shape is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    origin = get_origin(shape)
    if origin is Literal:
        return [] if value in get_args(shape) else [f"{where}: {value!r} not in {shape}"]
    if origin is Union or origin is types.UnionType:
        tries = [conforms(value, option, where) for option in get_args(shape)]
        return [] if any(not t for t in tries) else min(tries, key=len)
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {shape.__name__}"]
        hints = get_type_hints(shape)
        wrong = [
            f"{where}: key {key!r} {'missing' if key not in value else 'undeclared'}"
            for key in sorted(set(shape.__required_keys__) - value.keys() | value.keys() - hints)
        ]
        for key, hint in hints.items():
            if key in value:
                wrong += conforms(value[key], hint, f"{where}.{key}")
        return wrong
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        (item,) = get_args(shape)
        return [bad for i, v in enumerate(value) for bad in conforms(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict"]
        key_type, value_type = get_args(shape)
        return [
            bad
            for k, v in value.items()
            for bad in (
                *conforms(k, key_type, f"{where} key"),
                *conforms(v, value_type, f"{where}[{k!r}]"),
            )
        ]
    if shape is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif shape is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, shape)
    return [] if ok else [f"{where}: {value!r} is not {shape.__name__}"]


def action_shapes(union: Any) -> dict[str, Any]:
    """Action type -> its TypedDict, from a contract's union of action TypedDicts."""
    shapes: dict[str, Any] = {}
    for shape in get_args(union):
        (kind,) = get_args(get_type_hints(shape)["type"])
        shapes[kind] = shape
    return shapes


@dataclass
class Seen:
    """What random games showed: every event, view and action, for the contract checks."""

    events: list[Event] = field(default_factory=list)
    views: list[Mapping[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)


def play_random(new: Callable[[int, int], Engine], games: Iterable[tuple[int, int]]) -> Seen:
    """Random games for each ``(players, seed)``, replayed to sample views and actions."""
    seen = Seen()
    for players, seed in games:
        playout = random_playout(new(players, seed), Rng(seed))
        seen.events += playout.events
        game = new(players, seed)
        for step, (seat, action) in enumerate(playout.log):
            if step % 3 == 0 or game.is_over:
                seen.views.append(game.view(None))
                seen.views += [game.view(s) for s in range(players)]
                for s in range(players):
                    seen.actions += game.legal_actions(s)
            seen.actions += [d.action for d in game.deadlines()]
            game.apply(seat, action)
        seen.views.append(game.view(None))
        seen.views += [game.view(s) for s in range(players)]
    return seen


def check_contract(
    seen: Seen,
    *,
    view: Any,
    actions: Any,
    action_types: Any,
    events: Mapping[str, Any],
    event_types: Any,
) -> None:
    """Random play keeps to the contract: shapes of views, actions and event data, and no
    action or event type outside its ``Literal``."""
    assert set(events) == set(get_args(event_types)), "EVENTS and EventType disagree"
    shapes = action_shapes(actions)
    assert set(shapes) == set(get_args(action_types)), "the action union and ActionType disagree"
    for raw in seen.views:
        assert not (bad := conforms(raw, view, "view")), sorted(set(bad))[:30]
    for action in seen.actions:
        assert action["type"] in shapes, action
        assert not (bad := conforms(action, shapes[action["type"]], "action")), sorted(set(bad))[
            :30
        ]
    for event in seen.events:
        assert event.type in events, f"{event.type!r} is not a declared event type"
        where = f"event {event.type}"
        assert not (bad := conforms(event.data, events[event.type], where)), sorted(set(bad))[:30]


def check_formatters(
    formatters: Mapping[str, Callable[..., Any]],
    handled: Any,
    events: Mapping[str, Any],
    seen: Seen | None = None,
    *,
    data_arg: str = "d",
) -> None:
    """The presenter's table has a formatter for exactly the event types of ``handled`` (a
    ``Literal``), each typed for that event's data; and every such event random games
    emitted has one."""
    declared = set(get_args(handled))
    missing = declared - set(formatters)
    assert not missing, f"event types with no formatter: {sorted(missing)}"
    assert not set(formatters) - declared, (
        f"formatters for undeclared events: {set(formatters) - declared}"
    )
    for kind, formatter in formatters.items():
        hinted = get_type_hints(formatter).get(data_arg)
        assert hinted is events[kind], f"{kind}'s formatter reads {hinted}, not {events[kind]}"
    if seen is not None:
        emitted = {e.type for e in seen.events if e.is_public}
        assert not emitted - set(formatters), (
            f"emitted without a formatter: {emitted - set(formatters)}"
        )
