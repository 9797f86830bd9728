"""Bug Run's typed contract: the shapes of its view, actions and event data.

The runtime values stay plain JSON dicts (snapshots, logs and replays are stored as such);
these ``TypedDict`` and ``Literal`` types only let mypy check that the rules and the
presenters agree on every key. ``EVENTS`` ties each event type to the shape of its
``Event.data``; the contract tests hold every emitted event, listed action and view to these.
Card content rows (``info``) stay ``dict[str, Any]``: they are the static card tables; the
parts of them presenters read have shapes here too (``ItemCard``, ``StairsSpace``, ``DieFace``,
``RoofPath``), checked against every card by the contract tests.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Weapon = Literal["sword", "bow"]
Floor = Literal["C", "U", "D"]
"""A board floor: the central one, or the upper/lower one of a split column."""
Stock = Literal["hearts", "arrows", "coins"]
Coin = Literal["green", "red"]


# -- card content (static tables) ------------------------------------------------------------


class ItemCard(TypedDict, total=False):
    """A bazaar, loot or basic card type (``content.card``): what it does, by ``effect``."""

    id: str
    name: str
    type: str
    effect: str
    price: int
    copies: int
    hearts: int
    weapon: str
    bonus: int
    dice: int
    zone: str
    award_coins: int
    award_vp: int
    shield: str
    coins: int
    vp: int
    steal: str
    plus: int
    variant: str


class StairsSpace(TypedDict):
    """One space of a stairs card: its team (2p), weapon, entry rewards, crown, 5-6 only."""

    team: str | None
    weapon: str
    entry: list[str]
    crown: bool
    five_six: bool


class DieFace(TypedDict):
    face: int
    symbol: str
    successes: int
    bones: int
    white: bool


class RoofPath(TypedDict, total=False):
    """One side of a roof step: a price (``cost``) or a challenge (``[kind, need]``)."""

    cost: list[str]
    challenge: list[str | int]


# -- the view --------------------------------------------------------------------------------
class Pos(TypedDict):
    col: int
    floor: str
    """A ``Floor`` (the state keeps it as a plain string)."""
    space: int | None


class HeroView(TypedDict):
    name: str
    seat: int
    hearts: int
    arrows: int
    coins: int
    roof: int | None
    sword: list[str]
    bow: list[str]
    shield: list[str]
    stored: list[str]
    faceup: list[str]
    index: int
    power: str | None
    pos: Pos | None
    ready: bool | None


class _SeatView(TypedDict):
    seat: int
    hand_size: int
    heroes: list[int]


class SeatView(_SeatView, total=False):
    vp: int
    """Only in the viewer's own row."""


class SpaceView(TypedDict):
    weapon: str
    lock: bool
    hero: int | None
    reserved: int | None
    extra: bool


class SpaceInfo(TypedDict, total=False):
    """A printed space of a card (``content/*.json``): its weapon symbol and marks."""

    weapon: str
    five_six: bool
    team: str | None
    entry: list[str]
    crown: bool


class DuelPlank(TypedDict):
    red: list[str]
    green: list[str]


class CardInfo(TypedDict, total=False):
    """A card's printed content (``SlotView.info``): what its kind has of these keys.
    ``rewards`` are a monster's reward strings or, on a Gamble, one list per green streak;
    ``planks`` are an Archery's lists or a Duel's red/green pairs."""

    id: str
    name: str
    level: int
    kind: str
    type: str
    shield: int
    life: int
    bones: int
    rewards: list[str] | list[list[str]]
    reward: list[str]
    planks: list[list[str]] | list[DuelPlank]
    items: list[str]
    stable: list[str]
    green: list[str]
    red: list[str]
    wait: list[str]
    fight_reward: list[str]
    spaces: list[SpaceInfo]
    roof: list[RoofPath]


class SlotView(TypedDict):
    card: str | None
    kind: str
    wounds: int
    defeated: bool
    locked: bool
    marks: list[int]
    duel: int
    name: str | None
    spaces: list[SpaceView]
    info: CardInfo | None


BoardColumn = dict[str, SlotView]
"""Floor (``"C"``, or ``"U"`` and ``"D"``) -> what lies there."""


class Decks(TypedDict):
    bazaar: int
    bazaar_discard: int
    basics: int
    loot: int
    loot_discard: int
    exploration: int


class _ActiveView(TypedDict):
    seat: int
    hero: int | None
    prompt: str
    stage: str | None


