"""Ascension Isle battles: the values (RULES.md AI-1, AI-2, AI-7, AI-16).

Immutable values only — what a battle is made of and what its rules read and return:
:class:`Unit`, :class:`General`, :class:`Army`, :class:`Bid`, :class:`Pool`,
:class:`CellEffect`, :class:`Stratagem` (and :data:`STRATAGEMS`), :class:`Rolls`,
:class:`WeekResult` and :class:`BattleState`; the system's constants (:data:`KIND`,
:data:`SPECTATOR_VIEW`, the settings' choices, :data:`HOUSE_RULES`, :data:`RULINGS`); and
the argument checks every public helper of the package shares: a value a function cannot
use is refused with :class:`~engine.game.ArgumentError`, whose message says why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from ..game import ArgumentError
from ..rules import SettingsError
from ..text import brief_repr
from .tables import MANEUVERS

if TYPE_CHECKING:
    from .rules import Cell

KIND = "battle"

#: What a spectator link (:func:`~engine.ascension.public_game`) shows, in the Share drawer's words.
SPECTATOR_VIEW = ("the armies, who has declared, revealed bids, the dice and the log. A bid not yet revealed "
                  "never travels, and there is no seed.")


_T = TypeVar("_T")


def per_side(value: Callable[[int], _T]) -> tuple[_T, _T]:
    """AI-1: a battle has two armies: ``(value(0), value(1))``, one figure per side."""
    return value(0), value(1)


# ---------------------------------------------------------------------------
# Argument checks shared by the public helpers


def int_arg(value: Any, what: str, low: int | None = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{what} must be a whole number (got {brief_repr(value)})")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"from {low} to {high}" if high is not None else f"{low} or more") if low is not None \
            else f"at most {high}"
        raise ArgumentError(f"{what} must be {bounds} (got {brief_repr(value)})")
    return int(value)


def bool_arg(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{what} must be true or false (got {brief_repr(value)})")
    return value


def state_arg(state: Any) -> "BattleState":
    if not isinstance(state, BattleState):
        raise ArgumentError(f"Not a battle state: {type(state).__name__} (replay a battle game to get one)")
    return state


def side_arg(side: Any) -> int:
    if side not in (0, 1) or not isinstance(side, int) or isinstance(side, bool):
        raise ArgumentError(f"There is no side {brief_repr(side)} (sides are 0 and 1)")
    return int(side)


def maneuver_arg(maneuver: Any) -> str:
    if not isinstance(maneuver, str) or maneuver not in MANEUVERS:
        raise ArgumentError(f"Unknown maneuver {brief_repr(maneuver)} (maneuvers: {', '.join(MANEUVERS)})")
    return maneuver


def rules_arg(rules: Any) -> Mapping[str, Any]:
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise SettingsError("The rules settings must be an object of {setting: choice}")
    return rules


# ---------------------------------------------------------------------------
# Settings' choices, house rules and rulings


#: AI-10 variant: who reads the result tables.
READS_BOTH, READS_WINNER = "both", "winner"
#: HR-AI-7: whose dice.
DICE_APP, DICE_TABLE = "app", "table"

#: House rules of this app, where RULES.md is silent (id → text). Shown with a marker.
HOUSE_RULES: Mapping[str, str] = MappingProxyType({
    "HR-AI-1": "A unit with neither armour nor size is destroyed by one casualty.",
    "HR-AI-2": "Casualties land one at a time on the army's line unit (its vanguard; its rearguard in a "
               "Withdraw) until it is destroyed, then on the other units in the order they are listed.",
    "HR-AI-3": "When the vanguard is destroyed, the next surviving line unit in list order becomes the "
               "vanguard. When no line unit is left, the army fights on: its first surviving unit in list "
               "order stands in the line as its vanguard (the source allows other units in the line, with "
               "their weaknesses), and the board says so; a line unit that joins later takes the vanguard "
               "back. A destroyed rearguard is replaced by the vanguard.",
    "HR-AI-4": "Deception's scouting roll: the army's scouts roll their mobility as a pool (the best "
               "scout is the base, the other scouts reinforce it); an army without scouts adds nothing.",
    "HR-AI-5": "Harassing Fire: the army's long-range units are its line and reinforcement, with their "
               "defense; it needs at least one long-range unit.",
    "HR-AI-6": "Last Stand: the rearguard's reinforcement (its scouts) adds defense too, since the line "
               "stat is defense.",
    "HR-AI-7": "Whose dice is a game setting: with the app's dice the app rolls; with your own dice the "
               "table rolls and enters each side's dice and the casualty range rolls, which the app checks "
               "and records.",
    "HR-AI-8": "Continuous Front: the enemy may not withdraw through the defended hex, but a Withdraw its "
               "cell lets get away still leaves the battle (by the arc or back up its route, not through the "
               "hex); the board says so.",
    "HR-AI-9": "Last Stand: the units destroyed when the Withdraw gets away are the rearguard and every unit "
               "that reinforced its pool — Covering Fire's long-range units too.",
    "HR-AI-10": "AI-11 fallback: a Major, Crushing or Legendary cell your group has not edited reads the "
                "source's Minor victory cell (an edited Minor cell changes only the Minor table).",
    "HR-AI-11": "Defend mitigates casualties by the enemy's maneuver: those of an enemy Skirmish or Attack "
                "(a Counter Attack is an Attack), not those of a Defend or Block that reads Skirmish under "
                "Harassing Fire.",
    "HR-AI-12": "How a Withdraw gets away is read from its cell's words: \"three hex arc\" — it may disengage "
                "into the three-hex arc from its route; \"back up route\" or \"head back\" — it must head back "
                "up its route; a cell that says only \"Withdraw Succeeds\" names no direction.",
    "HR-AI-13": "The staff officer (advice behind the curtain, and the app's general) reads only what both "
                "sides can see: the two armies, never a sealed bid. It weighs every bid either side may "
                "declare: every combination of the stratagems whose effect is stated, every rearguard, a "
                "Counter Attack switched or not as its general likes best. Aims: net casualties (expected "
                "casualties landed on the enemy minus those landed on you), getting away (the chance your army "
                "leaves the battle by a Withdraw), holding the hex (the chance your army is still in the hex "
                "after the week: not withdrawn, fallen back or destroyed) and winning the battle (the balance "
                "the app's general plays for). The recommendation is the best plan against the worst "
                "the enemy can do with any bid it may declare, worked out exactly; the grid shows, for each "
                "maneuver, the bids the plans use.",
    "HR-AI-14": "The app's general bids from the game's seed and what both sides can see, never from a "
                "link: a battle that comes from another device (a link or an imported file) opens only if "
                "every bid of an army the app plays is the bid the app's general makes there; otherwise it "
                "is refused and nothing is saved. Your own saves on this tablet open as they are. Checking "
                "takes time, so a battle against the app holds as many of its weeks as its link can carry "
                "checked (about 30 weeks with armies of stats up to 6 against the general of policy 1, about "
                "10 against the Normal or Hard general of policy 2, HR-AI-15, which weighs every bid; fewer "
                "with stronger armies or more stratagems): past that, "
                "the app's general does not bid, and you go on in a new battle.",
    "HR-AI-15": "The app's general keeps the policy its battle was started with, so a battle's links and "
                "saves open whatever version of the app reads them. Policy 2 (battles started from this "
                "version on): the general plays for winning the battle (+1 when the enemy leaves the hex — "
                "driven off, fallen back or withdrawn — and it holds it, −1 the other way, ½ more for an "
                "army destroyed, and a quarter of the share of each army's strength lost this week, which "
                "weighs on the weeks after) and weighs every bid it may declare; Hard draws from the plan that holds "
                "against every bid the enemy may declare (every combination of stratagems, every rearguard, "
                "a Counter Attack switched or not); Normal answers the enemy's six plain maneuvers alike. "
                "Policy 1 (battles started before): both count net casualties, each maneuver with at most one "
                "stratagem, against the enemy's plain maneuvers. Easy plays the same in both.",
})

#: The app general's policy versions (HR-AI-15): a battle's setup names the one it was started
#: with (``"policy"``; a setup without it is of policy 1); a new battle gets :data:`POLICY`.
POLICIES: tuple[int, ...] = (1, 2)
POLICY = 2

#: The house rules about opening a game from outside (the app's moves checked, issue 35): shown
#: with the others, not part of a game's printed record (engine.record).
OPENING_RULES: tuple[str, ...] = ("HR-AI-14", "HR-AI-15")

#: RULES.md clauses that are rulings (the app's reading where the source is silent).
RULINGS: tuple[str, ...] = ("AI-1", "AI-2", "AI-5", "AI-6", "AI-7", "AI-9", "AI-10", "AI-11", "AI-12", "AI-14",
                            "AI-15", "AI-16", "AI-17", "AI-19")

#: What a game played before the AI-16 prerequisites and the AI-19 fallback keeps
#: (see :func:`~engine.ascension.upgrade`).
OLD_RULINGS_NOTE = ("This battle was played with an earlier version of the app and keeps the rules it was "
                    "played with: no fallback (AI-19), the earlier stratagem prerequisites and Covering Fire "
                    "(AI-16), and units may have both armour and size (AI-14).")


# ---------------------------------------------------------------------------
# Units, armies, bids, pools, stratagems, a week's result, the battle's state


TRAITS = ("infantry", "line", "scout", "observer", "long range")
STATS = ("attack", "defense", "mobility")


@dataclass(frozen=True)
class Unit:
    """AI-1: a unit with its stats and traits; ``armour`` / ``size`` 0 when it has none (AI-14)."""

    name: str
    attack: int
    defense: int
    mobility: int
    traits: tuple[str, ...] = ()
    armour: int = 0
    size: int = 0

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def is_line(self) -> bool:
        """AI-1: line units (an infantry division is a line unit)."""
        return self.has("line") or self.has("infantry")

    def stat(self, name: str) -> int:
        if name not in STATS:
            raise ArgumentError(f"A unit has attack, defense and mobility (got {brief_repr(name)})")
        return {"attack": self.attack, "defense": self.defense, "mobility": self.mobility}[name]

    def toughness(self) -> str:
        parts = []
        if self.armour:
            parts.append(f"armour {self.armour}")
        if self.size:
            parts.append(f"size {self.size}")
        return ", ".join(parts) or "falls to 1 casualty (HR-AI-1)"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "attack": self.attack, "defense": self.defense, "mobility": self.mobility,
                "traits": list(self.traits), "armour": self.armour, "size": self.size}


@dataclass(frozen=True)
class General:
    """AI-1: an army's general, level 0–3 (level 3 is skilled, AI-9), with traits."""

    name: str
    level: int
    traits: tuple[str, ...] = ()

    @property
    def skilled(self) -> bool:
        return self.level >= 3


