"""The face's command box: completion and parsing read the registered command tree (its
subcommands, options and choices) as Discord's client does, and say what is wrong in words."""

from __future__ import annotations

from typing import Any

import pytest

from bot.emulator.face.commands import CommandError, Invocation, complete, parse
from bot.emulator.models import User

ANN = User(id=11, name="Ann")
BO = User(id=12, name="Bo")
MEMBERS = [ANN, BO]


def option(name: str, kind: int, *, required: bool = False, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "description": f"the {name}", "required": required, **more}


COMMANDS: list[dict[str, Any]] = [
    {
        "name": "club",
        "type": 1,
        "description": "Club things.",
        "options": [
            {
                "name": "open",
                "type": 2,
                "description": "Open something.",
                "options": [
                    {"name": "dice", "type": 1, "description": "A dice table.", "options": []},
                    {
                        "name": "darts",
                        "type": 1,
                        "description": "A darts board.",
                        "options": [
                            option(
                                "first",
                                3,
                                choices=[
                                    {"name": "At random", "value": "random"},
                                    {"name": "The opener", "value": "1"},
                                ],
                            )
                        ],
                    },
                ],
            },
            {
                "name": "score",
                "type": 1,
                "description": "Say a score.",
                "options": [
                    option("points", 4, required=True),
                    option("member", 6),
                    option("loud", 5),
                    option("note", 3),
                    option("ratio", 10),
                ],
            },
        ],
    },
    {"name": "cheer", "type": 1, "description": "Cheer.", "options": []},
    {"name": "Inspect", "type": 2, "description": "", "options": []},  # a context-menu command
]


def texts(typed: str) -> list[str]:
    return [s.text for s in complete(COMMANDS, typed, MEMBERS)]


def test_commands_are_completed_word_by_word() -> None:
    assert texts("/") == ["/club ", "/cheer "]  # a context-menu command is not typed
    assert texts("/c") == ["/club ", "/cheer "]
    assert texts("/cl") == ["/club "]
    assert texts("/club ") == ["/club open ", "/club score "]
    assert texts("/club open d") == ["/club open dice ", "/club open darts "]
    assert texts("/club open da") == ["/club open darts "]
    assert texts("/club open darts") == ["/club open darts "]
    assert texts("/nothing") == []
    first = complete(COMMANDS, "/club open da", MEMBERS)[0]
    assert (first.label, first.detail, first.kind) == (
        "/club open darts",
        "A darts board.",
        "command",
    )


def test_options_come_required_first_and_once() -> None:
    assert texts("/club score ") == [
        "/club score points:",
        "/club score member:",
        "/club score loud:",
        "/club score note:",
        "/club score ratio:",
    ]
    assert texts("/club score points:3 ") == [
        "/club score points:3 member:",
        "/club score points:3 loud:",
        "/club score points:3 note:",
        "/club score points:3 ratio:",
    ]
    assert texts("/club score points:3 l") == ["/club score points:3 loud:"]
    detail = complete(COMMANDS, "/club score p", MEMBERS)[0].detail
    assert detail == "the points (required, a whole number)"


def test_values_are_offered_from_choices_booleans_and_members() -> None:
    assert texts("/club open darts first:") == [
        "/club open darts first:random ",
        "/club open darts first:1 ",
    ]
    # A choice is found by its value or by its name, as it reads.
    assert texts("/club open darts first:the") == ["/club open darts first:1 "]
    assert texts("/club score points:2 loud:") == [
        "/club score points:2 loud:true ",
        "/club score points:2 loud:false ",
    ]
    assert texts("/club score points:2 member:b") == ["/club score points:2 member:Bo "]
    assert texts("/club score points:") == []  # a number: nothing to offer


def test_a_typed_command_becomes_its_path_and_typed_options() -> None:
    assert parse(COMMANDS, "/cheer", MEMBERS) == Invocation("cheer", {})
    assert parse(COMMANDS, "club open dice ", MEMBERS) == Invocation("club open dice", {})
    assert parse(
        COMMANDS,
        "/club score points:7 member:@bo loud:yes note:well played, all ratio:0.5",
        MEMBERS,
    ) == Invocation(
        "club score",
        {"points": 7, "member": BO, "loud": True, "note": "well played, all", "ratio": 0.5},
    )
    assert parse(COMMANDS, "/club score member:<@11> points:1", MEMBERS).options["member"] is ANN
    assert parse(COMMANDS, "/club open darts first:The opener", MEMBERS).options == {"first": "1"}


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "Type a command"),
        ("/dance", "No command /dance. The bot offers: /club, /cheer."),
        ("/club", "/club needs one of: open, score."),
        ("/club open", "/club open needs one of: dice, darts."),
        ("/club score", "/club score needs points:."),
        ("/club score points:many", "points: write a whole number, not 'many'."),
        ("/club score points:1 ratio:half", "ratio: write a number, not 'half'."),
        ("/club score points:1 loud:maybe", "loud: write true or false, not 'maybe'."),
        ("/club score points:1 member:Cy", "member: no member 'Cy'."),
        ("/club score points:", "points: give a value after the colon."),
        ("/club open darts first:last", "first: 'last' is not one of random, 1."),
        ("/club open darts now", "/club open darts does not understand 'now' (it takes first:)."),
        ("/cheer loudly", "/cheer does not understand 'loudly' (it takes no options)."),
    ],
)
def test_what_is_wrong_is_said_in_words(typed: str, said: str) -> None:
    with pytest.raises(CommandError) as raised:
        parse(COMMANDS, typed, MEMBERS)
    assert str(raised.value).startswith(said)


def test_a_bot_that_registered_nothing_is_said_so() -> None:
    """A bot whose database says its commands were synced (to an earlier emulator) registers
    none with a new one: the box says what to do, not that the command does not exist."""
    with pytest.raises(CommandError) as raised:
        parse([], "/bugs new", MEMBERS)
    assert "registered no commands with this emulator yet" in str(raised.value)
    assert "python -m bot sync" in str(raised.value)
    assert complete([], "/", MEMBERS) == []