class ActiveView(_ActiveView, total=False):
    """The decision the game waits on, with the frame's public fields."""

    dice: list[int]
    n: int
    why: str
    result: Coin
    weapon: Weapon
    need: int
    card: str
    reached: int
    merchant: bool
    items: list[str]


class _YouView(TypedDict):
    seat: int
    vp: int
    hand: list[str]
    options: list[dict[str, Any]]
    """``legal_actions(seat)``: each a ``BugRunAction`` (the host handles them as dicts)."""


class YouView(_YouView, total=False):
    loot_choice: list[str]
    names: dict[str, str]
    score: dict[str, int]


class _BugRunView(TypedDict):
    game: str
    phase: str
    level: int
    mode: str
    players: int
    turn: int
    crown: int | None
    flash: int | None
    level_card: str | None
    side: Literal["small", "large"]
    stairs: str | None
    roof: list[str]
    market: list[str]
    decks: Decks
    markers: dict[str, int]
    heroes: list[HeroView]
    seats: list[SeatView]
    board: list[BoardColumn]
    teams: dict[str, str]
    """Seat (as a string key) -> ``"top"`` or ``"bottom"`` (2p stairs fight)."""
    active: ActiveView | None
    names: dict[str, str]
    roof_paths: list[list[RoofPath]]


class BugRunView(_BugRunView, total=False):
    """``view(None)``; a seat's view adds ``you``; once over both add the results."""

    you: YouView
    scores: list[dict[str, int]]
    winners: list[int]


# -- actions ---------------------------------------------------------------------------------
class AcceptAction(TypedDict):
    type: Literal["accept"]


class ActivateAction(TypedDict):
    type: Literal["activate"]
    hero: int


class AfkAction(TypedDict):
    """The turn clock's default, applied by the host as ``SYSTEM``."""

    type: Literal["afk"]
    turn: int


class AttackAction(TypedDict):
    type: Literal["attack"]
    weapon: Weapon


class BraveryAction(TypedDict):
    type: Literal["bravery"]
    card: str


class BridgeAction(TypedDict):
    type: Literal["bridge"]
    mode: Literal["stable", "risky"]


class _BuyAction(TypedDict):
    type: Literal["buy"]
    card: str


class BuyAction(_BuyAction, total=False):
    replace: str


class BuyArrowsAction(TypedDict):
    type: Literal["buy_arrows"]


class _BuyBasicAction(TypedDict):
    type: Literal["buy_basic"]
    side: Weapon


class BuyBasicAction(_BuyBasicAction, total=False):
    replace: str


class BuyHeartsAction(TypedDict):
    type: Literal["buy_hearts"]


class CorrosionAction(TypedDict):
    type: Literal["corrosion"]
    card: str


class DibsAction(TypedDict):
    type: Literal["dibs"]
    card: str
    hero: int


class EndAttackAction(TypedDict):
    type: Literal["end_attack"]


class EndTurnAction(TypedDict):
    type: Literal["end_turn"]


class EnergyBoostAction(TypedDict):
    type: Literal["energy_boost"]
    card: str
    weapon: Weapon


class _EquipAction(TypedDict):
    type: Literal["equip"]


class EquipAction(_EquipAction, total=False):
    replace: str


class FightWeaponAction(TypedDict):
    type: Literal["fight_weapon"]
    weapon: Weapon


class ForceAction(TypedDict):
    type: Literal["force"]
    card: str
    result: Coin


class GoodFortuneAction(TypedDict):
    type: Literal["good_fortune"]


class _KeepAction(TypedDict):
    type: Literal["keep"]


class KeepAction(_KeepAction, total=False):
    """Keep the dice (no card) or one of the loot cards drawn."""

    card: str


class MetalShieldAction(TypedDict):
    type: Literal["metal_shield"]


class _MoveAction(TypedDict):
    type: Literal["move"]
    col: int
    floor: Floor


class MoveAction(_MoveAction, total=False):
    route: Floor
    space: int
    extra: str


class NoShieldAction(TypedDict):
    type: Literal["no_shield"]


class PassAction(TypedDict):
    type: Literal["pass"]


class PathAction(TypedDict):
    type: Literal["path"]
    side: Literal["L", "R"]


class _PickAction(TypedDict):
    type: Literal["pick"]
    item: str


class PickAction(_PickAction, total=False):
    hero: int


