"""The Bug Run presenter: every decision offered, Discord's limits, secrets kept, log and results.

Games are played with random legal actions through the presenter at every step, so every kind
of decision the engine can ask (checked by ``test_every_prompt_kind_is_met``) is rendered.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import bot.ui.games  # noqa: F401  (registers the presenters)
from bot.host.table import Table
from bot.standings import final_result
from bot.ui.games.bug_run import (
    BOARD_ROWS,
    DETAILS_BUTTON,
    FULL_BOARD_BUTTON,
    Choice,
    is_private,
    pack,
)
from bot.ui.presenter import HAND_BUTTON, presenter_for
from bot.ui.specs import MessageSpec, SelectSpec
from rules.bug_run import content as C
from rules.bug_run.engine import BugRun
from rules.core import SYSTEM
from tests.support.specs import check_limits
from tests.support.tables import act, make_table

SLUG = "bug-run"
PRESENTER = presenter_for(SLUG)
NAMES = ["alice", "bob", "carol", "dave", "eve", "finn"]
PROMPTS = {
    "activate",
    "attack",
    "bridge",
    "escape",
    "fight",
    "flash",
    "freemove",
    "loot",
    "roll",
    "toss",
    "trade",
    "turn",
}
SECRET_NAMES = sorted(
    {t["name"] for t in C.LOOT_TYPES if t["type"] == "secret"}, key=len, reverse=True
)


def public_text(spec: MessageSpec) -> str:
    """Everything a message shows in words: embed, button labels, menu options."""
    assert spec.embed is not None
    parts = [spec.embed.title or "", spec.embed.description or "", spec.embed.footer or ""]
    parts += [p for f in spec.embed.fields for p in (f.name, f.value)]
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            parts += [p for o in row.options for p in (o.label, o.description or "")]
        else:
            parts += [b.label for b in row]
    return "\n".join(parts)


def engine_of(table: Table) -> BugRun:
    engine = table.running()
    assert isinstance(engine, BugRun)
    return engine


def offered(spec: MessageSpec) -> list[dict[str, Any]]:
    """Every engine action a message offers, buttons and menu options alike."""
    out: list[dict[str, Any]] = []
    for row in spec.rows:
        if isinstance(row, SelectSpec):
            out += [o.action for o in row.options]
        else:
            out += [b.action for b in row if b.action is not None]
    return out


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def states(
    players: int, seed: int, mode: str = "normal", log: list[str] | None = None
) -> Iterator[tuple[Table, int]]:
    """Every decision of one random game: (table, deciding seat), the log kept as the host does."""
    table = make_table(SLUG, players, seed, {"mode": mode}, names=NAMES[:players])
    engine = engine_of(table)
    rng = random.Random(seed)
    while not engine.is_over:
        (seat,) = engine.waiting_for()
        yield table, seat
        outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
        if log is not None:
            log.extend(PRESENTER.log_lines(table.view(), outcome))
    yield table, -1


GAMES = [(2, 1, "normal"), (3, 2, "powers"), (4, 3, "normal"), (5, 4, "powers"), (6, 5, "normal")]


@pytest.mark.parametrize(("players", "seed", "mode"), GAMES)
def test_every_decision_is_offered_within_discords_limits(
    players: int, seed: int, mode: str
) -> None:
    log: list[str] = []
    for table, seat in states(players, seed, mode, log):
        engine = engine_of(table)
        (board,) = PRESENTER.boards(table.view(), log)
        check_limits(board, engine.turn)
        assert board.image is not None and board.image.filename.endswith(".png")
        if seat < 0:
            break
        mine = PRESENTER.my_hand(table.view(), seat)
        hand = PRESENTER.hand(table.view(), seat)
        assert hand is not None and mine is not None
        check_limits(hand, engine.turn)
        check_limits(mine, engine.turn)
        legal = [key(a) for a in engine.legal_actions(seat)]
        view = engine.view(seat)
        public = [key(a) for a in engine.legal_actions(seat) if not is_private(a, view)]
        secret = [key(a) for a in engine.legal_actions(seat) if is_private(a, view)]
        # My hand offers every legal action, once; the board exactly the public ones, and the
        # DM exactly the secret ones: every choice is on one standing message (P-16)
        assert sorted(key(a) for a in offered(mine)) == sorted(legal)
        assert sorted(key(a) for a in offered(board)) == sorted(public)
        assert sorted(key(a) for a in offered(hand)) == sorted(secret)
        assert board.rows[-1] == (HAND_BUTTON, DETAILS_BUTTON, FULL_BOARD_BUTTON)
        for other in range(engine.players):
            if other != seat:
                other_hand = PRESENTER.hand(table.view(), other)
                assert other_hand is not None and offered(other_hand) == []


def test_my_hand_beside_the_dm_offers_the_choices_without_the_secrets() -> None:
    """While the DM shows a member's secrets, **My hand** offers the same choices and says
    where the secrets are, without repeating them (P-48); with DMs closed it shows them."""
    for table, seat in states(3, 2, "powers"):
        if seat < 0:
            break
        beside = PRESENTER.private_hand(table.view(), seat, in_dm=True)
        hand = PRESENTER.my_hand(table.view(), seat)
        assert beside is not None and hand is not None and beside.embed is not None
        assert sorted(key(a) for a in offered(beside)) == sorted(key(a) for a in offered(hand))
        names = [f.name for f in beside.embed.fields]
        assert not any(n.startswith(("⭐ Your victory", "🂠 Your secret loot")) for n in names)
        assert "in your DM" in (beside.embed.description or "")
        assert PRESENTER.private_hand(table.view(), seat, in_dm=False) == hand
        check_limits(beside, engine_of(table).turn)


def test_every_prompt_kind_is_met() -> None:
    """The games above and a few more meet every kind of decision the engine has."""
    met: set[str] = set()
    for players, seed, mode in [*GAMES, (2, 7, "powers"), (3, 0, "powers"), (5, 1, "powers")]:
        for table, seat in states(players, seed, mode):
            if seat >= 0:
                met.add(engine_of(table).view(None)["active"]["prompt"])
    assert met == PROMPTS


def test_board_never_offers_or_names_a_secret_card() -> None:
    for players, seed in [(3, 21), (4, 22), (2, 23), (6, 24), (6, 3)]:  # 3: a secret card sold
        log: list[str] = []
        for table, seat in states(players, seed, "powers", log):
            if seat < 0:
                break
            engine = engine_of(table)
            (board,) = PRESENTER.public_boards(table.view(), log)
            secrets = {
                c for s in range(engine.players) for c in engine.view(s)["you"]["hand"]
            } | set(engine.state.limbo)
            for action in offered(board):
                assert not set(map(str, action.values())) & secrets, action
                assert "extra" not in action
            assert board.embed is not None
            assert public_text(board) == public_text(board)
            rest = public_text(board).replace("an Itinerant Merchant's private trading turn", "")
            for name in SECRET_NAMES:  # the log names a secret card once it is played or sold
                rest = rest.replace(f"plays {name}", "").replace(f"sold {name}", "")
            assert [n for n in SECRET_NAMES if n in rest] == []


def test_board_is_the_same_whatever_the_secrets() -> None:
    """VP and the order of the loot deck are secret: changing them changes nothing public."""
    for table, seat in states(4, 31, "powers"):
        if seat < 0:
            break
        engine = engine_of(table)
        state = engine.to_dict()
        state["seats"] = [{**s, "vp": s["vp"] + 17 * i + 3} for i, s in enumerate(state["seats"])]
        state["loot"]["deck"] = list(reversed(state["loot"]["deck"]))
        other = replace(table, engine=BugRun.from_dict(state))
        (a,) = PRESENTER.boards(table.view())
        (b,) = PRESENTER.boards(other.view())
        assert a == b
        assert a.image is not None and b.image is not None
        assert a.image.render.args == b.image.render.args  # type: ignore[attr-defined]


def test_hand_shows_own_vp_hand_and_loot_choice() -> None:
    found_choice = False
    for table, seat in states(5, 45, "powers"):  # a Master Crocheter draws two loot cards
        if seat < 0:
            break
        engine = engine_of(table)
        view = engine.view(seat)
        hand = PRESENTER.hand(table.view(), seat)
        assert hand is not None and hand.embed is not None
        fields = {f.name: f.value for f in hand.embed.fields}
        assert fields["⭐ Your victory points (secret)"] == f"**{view['you']['vp']}** VP"
        mine = next(v for k, v in fields.items() if k.startswith("🂠 Your secret loot"))
        for card in view["you"]["hand"]:
            assert C.card_name(card) in mine
        if view["you"].get("loot_choice"):
            found_choice = True
            choice = next(v for k, v in fields.items() if k.startswith("🎁 Loot found"))
            assert all(C.card_name(c) in choice for c in view["you"]["loot_choice"])
            assert "Your decision" in (hand.embed.description or "")
    assert found_choice


def test_two_player_prompts_say_which_hero_acts() -> None:
    seen_activate = False
    for table, seat in states(2, 51, "normal"):
        if seat < 0:
            break
        engine = engine_of(table)
        active = engine.view(None)["active"]
        (board,) = PRESENTER.boards(table.view())
        assert board.embed is not None
        status = (board.embed.description or "").splitlines()[0]
        assert f"**{NAMES[seat]}**" in status
        if active["prompt"] == "activate":
            seen_activate = True
            labels = {b.label for row in board.rows if isinstance(row, tuple) for b in row}
            mine = [h["name"] for h in engine.view(None)["heroes"] if h["seat"] == seat]
            ready = {f"Play {mine_name}" for mine_name in mine}
            assert labels & ready
        elif active["hero"] is not None:
            hero = engine.view(None)["heroes"][active["hero"]]["name"]
            assert hero in status
    assert seen_activate


def test_log_lines_read_public_events_only() -> None:
    table = make_table(SLUG, 3, 61, {"mode": "powers"}, names=NAMES[:3])
    engine = engine_of(table)
    rng = random.Random(61)
    while not engine.is_over:
        (seat,) = engine.waiting_for()
        outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
        lines = PRESENTER.log_lines(table.view(), outcome)
        public_only = replace(outcome, events=[e for e in outcome.events if e.is_public])
        assert lines == PRESENTER.log_lines(table.view(), public_only)
        assert all(line and len(line) <= 300 for line in lines)


def test_reply_tells_only_the_actor_what_they_found() -> None:
    replies = 0
    for players, seed in [(3, 71), (4, 72), (5, 73)]:
        table = make_table(SLUG, players, seed, {"mode": "powers"}, names=NAMES[:players])
        engine = engine_of(table)
        rng = random.Random(seed)
        while not engine.is_over:
            (seat,) = engine.waiting_for()
            outcome = act(table, seat, rng.choice(engine.legal_actions(seat)))
            reply = PRESENTER.reply(table.view(), outcome)
            secret = [e for e in outcome.events if not e.is_public and e.visible_to(seat)]
            assert (reply is not None) == any(
                e.type in ("loot_secret_card", "loot_choice", "vp_lost") for e in secret
            )
            if reply is not None:
                replies += 1
                check_limits(reply)
                for e in secret:
                    if e.type == "loot_secret_card":
                        assert C.card_name(e.data["card"]) in (reply.content or "")
    assert replies > 0
    assert PRESENTER.reply(table.view(), replace(outcome, seat=SYSTEM)) is None


def test_final_board_names_winners_scores_and_keeps_the_picture() -> None:
    *_, (table, _) = states(4, 81, "normal")
    engine = engine_of(table)
    (final,) = PRESENTER.boards(table.view())
    check_limits(final)
    assert final.embed is not None and final.rows == ()
    assert final.image is not None
    scores = engine.scores()
    for seat in engine.winners():
        assert f"**{NAMES[seat]}**" in (final.embed.description or "")
    for seat in range(engine.players):
        assert any(
            f.name.endswith(f"{NAMES[seat]} — {scores[seat]} VP") for f in final.embed.fields
        )
    hand = PRESENTER.hand(table.view(), 0)
    assert hand is not None and hand.rows == ()
    assert str(engine.scores()[0]) in (hand.embed.description or "")  # type: ignore[union-attr]


def test_board_picture_key_follows_the_drawn_state() -> None:
    table = make_table(SLUG, 3, 91, names=NAMES[:3])
    engine = engine_of(table)
    (a,) = PRESENTER.boards(table.view())
    (b,) = PRESENTER.boards(table.view())
    assert a.image == b.image  # nothing changed: the same picture, never rendered twice
    rng = random.Random(91)
    moved = False
    while not moved and not engine.is_over:
        (seat,) = engine.waiting_for()
        action = rng.choice(engine.legal_actions(seat))
        before = [h["pos"] for h in engine.view(None)["heroes"]]
        act(table, seat, action)
        moved = before != [h["pos"] for h in engine.view(None)["heroes"]]
    (c,) = PRESENTER.boards(table.view())
    assert c.image is not None and c.image != a.image


def test_pack_fits_rows_and_splits_menus() -> None:
    many = [Choice({"type": "move", "col": i}, f"m{i}", "move") for i in range(31)]
    rows = pack(many, BOARD_ROWS)
    assert len(rows) == 2 and all(isinstance(r, SelectSpec) for r in rows)
    assert sum(len(r.options) for r in rows if isinstance(r, SelectSpec)) == 31
    buttons = [Choice({"type": "x", "i": i}, f"b{i}", "main") for i in range(7)]
    rows = pack(buttons, BOARD_ROWS)
    assert [len(r) for r in rows if isinstance(r, tuple)] == [5, 2]
    crowd = [Choice({"type": "x", "i": i}, f"b{i}", "main") for i in range(30)]
    rows = pack(crowd, BOARD_ROWS)
    assert len(rows) <= BOARD_ROWS
    flat = [o.action for r in rows if isinstance(r, SelectSpec) for o in r.options]
    flat += [b.action for r in rows if isinstance(r, tuple) for b in r]
    assert len(flat) == 30
    assert pack([], BOARD_ROWS) == ()


def test_the_final_dm_says_the_game_vp_and_the_total_apart() -> None:
    """At the end the DM's VP is what was collected in play; the total with the end's scoring
    sits beside it (issue #26: "secret VP 7" under "you scored 17 VP" read as a contradiction)."""
    table = make_table(SLUG, 3, 81, {"mode": "normal"}, names=NAMES[:3])
    engine = engine_of(table)
    rng = random.Random(81)
    while not engine.is_over:
        (seat,) = engine.waiting_for()
        act(table, seat, rng.choice(engine.legal_actions(seat)))
    for seat in range(3):
        spec = PRESENTER.hand(table.view(), seat)
        assert spec is not None and spec.embed is not None
        fields = {f.name: f.value for f in spec.embed.fields}
        total = final_result(engine).breakdowns[seat]["total"]
        vp = engine.view(seat)["you"]["vp"]
        assert fields["⭐ Your victory points"] == (
            f"**{vp}** VP collected during the game; **{total}** VP in all with the end's "
            "scoring (the board shows how)"
        )
        assert f"you scored **{total}** VP" in (spec.embed.description or "")
        assert "Your victory points (secret)" not in fields