@dataclass(frozen=True)
class Army:
    """AI-1: an army: its units (those that joined later included), its vanguard and rearguard
    as set up (unit indexes), its general."""

    name: str
    units: tuple[Unit, ...]
    vanguard: int
    rearguard: int
    general: General | None
    level: str | None = None  # the app's level when the app plays this army (issue 17)


@dataclass(frozen=True)
class Bid:
    """AI-7: a side's declaration for the week: a maneuver, its stratagems (keys) and, for a
    Withdraw, the rearguard it names (AI-2; ``None``: the army's current rearguard).

    ``sealed`` marks the placeholder of a spectator's copy: the side declared, the copy
    does not say what (its ``maneuver`` is ``""``).
    """

    maneuver: str
    stratagems: tuple[str, ...] = ()
    rearguard: int | None = None
    sealed: bool = False


@dataclass(frozen=True)
class Pool:
    """AI-2/AI-3: an army's dice for one maneuver and how they were worked out.

    ``base`` is the line unit's stat (``line_unit`` its index), ``rest_total`` the
    reinforcement total, ``reinforcement`` the dice it gives (0 when the rules allow
    none), ``extra`` dice added by a stratagem (Deception's scouting roll), ``dice``
    the total rolled, ``next_needs`` how much more strength the next reinforcement die
    needs (``None`` when there is no reinforcement), ``reinforcing`` the units whose
    stats reinforce it (each once).
    """

    maneuver: str
    stat: str
    line_unit: int | None
    base: int
    rest_total: int
    reinforcement: int
    extra: int
    dice: int
    next_needs: int | None
    reinforcing: tuple[int, ...]
    notes: tuple[str, ...] = ()

    def explain(self) -> str:
        text = f"{self.base} ({self.stat})"
        if self.next_needs is not None:
            text += f" + {self.reinforcement} reinforcement (rest {self.rest_total})"
        if self.extra:
            text += f" + {self.extra} scouting"
        return f"{text} = {self.dice} dice"