class _PlayAction(TypedDict):
    type: Literal["play"]
    card: str


class PlayAction(_PlayAction, total=False):
    space: int
    target: int


class PotionAction(TypedDict):
    type: Literal["potion"]
    card: str


class _QuestAction(TypedDict):
    type: Literal["quest"]


class QuestAction(_QuestAction, total=False):
    item: int


class RerollAction(TypedDict):
    type: Literal["reroll"]
    card: str
    dice: list[int]


class RetossAction(TypedDict):
    type: Literal["retoss"]
    card: str


class RollAction(TypedDict):
    type: Literal["roll"]


class SellAction(TypedDict):
    type: Literal["sell"]
    card: str


class StopAction(TypedDict):
    type: Literal["stop"]


class StoreAction(TypedDict):
    type: Literal["store"]


class TossAction(TypedDict):
    type: Literal["toss"]


class WaitAction(TypedDict):
    type: Literal["wait"]


BugRunAction = (
    AcceptAction
    | ActivateAction
    | AfkAction
    | AttackAction
    | BraveryAction
    | BridgeAction
    | BuyAction
    | BuyArrowsAction
    | BuyBasicAction
    | BuyHeartsAction
    | CorrosionAction
    | DibsAction
    | EndAttackAction
    | EndTurnAction
    | EnergyBoostAction
    | EquipAction
    | FightWeaponAction
    | ForceAction
    | GoodFortuneAction
    | KeepAction
    | MetalShieldAction
    | MoveAction
    | NoShieldAction
    | PassAction
    | PathAction
    | PickAction
    | PlayAction
    | PotionAction
    | QuestAction
    | RerollAction
    | RetossAction
    | RollAction
    | SellAction
    | StopAction
    | StoreAction
    | TossAction
    | WaitAction
)
ActionType = Literal[
    "accept",
    "activate",
    "afk",
    "attack",
    "bravery",
    "bridge",
    "buy",
    "buy_arrows",
    "buy_basic",
    "buy_hearts",
    "corrosion",
    "dibs",
    "end_attack",
    "end_turn",
    "energy_boost",
    "equip",
    "fight_weapon",
    "force",
    "good_fortune",
    "keep",
    "metal_shield",
    "move",
    "no_shield",
    "pass",
    "path",
    "pick",
    "play",
    "potion",
    "quest",
    "reroll",
    "retoss",
    "roll",
    "sell",
    "stop",
    "store",
    "toss",
    "wait",
]


# -- events ----------------------------------------------------------------------------------
class ActivateData(TypedDict):
    hero: int


class AfkData(TypedDict):
    seat: int
    action: str


class AfkChoiceData(TypedDict):
    """Private: the action the clock took for the seat."""

    seat: int
    action: dict[str, Any]


class ArcheryData(TypedDict):
    hero: int
    plank: int
    already: bool


class AttackData(TypedDict):
    hero: int
    weapon: Weapon
    need: int | None


class AwardData(TypedDict):
    hero: int
    coins: int
    vp: int


class BraveryData(TypedDict):
    hero: int
    card: str
    name: str


class BridgeData(TypedDict):
    hero: int
    card: str
    name: str
    mode: str


class BuyData(TypedDict):
    hero: int
    card: str
    name: str
    price: int


class BuyStockData(TypedDict):
    hero: int
    stock: Stock
    amount: int
    price: int


class CrownSpaceData(TypedDict):
    hero: int


class DeathData(TypedDict):
    hero: int
    name: str


class DefeatedData(TypedDict):
    hero: int
    monster: str


class DibsData(TypedDict):
    hero: int
    card: str


class DuelData(TypedDict):
    hero: int
    plank: int
    result: Coin


class EnergyBoostData(TypedDict):
    hero: int
    card: str


class EscapeEndData(TypedDict):
    hero: int
    reached: int
    vp: int


class EscapeStartData(TypedDict):
    hero: int


class FightData(TypedDict):
    rolls: dict[str, list[int]]
    scores: dict[str, int]
    sums: dict[str, int]
    winner: str


class FightTieData(TypedDict):
    rolls: dict[str, list[int]]
    scores: dict[str, int]
    sums: dict[str, int]


class FightWeaponData(TypedDict):
    hero: int
    weapon: Weapon


class FlashData(TypedDict):
    hero: int
    heroes: list[int]


class FlashEndData(TypedDict):
    hero: int


