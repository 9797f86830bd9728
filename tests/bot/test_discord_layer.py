"""The Discord layer's pure pieces: custom ids, rendering, the slash command definitions."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.discord.client import BugtableBot
from bot.discord.codec import (
    CodecError,
    decode_action,
    decode_number,
    encode_action,
    game_button_id,
    host_button_id,
)
from bot.discord.commands import BugsCog
from bot.discord.components import GAME_BUTTON, HOST_BUTTON, route
from bot.discord.render import edit_kwargs, send_kwargs, view_of
from bot.games import Game
from bot.games import games as registered_games
from bot.host.policy import SPEEDS
from bot.settings import OLD_TIMER_NAMES, Settings, SettingsError, declared_timers
from bot.ui.lobby import lobby_message
from bot.ui.options import RULE_CODE, chosen_in_words, words_for
from bot.ui.presenter import presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec, SelectOption, SelectSpec
from rules.core import SYSTEM, Rng
from rules.core.engine import GameOption
from tests.support.tables import act, make_table


def test_game_button_ids_round_trip_and_respect_the_limit() -> None:
    action = {"type": "grab", "token": 3}
    custom_id = game_button_id(12345, 77, action)
    assert custom_id == 'g:12345:77:{"token":3,"type":"grab"}'
    match = GAME_BUTTON.fullmatch(custom_id)
    assert match and decode_action(match["payload"]) == action and match["turn"] == "77"
    with pytest.raises(CodecError):
        game_button_id(1, 1, {"type": "x" * 100})
    with pytest.raises(CodecError):
        decode_action("[1]")
    assert HOST_BUTTON.fullmatch(host_button_id(5, "join"))
    with pytest.raises(CodecError):
        host_button_id(5, "explode")


@pytest.mark.parametrize(
    "payload",
    [
        "{not json}",
        '{"type":' + "[" * 5000 + "]" * 5000 + "}",  # deeper than json.loads can go
        '{"type":"' + "x" * 200 + '"}',  # longer than any custom id
        '{"type":"x","a":[[[[1]]]]}',  # deeper than any action
        '{"type":1}',
    ],
)
def test_decoding_is_bounded_and_refuses_what_bugtable_did_not_make(payload: str) -> None:
    with pytest.raises(CodecError):
        decode_action(payload)


_SCALARS = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
_ACTIONS = st.dictionaries(
    st.text(max_size=6),
    st.recursive(
        _SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=6,
    ),
    max_size=4,
)


@given(_ACTIONS)
def test_an_action_is_encoded_as_sorted_compact_json(action: dict[str, Any]) -> None:
    """orjson writes the custom ids (issue #21): the very text the standard library's sorted,
    compact, unescaped dump gives, so ids old and new name an action alike."""
    expected = json.dumps(action, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    assert encode_action(action) == expected
    assert json.loads(encode_action(action)) == action


def test_numbers_fit_the_database() -> None:
    assert decode_number("9" * 18) == 10**18 - 1
    for bad in ("9" * 19, "", "١٢", "-1"):
        with pytest.raises(CodecError):
            decode_number(bad)


def test_render_builds_persistent_rows() -> None:
    spec = MessageSpec(
        content="hi",
        rows=(
            (ButtonSpec("Draw", action={"type": "draw"}), ButtonSpec("My hand", host="hand")),
            SelectSpec("Pick", (SelectOption("one", {"type": "pick", "n": 1}, emoji="🐞"),)),
        ),
    )
    view = view_of(spec, 9, 4)
    assert view is not None and view.timeout is None
    assert not view.is_dispatchable()  # discord.py keeps nothing: clicks are routed by id
    assert view.to_components() == [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 2,
                    "custom_id": 'g:9:4:{"type":"draw"}',
                    "label": "Draw",
                    "disabled": False,
                },
                {
                    "type": 2,
                    "style": 2,
                    "custom_id": "h:9:hand",
                    "label": "My hand",
                    "disabled": False,
                },
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "s:9:4:1",
                    "placeholder": "Pick",
                    "min_values": 1,
                    "max_values": 1,
                    "disabled": False,
                    "options": [
                        {
                            "label": "one",
                            "value": '{"n":1,"type":"pick"}',
                            "default": False,
                            "emoji": {"id": None, "name": "🐞"},
                        }
                    ],
                }
            ],
        },
    ]
    assert view.custom_ids() == ['g:9:4:{"type":"draw"}', "h:9:hand", "s:9:4:1"]
    assert send_kwargs(MessageSpec(content="x"), 1, 1) == {"content": "x"}
    assert edit_kwargs(MessageSpec(content="x"), 1, 1)["view"] is None


class RecordingHandler:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def game_action(self, interaction: Any, game_id: int, turn: int, action: Any) -> None:
        self.calls.append(("game", game_id, turn, action))

    async def host_op(self, interaction: Any, game_id: int, op: str) -> None:
        self.calls.append(("host", game_id, op))

    async def invalid(self, interaction: Any) -> None:
        self.calls.append(("invalid",))

    async def stale(self, interaction: Any, game_id: int, turn: int, action: Any) -> None:
        self.calls.append(("stale", game_id, turn, action))

    async def rules_page(self, interaction: Any, slug: str, page: int) -> None:
        self.calls.append(("rules", slug, page))


def clicked(custom_id: str, kind: int, on_message: list[tuple[str, int]], **data: Any) -> Any:
    """A component interaction on a message whose components are ``on_message`` (id, type)."""
    rows = [
        SimpleNamespace(
            children=[
                SimpleNamespace(custom_id=cid, type=discord.ComponentType(t))
                for cid, t in on_message
            ]
        )
    ]
    return SimpleNamespace(
        data={"custom_id": custom_id, "component_type": kind, **data},
        message=SimpleNamespace(components=rows),
    )


DRAW = 'g:9:4:{"type":"draw"}'
BOARD = [(DRAW, 2), ("h:9:hand", 2), ("s:9:4:1", 3)]


@pytest.mark.parametrize(
    ("interaction", "call"),
    [
        (clicked(DRAW, 2, BOARD), ("game", 9, 4, {"type": "draw"})),
        (clicked("h:9:hand", 2, BOARD), ("host", 9, "hand")),
        (
            clicked("s:9:4:1", 3, BOARD, values=['{"n":1,"type":"pick"}']),
            ("game", 9, 4, {"n": 1, "type": "pick"}),
        ),
        # a menu with no single choice: the engine refuses the empty action
        (clicked("s:9:4:1", 3, BOARD, values=[]), ("game", 9, 4, {"type": ""})),
        (clicked("s:9:4:1", 3, BOARD, values=["{not json"]), ("invalid",)),
        # a game button of an earlier state of the message (a double click): the edge judges it
        (clicked('g:9:3:{"type":"draw"}', 2, BOARD), ("stale", 9, 3, {"type": "draw"})),
        (clicked("h:9:join", 2, BOARD), ("invalid",)),  # not on the message
        (clicked("r:bug-off:1", 2, [("r:bug-off:1", 2)]), ("rules", "bug-off", 1)),
        (clicked("r:bug-off:99", 2, [("r:bug-off:99", 2)]), ("invalid",)),  # no such page
        (clicked("r:no-game:0", 2, [("r:no-game:0", 2)]), ("invalid",)),  # no such game
        (clicked("x:1", 2, [("x:1", 2)]), ("invalid",)),  # not an id of ours
        (clicked(DRAW, 3, [(DRAW, 3)]), ("invalid",)),  # a game button id on a menu
        (clicked("g:9:4:{garbled}", 2, [("g:9:4:{garbled}", 2)]), ("invalid",)),
        (clicked("g:" + "9" * 19 + ":4:{}", 2, [("g:" + "9" * 19 + ":4:{}", 2)]), ("invalid",)),
    ],
)
async def test_clicks_are_routed_by_their_custom_id(
    interaction: Any, call: tuple[Any, ...]
) -> None:
    handler = RecordingHandler()
    await route(interaction, handler)
    assert handler.calls == [call]


def test_lobby_and_generic_presenter_fit_discord_limits() -> None:
    table = make_table("ladybug-dash", 3)
    lobby = lobby_message(table.view())
    assert [b.label for b in lobby.buttons()] == [
        "Join",
        "Leave",
        "Start",
        "Cancel",
        "Add easy bot",
        "Add normal bot",
        "Add hard bot",
        "How to play",
    ]
    presenter = presenter_for("ladybug-dash")
    (board,) = presenter.boards(table.view())
    assert {b.label for b in board.buttons()} == {"claim", "cheer", "My hand"}
    view = view_of(board, table.id, 1)
    assert view is not None and len(view.custom_ids()) <= 25
    hand = presenter.hand(table.view(), 1)
    assert hand is not None and hand.embed is not None
    assert "my_card" not in str(board) and "my_card" in (hand.embed.description or "")
    outcome = act(table, 0, {"type": "claim"})
    assert presenter.log_lines(table.view(), outcome) == ["p0: claimed: seat 0, round 1"]


def test_generic_reply_shows_only_the_actors_private_events() -> None:
    table = make_table("ladybug-dash", 2)
    act(table, 1, {"type": "claim"})
    outcome = act(table, 0, {"type": "pick", "n": 2})
    reply = presenter_for("ladybug-dash").reply(table.view(), outcome)
    assert reply is not None and reply.content == "you picked: n 2"


def bugs_group() -> tuple[app_commands.Group, BugtableBot]:
    """The `/bugs` group as the bot declares it (its dependencies are not needed to declare)."""
    bot = BugtableBot(Settings(_env_file=None, discord_token="t" * 30))  # type: ignore[call-arg]
    unused: Any = None
    cog = BugsCog(host=unused, store=unused, settings=unused, edge=unused, publisher=unused)
    assert cog.app_command is not None
    return cog.app_command, bot


def test_slash_commands_offer_every_game_and_its_options() -> None:
    group, bot = bugs_group()
    payload = group.to_dict(bot.tree)
    subs = {c["name"]: c for c in payload["options"]}
    assert set(subs) >= {"new", "join", "leave", "start", "cancel", "status", "hand", "rules"}
    # `/bugs new <game>`: one subcommand per game with Discord play, each with its own options.
    assert subs["new"]["type"] == 2
    games = {c["name"]: c for c in subs["new"]["options"]}
    assert set(games) == {game.slug for game in registered_games()}
    assert all(g["type"] == 1 for g in games.values())
    options = {slug: {o["name"]: o for o in g["options"]} for slug, g in games.items()}
    for game in registered_games():
        offered = options[game.slug]
        assert set(offered) == {o.name for o in game.engine.options} | {"speed"}
        # Every game offers every time control (P-71); the server's policy refuses at use.
        assert offered["speed"]["required"] is False
        assert [c["value"] for c in offered["speed"]["choices"]] == list(SPEEDS)
        for option in game.engine.options:
            assert offered[option.name]["required"] is False  # each has a default
            assert [c["value"] for c in offered[option.name]["choices"]] == list(option.choices)
    first = options["bug-off"]["first_player"]
    assert first["description"] == "Who plays first"
    assert {"name": "The 2nd to join", "value": "2"} in first["choices"]
    # Every engine has rules, but only games with Discord play can be opened.
    rules_game = subs["rules"]["options"][0]
    assert {c["value"] for c in rules_game["choices"]} == set(games)


def test_no_command_text_shows_an_internal_rule_code() -> None:
    group, bot = bugs_group()
    payload = group.to_dict(bot.tree)
    texts: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        texts.append(node["description"])
        texts.extend(c["name"] for c in node.get("choices") or [])
        for child in node.get("options") or []:
            walk(child)

    walk(payload)
    assert len(texts) > 20
    assert [t for t in texts if RULE_CODE.search(t)] == []
    assert all(0 < len(t) <= 100 for t in texts)


def test_options_read_in_words_and_rule_codes_are_dropped() -> None:
    assert chosen_in_words("bug-off", {"first_player": "2"}) == ["First player: the 2nd to join"]
    assert chosen_in_words("bugs-and-co", {"extra_set": "random"}) == [
        "Extra tiles (5–6 players): one-eyed or three-eyed, drawn at random"
    ]
    assert chosen_in_words("ladybug-dash", {"clock": "1"}) == ["Clock: 1"]
    assert chosen_in_words("bag-of-bugs", {}) == []
    # An option nobody wrote words for shows its engine's description without the rule code.
    made_up = GameOption("first_seat", "Who goes first (BO-4), see BC-X2", ("a-b",), "a-b")
    words = words_for("some-game", made_up)
    assert (words.label, words.description, words.choices) == (
        "First seat",
        "Who goes first, see",
        {"a-b": "a b"},
    )
    table = make_table("bug-off", 2, options={"first_player": "2"})
    table.engine = None
    lobby = lobby_message(table.view())
    assert lobby.embed is not None
    assert "First player: the 2nd to join" in str(lobby.embed.fields)
    assert "first_player" not in str(lobby)


@pytest.mark.parametrize(
    ("token", "message"),
    [("", "DISCORD_TOKEN is not set"), ("not a token!", "does not look like a bot token")],
)
def test_a_missing_or_malformed_token_gives_one_clear_line(token: str, message: str) -> None:
    settings = Settings(_env_file=None, discord_token=token)  # type: ignore[call-arg]
    with pytest.raises(SettingsError, match=message):
        settings.require_token()


def test_timer_settings_override_engine_defaults() -> None:
    settings = Settings(_env_file=None, timers={"bugoff_turn": 5})  # type: ignore[call-arg]
    assert settings.timer_seconds("bugoff_turn", 60) == 5
    assert settings.timer_seconds("bugrun_turn", None) == 90  # as Bug Run declares it
    assert settings.timer_seconds(None, 10.0) == 10.0  # a rule's own delay
    # a misspelt timer is an error, not a silent default
    with pytest.raises(SettingsError, match="unknown_setting"):
        settings.timer_seconds("unknown_setting", 30)


@pytest.mark.parametrize("game", registered_games(), ids=lambda game: game.slug)
def test_every_timer_an_engine_names_is_one_it_declares(game: Game) -> None:
    """Deadlines and pacing name only the engine's own declared timers, so the start's check
    (bot/timers.py) covers every timer the game can ask for."""
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    declared = {timer.name for timer in game.timers}
    assert set(game.engine.pacing.values()) <= declared
    engine = game.engine.new(game.engine.min_players, 3)
    rng = Rng(3)
    named: set[str] = set()
    for _ in range(300):
        if engine.is_over:
            break
        for deadline in engine.deadlines():
            if deadline.setting is not None:
                named.add(deadline.setting)
            assert settings.deadline_seconds(deadline.setting, deadline.seconds) > 0
        movers = [s for s in range(engine.players) if engine.legal_actions(s)]
        if movers:
            seat = rng.choice(movers)
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
        else:
            engine.apply(SYSTEM, engine.deadlines()[0].action)
    assert named <= declared


def test_the_timer_scale_multiplies_every_deadline_and_nothing_else() -> None:
    settings = Settings(_env_file=None, timers={"bugoff_turn": 5}, timer_scale=0.1)  # type: ignore[call-arg]
    assert settings.deadline_seconds("bugoff_turn", 60) == pytest.approx(0.5)
    assert settings.deadline_seconds(None, 10.0) == pytest.approx(1.0)  # a rule's own delay
    assert settings.timer_seconds("bugoff_turn", 60) == 5  # pacing gaps are not deadlines


def test_env_example_lists_every_setting_and_loads_as_is(tmp_path: Path) -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    names = {
        line.split("=", 1)[0]
        for line in example.splitlines()
        if "=" in line and not line.startswith("#")
    }
    old = {name.upper() for name in OLD_TIMER_NAMES}  # documented as old, not listed (P-49)
    assert {n for n in names if "__" not in n} == {n.upper() for n in Settings.model_fields} - {
        "TIMERS",
        *old,
    }
    # the timers listed are the games' own, with the seconds they declare
    declared = declared_timers()
    for line in example.splitlines():
        if line.startswith("TIMERS__"):
            name, seconds = line.removeprefix("TIMERS__").split("=")
            assert float(seconds) == declared[name.lower()].seconds, line
    env = tmp_path / ".env"
    env.write_text(example.replace("DISCORD_TOKEN=", "DISCORD_TOKEN=" + "x" * 30))
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.require_token() == "x" * 30
    assert settings.dev_guild_id is None and settings.discord_api_base is None
    assert settings.timer_seconds("bag_min_gap", None) == 1.5
    assert settings.database_url.startswith("sqlite+aiosqlite")
