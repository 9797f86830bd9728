"""What the emulator refuses (Discord's limits) and the Message helpers tests rely on."""

from __future__ import annotations

from typing import Any

import pytest

from bot.emulator import ApiError
from bot.emulator.limits import validate_commands, validate_message, validate_modal
from bot.emulator.models import World


def button(custom_id: str = "b", label: str | None = "Go", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"type": 2, "style": 1, "custom_id": custom_id, **extra}
    if label is not None:
        data["label"] = label
    return data


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(custom_id: str = "s", n: int = 3, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


def refused(payload: dict[str, Any], *, creating: bool = True) -> ApiError:
    with pytest.raises(ApiError) as info:
        validate_message(payload, creating=creating)
    return info.value


def error_codes(error: ApiError) -> list[str]:
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "_errors":
                    found.extend(e["code"] for e in value)
                else:
                    walk(value)

    walk(error.errors)
    return found


def test_content_limit_is_2000() -> None:
    validate_message({"content": "x" * 2000}, creating=True)
    error = refused({"content": "x" * 2001})
    assert (error.status, error.code) == (400, 50035)
    assert error.body()["errors"] == {
        "content": {
            "_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
            ]
        }
    }


def test_empty_message_on_create_only() -> None:
    assert refused({"content": ""}).code == 50006
    assert refused({"components": [row(button())]}).code == 50006
    validate_message({"content": ""}, creating=False)
    validate_message({}, creating=True, has_attachments=True)


@pytest.mark.parametrize(
    "embeds",
    [
        [{"title": "t"}] * 11,
        [{"title": "t" * 257}],
        [{"description": "d" * 4097}],
        [{"fields": [{"name": "n", "value": "v"}] * 26}],
        [{"fields": [{"name": "n", "value": "v" * 1025}]}],
        [{"fields": [{"name": "", "value": "v"}]}],
        [{"footer": {"text": "f" * 2049}}],
        [{"description": "d" * 4000}, {"description": "d" * 2001}],
    ],
    ids=[
        "11-embeds",
        "title",
        "description",
        "26-fields",
        "field-value",
        "empty-field-name",
        "footer",
        "total-6000",
    ],
)
def test_embed_limits(embeds: list[dict[str, Any]]) -> None:
    assert refused({"content": "x", "embeds": embeds}).code == 50035


def test_embeds_at_the_limits_pass() -> None:
    fields = [{"name": "n" * 10, "value": "v" * 40} for _ in range(25)]
    validate_message(
        {"embeds": [{"title": "t" * 256, "description": "d" * 4000, "fields": fields}]},
        creating=True,
    )


def test_component_layout_limits() -> None:
    ok = [row(*(button(f"{r}-{c}") for c in range(5))) for r in range(5)]
    validate_message({"content": "x", "components": ok}, creating=True)
    six_rows = [row(button(f"r{i}")) for i in range(6)]
    assert "BASE_TYPE_MAX_LENGTH" in error_codes(refused({"content": "x", "components": six_rows}))
    six_buttons = [row(*(button(f"b{i}") for i in range(6)))]
    assert "BASE_TYPE_BAD_LENGTH" in error_codes(
        refused({"content": "x", "components": six_buttons})
    )
    mixed = [row(select(), button())]
    assert "COMPONENT_LAYOUT_WIDTH_EXCEEDED" in error_codes(
        refused({"content": "x", "components": mixed})
    )
    bare = [button()]
    assert "COMPONENT_TYPE_INVALID" in error_codes(refused({"content": "x", "components": bare}))