class ForcingFateData(TypedDict):
    hero: int
    why: str
    result: Coin


class _GainData(TypedDict):
    hero: int
    item: str


class GainData(_GainData, total=False):
    hearts: int
    arrows: int
    coins: int
    vp: int
    at_max: Stock
    loot_empty: bool


class GambleData(TypedDict):
    hero: int
    greens: int


class GameOverData(TypedDict):
    scores: list[int]
    winners: list[int]


class GoodFortuneData(TypedDict):
    hero: int
    result: Coin


class HurtData(TypedDict):
    hero: int
    hearts: int


class LevelBuiltData(TypedDict):
    level: int
    board: list[BoardColumn]


class LevelEndData(TypedDict):
    level: int
    crown: int
    roof: list[str]


class LootData(TypedDict):
    hero: int
    card: str
    name: str


class LootChoiceData(TypedDict):
    """Private: the loot cards drawn to choose from."""

    hero: int
    cards: list[str]


class LootEquipData(TypedDict):
    hero: int
    card: str
    name: str
    replaced: str | None


class LootSecretData(TypedDict):
    hero: int
    hand_size: int


class LootSecretCardData(TypedDict):
    """Private: which secret loot card it was."""

    hero: int
    card: str
    name: str


class LootStoreData(TypedDict):
    hero: int
    card: str
    name: str


class _LossData(TypedDict):
    hero: int
    item: str


class LossData(_LossData, total=False):
    hearts: int
    coins: int


class MarketRenewedData(TypedDict):
    market: list[str]


class MoveData(TypedDict):
    hero: int
    col: int
    floor: Floor
    space: int
    card: str | None
    name: str | None
    bridges: list[int]


class PadlockData(TypedDict):
    card: str
    why: str


class PayData(TypedDict):
    hero: int
    stock: Stock
    amount: int
    why: str


class PhaseData(TypedDict):
    phase: str
    level: int
    crown: int


class PickData(TypedDict):
    hero: int
    item: str


class _PlayData(TypedDict):
    hero: int
    card: str
    name: str


class PlayData(_PlayData, total=False):
    coins: int


class QuestData(TypedDict):
    hero: int
    card: str
    name: str
    kind: str


class RerollData(TypedDict):
    hero: int
    card: str
    dice: list[int]


class RollData(TypedDict):
    hero: int
    why: str
    dice: list[int]


class RoofAttackData(TypedDict):
    hero: int
    total: int
    need: int


class RoofPathData(TypedDict):
    hero: int
    step: int
    side: str
    path: dict[str, Any]


class RoofStepData(TypedDict):
    hero: int
    step: int
    success: bool


class SecondChanceData(TypedDict):
    hero: int
    card: str


class SellData(TypedDict):
    hero: int
    card: str
    name: str
    coins: int


class _ShieldData(TypedDict):
    hero: int
    kind: str
    blocked: int


class ShieldData(_ShieldData, total=False):
    result: Coin


class StealData(TypedDict):
    hero: int
    target: int
    stock: Stock
    taken: int
    kept: int


class StrikeData(TypedDict):
    hero: int
    total: int
    shield: int
    wounds: int
    monster: str
    monster_wounds: int


class StrikeBackData(TypedDict):
    hero: int
    damage: int


class TeamsData(TypedDict):
    teams: dict[str, str]
    """Seat (as a string key) -> ``"top"`` or ``"bottom"`` (2p stairs fight)."""


class TirelessArcherData(TypedDict):
    hero: int
    arrows: int


class TossData(TypedDict):
    hero: int
    why: str
    result: Coin


class TradeEndData(TypedDict):
    hero: int
    revealed: list[str]
    market: list[str]


class TradeTurnData(TypedDict):
    hero: int


class TurnData(TypedDict):
    hero: int


class VaultData(TypedDict):
    hero: int
    card: str
    item: str


class VpLostData(TypedDict):
    """Private: VP lost on fainting (VP are secret)."""

    hero: int
    amount: int
    vp: int


class WaitData(TypedDict):
    hero: int


