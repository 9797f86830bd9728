"""Private replies with buttons are remembered until the buttons are used up (P-27)."""

from __future__ import annotations

from typing import Any

import tests.support.testgame  # noqa: F401
from bot.discord.replies import PrivateReplies, PrivateReply, spec_actions
from bot.ui.presenter import SETTLED, presenter_for
from bot.ui.specs import ButtonSpec, MessageSpec, SelectOption, SelectSpec
from tests.bot.test_publisher_pings import make, started
from tests.support.clock import ManualClock
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


def test_a_button_acts_only_as_the_very_action_the_engine_lists() -> None:
    """Usable means listed as the engine lists it, JSON types included: ``True`` is not the
    pick ``1``, nor is ``1.0`` (the engine would refuse either)."""
    table = make_table("ladybug-dash", 2)
    act(table, 0, {"type": "claim"})
    turn = table.running().turn

    def reply(n: Any) -> PrivateReply:
        spec = MessageSpec(rows=((ButtonSpec("pick", action={"type": "pick", "n": n}),),))
        interaction: Any = object()
        return PrivateReply(interaction, None, 0, spec, turn)

    assert reply(1).usable(table)
    assert not reply(True).usable(table) and not reply(1.0).usable(table)
    assert not reply(4).usable(table)


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


class UnreachableClick:
    """The interaction a private reply was sent through, with Discord unreachable: editing it
    fails as a refused connection does, not with an HTTP error."""

    def __init__(self) -> None:
        self.tries = 0

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.tries += 1
        raise OSError("Connect call failed")


async def test_a_reply_that_cannot_be_settled_fails_alone() -> None:
    """Settling a used-up reply fails without an HTTP error (Discord unreachable): the reply
    keeps its old buttons, and the pass that carried it ends as usual, the board edited."""
    clock = ManualClock()
    publisher, channel = make(clock)
    table = started(clock)
    publisher.table_changed(table, None)
    await publisher.flush()
    click = UnreachableClick()
    reply = PrivateReply(click, None, 0, picks(), table.running().turn)  # type: ignore[arg-type]
    publisher.replies.track(table.id, reply)
    edits = len(channel.log)
    publisher.table_changed(table, act(table, 1, {"type": "claim"}))  # seat 0's picks are dead
    await publisher.flush()
    pump = publisher._state(table.id).pump
    assert click.tries == 1
    assert pump is not None and pump.exception() is None
    assert len(channel.log) > edits  # the board went out in the same pass