@dataclass(frozen=True)
class CellEffect:
    """What a result cell does: ``withdraw`` True (succeeds) / False (fails) / None, and the
    casualty range it inflicts on the opponent (``None``: none)."""

    withdraw: bool | None
    casualties: tuple[int, int] | None


@dataclass(frozen=True)
class Stratagem:
    """AI-16: a stratagem: the maneuvers it modifies, what it needs, what the app applies
    (``effect``; ``None`` when the source gives none, AI-17) and whether part of its effect
    is not given (``partly``: Feint's only stated effect is cancelling Counter Attack)."""

    key: str
    name: str
    maneuvers: tuple[str, ...]
    needs: str
    effect: str | None
    partly: bool = False

    @property
    def maneuver(self) -> str:
        """The maneuver it is listed with first (Harassing Fire: Defend; it also goes with Block)."""
        return self.maneuvers[0]

    @property
    def says(self) -> str:
        """What the board says the stratagem does (AI-16, AI-17)."""
        if self.effect is None:
            return NO_EFFECT
        if self.partly:
            return f"{self.effect}; any other effect is not given in the rules — the invigilator decides"
        return self.effect


SKILLED = "a skilled general (level 3, AI-9)"

STRATAGEMS: tuple[Stratagem, ...] = (
    Stratagem("deception", "Deception", ("withdraw",), "a general of level 2 or more",
              "adds the scouting roll's successes to the withdraw roll (HR-AI-4)"),
    Stratagem("covering_fire", "Covering Fire", ("withdraw",), "an observer unit or general",
              "long-range units (not the rearguard) add their defense to the reinforcement total; a "
              "long-range scout adds its mobility and its defense"),
    Stratagem("last_stand", "Last Stand", ("withdraw",), "a general of level 1 or more",
              "the rearguard uses defense instead of mobility; on a successful withdraw the rearguard "
              "and its reinforcing units are destroyed"),
    Stratagem("continuous_front", "Continuous Front", ("defend",), "at least 20 infantry divisions",
              "the enemy cannot withdraw through the defended hex"),
    Stratagem("hold_the_line", "Hold the Line", ("defend",), "a general of level 1 or more",
              "no fallback from a successful Attack or Shock Attack (AI-19); no casualty mitigation"),
    Stratagem("counter_attack", "Counter Attack", ("defend",), "a general of level 2 or more",
              "after the enemy declares Attack or Shock Attack, switch to Attack without reinforcement "
              "dice; cancelled by the enemy's Feint (and cancels it)"),
    Stratagem("harassing_fire", "Harassing Fire", ("defend", "block"), "an observer unit or general, and a "
              "long-range unit (HR-AI-5)",
              "against an enemy Withdraw, Defend or Block, read your result as if you had declared "
              "Skirmish; only long-range units count as line and reinforcement"),
    Stratagem("delay", "Delay", ("block",), "a general of level 2 or more",
              "half the successes (rounded down) mitigate casualties"),
    Stratagem("hammer_and_anvil", "Hammer and Anvil", ("block",), "a general of level 3", None),
    Stratagem("encirclement", "Encirclement", ("block",), SKILLED, None),
    Stratagem("ambush", "Ambush", ("block",), "nothing stated", None),
    Stratagem("raid", "Raid", ("skirmish",), SKILLED, None),
    Stratagem("guerrilla", "Guerrilla", ("skirmish",), SKILLED, None),
    Stratagem("flanking", "Flanking", ("attack",), SKILLED, None),
    Stratagem("feint", "Feint", ("attack",), SKILLED, "cancels the enemy's Counter Attack (and is cancelled "
              "by it)", partly=True),
    Stratagem("surprise", "Surprise", ("shock",), SKILLED, None),
    Stratagem("speed", "Speed", ("shock",), "faster units: the army's Skirmish pool is larger than the "
              "enemy's (ruling)", None),
)