EventType = Literal[
    "activate",
    "afk",
    "afk_choice",
    "archery",
    "attack",
    "award",
    "bravery",
    "bridge",
    "buy",
    "buy_stock",
    "crown_space",
    "death",
    "defeated",
    "dibs",
    "duel",
    "energy_boost",
    "escape_end",
    "escape_start",
    "fight",
    "fight_tie",
    "fight_weapon",
    "flash",
    "flash_end",
    "forcing_fate",
    "gain",
    "gamble",
    "game_over",
    "good_fortune",
    "hurt",
    "level_built",
    "level_end",
    "loot",
    "loot_choice",
    "loot_equip",
    "loot_secret",
    "loot_secret_card",
    "loot_store",
    "loss",
    "market_renewed",
    "move",
    "padlock",
    "pay",
    "phase",
    "pick",
    "play",
    "quest",
    "reroll",
    "roll",
    "roof_attack",
    "roof_path",
    "roof_step",
    "second_chance",
    "sell",
    "shield",
    "steal",
    "strike",
    "strike_back",
    "teams",
    "tireless_archer",
    "toss",
    "trade_end",
    "trade_turn",
    "turn",
    "vault",
    "vp_lost",
    "wait",
]
PublicEventType = Literal[
    "activate",
    "afk",
    "archery",
    "attack",
    "award",
    "bravery",
    "bridge",
    "buy",
    "buy_stock",
    "crown_space",
    "death",
    "defeated",
    "dibs",
    "duel",
    "energy_boost",
    "escape_end",
    "escape_start",
    "fight",
    "fight_tie",
    "fight_weapon",
    "flash",
    "flash_end",
    "forcing_fate",
    "gain",
    "gamble",
    "game_over",
    "good_fortune",
    "hurt",
    "level_built",
    "level_end",
    "loot",
    "loot_equip",
    "loot_secret",
    "loot_store",
    "loss",
    "market_renewed",
    "move",
    "padlock",
    "pay",
    "phase",
    "pick",
    "play",
    "quest",
    "reroll",
    "roll",
    "roof_attack",
    "roof_path",
    "roof_step",
    "second_chance",
    "sell",
    "shield",
    "steal",
    "strike",
    "strike_back",
    "teams",
    "tireless_archer",
    "toss",
    "trade_end",
    "trade_turn",
    "turn",
    "vault",
    "wait",
]
"""The events a public log line may read (the others are one seat's secrets)."""

EVENTS: dict[EventType, type] = {
    "activate": ActivateData,
    "afk": AfkData,
    "afk_choice": AfkChoiceData,
    "archery": ArcheryData,
    "attack": AttackData,
    "award": AwardData,
    "bravery": BraveryData,
    "bridge": BridgeData,
    "buy": BuyData,
    "buy_stock": BuyStockData,
    "crown_space": CrownSpaceData,
    "death": DeathData,
    "defeated": DefeatedData,
    "dibs": DibsData,
    "duel": DuelData,
    "energy_boost": EnergyBoostData,
    "escape_end": EscapeEndData,
    "escape_start": EscapeStartData,
    "fight": FightData,
    "fight_tie": FightTieData,
    "fight_weapon": FightWeaponData,
    "flash": FlashData,
    "flash_end": FlashEndData,
    "forcing_fate": ForcingFateData,
    "gain": GainData,
    "gamble": GambleData,
    "game_over": GameOverData,
    "good_fortune": GoodFortuneData,
    "hurt": HurtData,
    "level_built": LevelBuiltData,
    "level_end": LevelEndData,
    "loot": LootData,
    "loot_choice": LootChoiceData,
    "loot_equip": LootEquipData,
    "loot_secret": LootSecretData,
    "loot_secret_card": LootSecretCardData,
    "loot_store": LootStoreData,
    "loss": LossData,
    "market_renewed": MarketRenewedData,
    "move": MoveData,
    "padlock": PadlockData,
    "pay": PayData,
    "phase": PhaseData,
    "pick": PickData,
    "play": PlayData,
    "quest": QuestData,
    "reroll": RerollData,
    "roll": RollData,
    "roof_attack": RoofAttackData,
    "roof_path": RoofPathData,
    "roof_step": RoofStepData,
    "second_chance": SecondChanceData,
    "sell": SellData,
    "shield": ShieldData,
    "steal": StealData,
    "strike": StrikeData,
    "strike_back": StrikeBackData,
    "teams": TeamsData,
    "tireless_archer": TirelessArcherData,
    "toss": TossData,
    "trade_end": TradeEndData,
    "trade_turn": TradeTurnData,
    "turn": TurnData,
    "vault": VaultData,
    "vp_lost": VpLostData,
    "wait": WaitData,
}
"""Event type -> the ``TypedDict`` its ``Event.data`` follows."""