def test_custom_id_label_and_option_limits() -> None:
    cases: list[tuple[list[dict[str, Any]], str]] = [
        ([row(button("x" * 101))], "BASE_TYPE_MAX_LENGTH"),
        ([row(button("same")), row(button("same"))], "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ([row(button("a", label="l" * 81))], "BASE_TYPE_MAX_LENGTH"),
        ([row(button("a", label=None))], "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"),
        (
            [row({"type": 2, "style": 5, "label": "l", "custom_id": "c", "url": "https://x"})],
            "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
        ),
        ([row(select(n=26))], "BASE_TYPE_BAD_LENGTH"),
        ([row(select(n=2, max_values=3))], "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS"),
        (
            [row({**select(n=2), "options": [{"label": "a", "value": "v"}] * 2})],
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        ),
    ]
    for components, code in cases:
        assert code in error_codes(refused({"content": "x", "components": components})), code
    validate_message(
        {"content": "x", "components": [row(button("x" * 100, label="l" * 80)), row(select(n=25))]},
        creating=True,
    )
    validate_message(
        {"content": "x", "components": [row(button("a", label=None, emoji={"name": "🐛"}))]},
        creating=True,
    )


def test_components_v2() -> None:
    text = {"type": 10, "content": "hello"}
    validate_message({"flags": 1 << 15, "components": [text]}, creating=True)
    assert refused({"flags": 1 << 15, "content": "x", "components": [text]}).code == 50035
    container = {"type": 17, "components": [text] * 40}
    assert "BASE_TYPE_MAX_LENGTH" in error_codes(
        refused({"flags": 1 << 15, "components": [container]})
    )


def test_command_validation() -> None:
    good = {"name": "bugs", "description": "d", "type": 1, "options": []}
    validate_commands([good])
    bad_cases: list[tuple[list[Any], str]] = [
        ([good, good], "APPLICATION_COMMANDS_DUPLICATE_NAME"),
        ([{**good, "name": "Bugs"}], "APPLICATION_COMMAND_INVALID_NAME"),
        ([{**good, "description": ""}], "BASE_TYPE_BAD_LENGTH"),
        (
            [
                {
                    **good,
                    "options": [
                        {"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)
                    ],
                }
            ],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [
                {
                    **good,
                    "options": [
                        {"type": 3, "name": "a", "description": "d"},
                        {"type": 3, "name": "b", "description": "d", "required": True},
                    ],
                }
            ],
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
    ]
    for commands, code in bad_cases:
        with pytest.raises(ApiError) as info:
            validate_commands(commands)
        assert code in error_codes(info.value), code


def test_modal_validation() -> None:
    text_input = {"type": 4, "custom_id": "t", "label": "Name", "style": 1}
    validate_modal({"custom_id": "m", "title": "Rename", "components": [row(text_input)]})
    with pytest.raises(ApiError):
        validate_modal({"custom_id": "m", "title": "t" * 46, "components": [row(text_input)]})


def test_message_helpers_and_history() -> None:
    world = World(app_name="bugtable")
    guild = world.add_guild("g")
    chan = world.add_text_channel(guild, "c")
    message = world.new_message(
        chan,
        {
            "content": "Board",
            "embeds": [{"title": "Turn 1", "fields": [{"name": "alice", "value": "3 bugs"}]}],
            "components": [row(button("g:join", label="Join", emoji={"name": "🐛"}))],
        },
    )
    assert message.text() == "Board\nTurn 1\nalice: 3 bugs"
    (join,) = message.buttons()
    assert (join.custom_id, join.label, join.emoji, join.style, join.disabled) == (
        "g:join",
        "Join",
        "🐛",
        1,
        False,
    )
    assert message.find_button(custom_id_prefix="g:") == join
    with pytest.raises(LookupError, match="Join"):
        message.find_button(label="Leave")
    assert not message.has_button(label="Leave")

    message.apply_edit({"content": "Board v2"}, now=1.0)
    assert message.embeds[0]["title"] == "Turn 1"  # absent keys keep their value
    message.apply_edit({"embeds": [], "components": [], "flags": 64}, now=2.0)
    assert message.flags == 0  # an edit cannot make a public message ephemeral
    assert [v.content for v in message.history] == ["Board", "Board v2"]
    assert "alice: 3 bugs" in message.all_text() and "Join" in message.all_text()
    payload = message.payload()
    assert {"id", "type", "content", "author", "channel_id"} <= payload.keys()
    assert payload["edited_timestamp"] is not None


def test_a_member_of_one_guild_is_not_a_member_of_another() -> None:
    """The e2e tests share one bot between tests, each in its own guild with its own members."""
    world = World(app_name="bugtable")
    first, second = world.add_guild("one"), world.add_guild("two")
    everywhere = world.add_user("old", dms_open=True, manage_channels=False)
    local = world.add_user(
        "new", dms_open=True, manage_channels=False, guild_ids=frozenset({second.id})
    )
    assert world.is_member(first, everywhere) and world.is_member(second, everywhere)
    assert world.is_member(second, local) and not world.is_member(first, local)
    members = {m["user"]["id"] for m in world.guild_create_payload(first)["members"]}
    assert str(local.id) not in members and str(everywhere.id) in members
