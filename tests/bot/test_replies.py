"""Private replies with buttons are remembered until the buttons are used up (P-27)."""

from __future__ import annotations

from typing import Any

import tests.support.testgame  # noqa: F401
from bot.discord.replies import PrivateReplies, PrivateReply, spec_actions
from bot.ui.presenter import SETTLED, presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec, SelectOption, SelectSpec
from tests.support.tables import act, make_table


def picks() -> MessageSpec:
    return MessageSpec(
        content="your picks",
        rows=(tuple(ButtonSpec(f"pick {n}", action={"type": "pick", "n": n}) for n in (1, 2, 3)),),
    )


def test_a_reply_is_settled_once_its_buttons_can_no_longer_act() -> None:
    table = make_table("ladybug-dash", 2)
    act(table, 0, {"type": "claim"})
    engine = table.running()
    interaction: Any = object()
    replies = PrivateReplies()
    mine = PrivateReply(interaction, None, 0, picks(), engine.turn)
    theirs = PrivateReply(interaction, 7, 1, picks(), engine.turn)
    replies.track(table.id, mine)
    replies.track(table.id, theirs)
    replies.track(table.id, PrivateReply(interaction, 8, 0, MessageSpec("no buttons"), 0))
    assert replies.pending(table.id) == 2  # a reply without game buttons is not remembered
    # Seat 1 cannot pick now (it is seat 0's turn): its reply's buttons are already dead.
    assert replies.used_up(table) == [theirs]
    act(table, 0, {"type": "pick", "n": 2})
    assert replies.used_up(table) == [mine]
    assert replies.pending(table.id) == 0

    settled = presenter_for("ladybug-dash").answered(table.view(), 0, mine.spec)
    assert settled.rows == () and settled.content == f"your picks\n{SETTLED}"


def test_menus_and_disabled_buttons_in_a_spec() -> None:
    spec = MessageSpec(
        rows=(
            (ButtonSpec("off", action={"type": "a"}, disabled=True), ButtonSpec("h", host="hand")),
            SelectSpec("choose", (SelectOption("b", {"type": "b"}),)),
        )
    )
    assert spec_actions(spec) == [{"type": "b"}]


def test_each_tracked_reply_learns_its_fate_from_the_first_outcome_that_says_it() -> None:
    """P-61: ``witness`` asks for a reply's fate at each commit until one answers; a reply
    tracked after its buttons were used up is never told a later move's."""
    table = make_table("ladybug-dash", 2)
    interaction: Any = object()
    replies = PrivateReplies()
    seen = PrivateReply(interaction, None, 0, picks(), 0)
    unseen = PrivateReply(interaction, 9, 1, picks(), 0, witnessed=False)
    for reply in (seen, unseen):
        replies.track(table.id, reply)
    asked: list[str] = []

    def fate(words: str | None) -> Any:
        def of(reply: PrivateReply) -> str | None:
            asked.append(f"{reply.seat}:{words}")
            return words

        return of

    replies.witness(table.id, fate(None))
    replies.witness(table.id, fate("picked 2"))
    replies.witness(table.id, fate("picked 3"))  # decided already: not asked again
    assert (seen.fate, unseen.fate) == ("picked 2", None)
    assert asked == ["0:None", "0:picked 2"]