STRATAGEM_BY_KEY: Mapping[str, Stratagem] = MappingProxyType({s.key: s for s in STRATAGEMS})
STRATAGEM_ORDER = {s.key: i for i, s in enumerate(STRATAGEMS)}

#: AI-17: what a stratagem without a stated effect says when declared.
NO_EFFECT = "effect not given in the rules — the invigilator decides"


@dataclass(frozen=True)
class Rolls:
    """What the dice gave in one week (the input of :func:`~engine.ascension.resolve`).

    ``successes`` per side (AI-6); ``ranges`` per side the roll of its cell's casualty
    range (AI-12): a number in the range, or ``None`` where the cell has no range or a
    single number (then it is that number); ``dice`` the faces when they are known
    (``None``: only the successes were entered).
    """

    successes: tuple[int, int]
    ranges: tuple[int | None, int | None] = (None, None)
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None = None


@dataclass(frozen=True)
class WeekResult:
    """One week's roll and its consequences (AI-8 … AI-19), as :func:`~engine.ascension.resolve` gives it.

    Per side (tuples of two): the final ``maneuvers`` (after a Counter Attack switch),
    ``read_as`` (the row read — Skirmish under Harassing Fire), ``stratagems``,
    ``pools``, ``dice`` (``None`` when only successes were entered), ``successes``,
    ``cells`` and whether each was ``applied`` (AI-10 variant: the loser's is not),
    casualty ``ranges`` and ``rolled`` (AI-12), ``mitigation`` (how many casualties the
    side could cancel, AI-15/Delay) and ``mitigated`` (how many it did cancel),
    ``taken`` (casualties that landed on it), ``hits`` ((unit, casualties) pairs),
    ``lost`` (names of its destroyed units), ``withdrew`` (got away, AI-15),
    ``fell_back`` (AI-19). ``winner`` is None for a drawn combat. ``ended`` is how the
    battle ended this week (empty: it goes on), ``how`` the same in a few words.
    ``damage``, ``destroyed``, ``vanguards``, ``rearguards`` are the armies after the
    week.
    """

    week: int
    maneuvers: tuple[str, str]
    read_as: tuple[str, str]
    stratagems: tuple[tuple[str, ...], tuple[str, ...]]
    pools: tuple[Pool, Pool]
    dice: tuple[tuple[int, ...], tuple[int, ...]] | None
    successes: tuple[int, int]
    margin: int
    winner: int | None
    tier: str
    cells: tuple[Cell, Cell]
    applied: tuple[bool, bool]
    ranges: tuple[tuple[int, int] | None, tuple[int, int] | None]
    rolled: tuple[int, int]
    mitigation: tuple[int, int]
    mitigated: tuple[int, int]
    taken: tuple[int, int]
    hits: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    lost: tuple[tuple[str, ...], tuple[str, ...]]
    withdrew: tuple[bool, bool]
    fell_back: tuple[bool, bool]
    notes: tuple[str, ...]
    headline: str
    ended: str
    how: str
    damage: tuple[tuple[int, ...], tuple[int, ...]]
    destroyed: tuple[tuple[bool, ...], tuple[bool, ...]]
    vanguards: tuple[int, int]
    rearguards: tuple[int, int]
    rearguards_used: tuple[int | None, int | None] = (None, None)
    whys: tuple[str, str] = ("", "")  # the app general's reasons for its bid (issue 17)


PHASES = ("bid", "revealed", "over")


@dataclass(frozen=True)
class BattleState:
    """The battle at one moment. Immutable: :func:`~engine.ascension.step` returns a new one.

    * ``armies`` as set up, with units that joined later; ``damage[side][unit]``
      casualties carried (size, AI-14); ``destroyed[side][unit]``;
    * ``vanguards`` / ``rearguards``: current unit indexes (HR-AI-3);
    * ``week`` (from 1), ``phase`` (:data:`PHASES`), ``bids`` (None until declared),
      ``switched`` (Counter Attack taken after the reveal);
    * ``weeks``: finished weeks; ``outcome``: how it ended; ``how``: the same, short;
    * ``changes``: (week, text) of the units that joined or were corrected;
    * ``phases_done``: ticked AI-18 steps of this turn; ``rules`` the settings as pairs;
    * ``spectator``: a spectator's copy; ``old_rulings``: played before the AI-16/AI-19
      rulings (see :func:`~engine.ascension.upgrade`).
    """

    armies: tuple[Army, Army]
    damage: tuple[tuple[int, ...], tuple[int, ...]]
    destroyed: tuple[tuple[bool, ...], tuple[bool, ...]]
    vanguards: tuple[int, int]
    rearguards: tuple[int, int]
    week: int
    phase: str
    bids: tuple[Bid | None, Bid | None]
    switched: tuple[bool, bool]
    weeks: tuple[WeekResult, ...]
    phases_done: tuple[int, ...]
    rules: tuple[tuple[str, Any], ...]
    outcome: str = ""
    how: str = ""
    changes: tuple[tuple[int, str], ...] = ()
    spectator: bool = False
    old_rulings: bool = False
    whys: tuple[str, str] = ("", "")  # the app general's one-line reasons for this week's bids
    policy: int = 1  # HR-AI-15: the app general's policy version the battle was started with

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.rules)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def alive(self, side: int) -> list[int]:
        return [i for i, dead in enumerate(self.destroyed[side_arg(side)]) if not dead]
