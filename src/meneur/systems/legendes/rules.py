"""The Légendes rules as pure functions: opposition levels, groups, the opposed roll, help.

Everything a roll needs is in its frozen params; ``resolve`` reads the hero's dice on
stream 0 and the other side's on stream 1 (for help: the helper on 0, the helped on 1),
through :class:`~meneur.systems.base.FaceReader`, so random dice, typed faces, brute force
and replays share one code path. The numbers (dice per domain and level, band cut-offs,
penalties) come from ``data/rules.toml``; the rule ids are those of docs/rules.md, section L.

What lasts between rolls (wounds, helpers used, roll counts) is not here but in
:mod:`meneur.systems.legendes.sheet`, which calls these functions.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from meneur.errors import LimitError, RuleError, UsageError
from meneur.locale import N_
from meneur.systems.base import Check, FaceReader, Faces
from meneur.systems.legendes.data import Term, rules_data
from meneur.text import fold

if TYPE_CHECKING:
    from meneur.odds.dist import Dist

Level = Literal["commun", "elite", "heroique", "legendaire"]
Domain = Literal["legendary", "secondary", "ordinary"]
Band = Literal["definitive", "partial", "advantage", "cosmetic", "tie"]
Winner = Literal["pc", "opposition"]
Effect = Literal["extra_die", "plus_2", "plus_1", "cosmetic", "none"]
Wound = Literal["none", "light", "grave"]
Partial = Literal["wound", "doubt"]
"""What a *victoire partielle* does to the loser (L-13): a wound, or doubt (social)."""
SceneKind = Literal["physical", "social"]

LEVELS: tuple[Level, ...] = ("commun", "elite", "heroique", "legendaire")
"""From the lowest to the highest (L-3); L-4 steps a group up in this order."""
DOMAINS: tuple[Domain, ...] = ("legendary", "secondary", "ordinary")
BANDS: tuple[Band, ...] = ("definitive", "partial", "advantage", "cosmetic", "tie")
"""From the strongest to the weakest (L-8)."""
EFFECTS: tuple[Effect, ...] = ("extra_die", "plus_2", "plus_1", "cosmetic", "none")
WOUNDS: tuple[Wound, ...] = ("none", "light", "grave")
PARTIALS: tuple[Partial, ...] = ("wound", "doubt")
SCENE_KINDS: tuple[SceneKind, ...] = ("physical", "social")
OUTCOME_KEYS: tuple[str, ...] = (
    "win:definitive",
    "win:partial",
    "win:advantage",
    "win:cosmetic",
    "tie",
    "loss:cosmetic",
    "loss:advantage",
    "loss:partial",
    "loss:definitive",
)
"""The keys of the odds, from the hero's point of view (a public JSON contract)."""

MAX_CROWD = 100_000
DOMAIN_LENGTH = 80
"""The longest name of a domain (L-1), typed (``scene roll --domain``) or on a sheet: one
rule for both, since a domain on a sheet is rolled by typing its name."""

_LEVEL_NAMES: dict[str, Level] = {
    "legendaire": "legendaire",
    "legendary": "legendaire",
    "heroique": "heroique",
    "heroic": "heroique",
    "elite": "elite",
    "commun": "commun",
    "common": "commun",
    "commoner": "commun",
    "commoners": "commun",
}
DOMAIN_NAMES: dict[str, Domain] = {
    "legendary": "legendary",
    "legendaire": "legendary",
    "secondary": "secondary",
    "secondaire": "secondary",
    "ordinary": "ordinary",
    "ordinaire": "ordinary",
}
_BAND_NAMES: dict[str, Band] = {
    "definitive": "definitive",
    "partial": "partial",
    "partielle": "partial",
    "advantage": "advantage",
    "avantage": "advantage",
    "cosmetic": "cosmetic",
    "cosmetique": "cosmetic",
    "tie": "tie",
    "egalite": "tie",
}

_PARTIAL_NAMES: dict[str, Partial] = {
    "wound": "wound",
    "blessure": "wound",
    "doubt": "doubt",
    "doute": "doubt",
}
_SCENE_KIND_NAMES: dict[str, SceneKind] = {
    "physical": "physical",
    "physique": "physical",
    "social": "social",
    "sociale": "social",
}
UNKNOWN_BAND = N_(
    "Unknown outcome '{band}': choose definitive, partial, advantage, cosmetic or tie."
)
UNKNOWN_PARTIAL = N_(
    "Unknown effect of a partial victory '{partial}': choose wound or doubt (L-13)."
)
UNKNOWN_WOUND = N_("Unknown wound '{wound}': choose none, light or grave (L-13).")
UNKNOWN_SCENE_KIND = N_("Unknown kind of scene '{kind}': choose physical or social (L-13).")


def parse_partial(text: str) -> Partial:
    """What a partial victory does (L-13), in French or English: wound or doubt."""
    partial = _PARTIAL_NAMES.get(fold(text))
    if partial is None:
        raise UsageError(UNKNOWN_PARTIAL, partial=text)
    return partial


def parse_scene_kind(text: str) -> SceneKind:
    """A scene's kind (L-13): physical (a partial victory wounds) or social (it makes doubt)."""
    kind = _SCENE_KIND_NAMES.get(fold(text))
    if kind is None:
        raise UsageError(UNKNOWN_SCENE_KIND, kind=text)
    return kind


def partial_of(kind: SceneKind) -> Partial:
    """The default effect of a partial victory in a scene of this kind (L-13)."""
    return "doubt" if kind == "social" else "wound"


def parse_level(text: str) -> Level:
    """An opposition level typed in French or English, accents and case ignored (L-3)."""
    level = _LEVEL_NAMES.get(fold(text))
    if level is None:
        raise UsageError(
            N_("Unknown opposition level '{level}': choose légendaire, héroïque, élite or commun."),
            level=text,
        )
    return level


def parse_domain(text: str) -> Domain:
    """A hero's domain kind: legendary, secondary or ordinary (French names too)."""
    domain = DOMAIN_NAMES.get(fold(text))
    if domain is None:
        raise UsageError(
            N_("Unknown domain '{domain}': choose legendary, secondary or ordinary."),
            domain=text,
        )
    return domain


def parse_band(text: str) -> Band:
    """An outcome band, for the winner's choice of a lesser outcome."""
    band = _BAND_NAMES.get(fold(text).removeprefix("victoire-"))
    if band is None:
        raise UsageError(UNKNOWN_BAND, band=text)
    return band


def domain_dice(domain: Domain) -> int:
    """Dice a hero rolls in a domain (L-1: legendary 3, secondary 2, ordinary 0)."""
    value: int = getattr(rules_data().domains, domain)
    return value


def level_dice(level: Level) -> int:
    """Dice an opposition of this level rolls (L-3: 3, 2, 1, 0)."""
    value: int = getattr(rules_data().levels, level)
    return value


def merges(level: Level) -> bool:
    """Whether about ten members of ``level`` make one opposition of the next level (L-4).

    Légendaire has no level above it: légendaires never merge.
    """
    return LEVELS.index(level) < len(LEVELS) - 1


def group_level(level: Level) -> Level:
    """The level of a group of about ten members of ``level`` (L-4): one step up.

    A group of légendaires is refused (they stay one opposition each): the caller adds
    them one by one, or as a crowd (:func:`crowd`).
    """
    if not merges(level):
        raise RuleError(
            N_(
                "Légendaires never merge into a group (L-4): ten légendaires are ten "
                "légendaire oppositions."
            )
        )
    return LEVELS[LEVELS.index(level) + 1]


def crowd(level: Level, members: int) -> tuple[Level, ...]:
    """The oppositions a crowd makes (L-4): groups of ten step up once, the rest stay.

    A hundred commoners are ten élite oppositions (not one héroïque: it is not
    cumulative); ten légendaires stay ten légendaire oppositions (nothing is above).
    """
    if isinstance(members, bool) or not isinstance(members, int) or members < 1:
        raise RuleError(N_("A crowd has at least one member."))
    if members > MAX_CROWD:
        raise LimitError(N_("A crowd has at most {limit} members."), limit=MAX_CROWD)
    if not merges(level):
        return (level,) * members
    size = rules_data().groups.size
    groups, rest = divmod(members, size)
    return (group_level(level),) * groups + (level,) * rest


def is_swept(level: Level | None, weakness: bool) -> bool:
    """Commoners are swept with no roll, unless a weakness is involved (L-5)."""
    return level == "commun" and not weakness


def band_of(difference: int) -> Band:
    """The outcome band of a difference (L-8): 6+, 4-5, 2-3, 1, 0 by default."""
    cuts = rules_data().resolution
    d = abs(difference)
    if d >= cuts.definitive:
        return "definitive"
    if d >= cuts.partial:
        return "partial"
    if d >= cuts.advantage:
        return "advantage"
    if d >= cuts.cosmetic:
        return "cosmetic"
    return "tie"


def lesser(band: Band, cap: Band | None) -> Band:
    """The outcome the winner takes: ``band``, or a lesser one they chose (L-8)."""
    if cap is None or band == "tie":
        return band
    return BANDS[max(BANDS.index(band), BANDS.index(cap))]


def help_effect(difference: int) -> Effect:
    """What help gives (L-11), by helper total minus helped total."""
    cuts = rules_data().help
    if difference < 0:
        return "none"
    if difference >= cuts.extra_die:
        return "extra_die"
    if difference >= cuts.plus_2:
        return "plus_2"
    if difference >= cuts.plus_1:
        return "plus_1"
    return "cosmetic"


def effect_bonus(effect: Effect) -> tuple[int, int]:
    """(dice, points) a help effect adds to the helped character's next roll (L-11)."""
    return {"extra_die": (1, 0), "plus_2": (0, 2), "plus_1": (0, 1)}.get(effect, (0, 0))


def next_wound(current: Wound) -> Wound:
    """A wound on top of ``current`` (L-13): none → light → grave → grave."""
    return WOUNDS[min(WOUNDS.index(current) + 1, len(WOUNDS) - 1)]


BOTH_WOUNDS = N_("A wound is light or grave, not both (L-13: a second wound makes it grave).")


def wound_of(*, light: bool, grave: bool) -> Wound:
    """The one wound of a character given as two flags (L-13); both at once are refused."""
    if light and grave:
        raise UsageError(BOTH_WOUNDS)
    return "grave" if grave else "light" if light else "none"


def wound_malus(wound: Wound) -> tuple[int, int]:
    """(dice, points) a wound takes from its bearer's roll (L-13): a light wound −2 on the
    sum, a grave one −1 die (``rules.toml``). The one derivation of every roll: the
    opposed roll, on either side, and the helped character's side of a help (L-11)."""
    data = rules_data().wounds
    if wound == "grave":
        return data.grave_dice, 0
    if wound == "light":
        return 0, data.light_penalty
    return 0, 0


def reach_motivation(points: int, choice: Literal["keep", "raise"]) -> int:
    """Motivation points after reaching the motivation (L-12): keep → 1, raise → kept."""
    return 1 if choice == "keep" else points


def unopposed(within_capabilities: bool) -> bool:
    """An unopposed action succeeds exactly when it is within the hero's capabilities (L-2)."""
    return within_capabilities


def hero_dies(motivation_points: int, regret_invoked: bool) -> bool:
    """A legendary hero dies only with no motivation point left and the regret invoked (L-14)."""
    return motivation_points == 0 and regret_invoked


def npc_out_after_wound(level: Level, keeps_fighting: bool | None = None) -> bool:
    """Whether an NPC is out after its first wound (L-14): non-heroic ones are, by default."""
    if keeps_fighting is not None:
        return not keeps_fighting
    return level in ("commun", "elite")


def check_circumstance(modifier: int) -> int:
    """A circumstance modifier is only ±2 (L-7), or none."""
    allowed = rules_data().resolution.circumstances
    if isinstance(modifier, bool) or not isinstance(modifier, int) or modifier not in allowed:
        raise RuleError(
            N_(
                "Only ±2 is a circumstance (L-7): the modifier is one of {allowed}, not {modifier}."
            ),
            allowed=", ".join(f"{a:+d}" if a else "0" for a in allowed),
            modifier=modifier,
        )
    return modifier


def _count(value: int, low: int, high: int, what: str) -> None:
    what = Term(what)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(N_("{what} is a whole number."), what=what)
    if value < low:
        raise RuleError(
            N_("{what} is at least {low}, not {value}."), what=what, low=low, value=value
        )
    if value > high:
        raise LimitError(
            N_("{what} is at most {high}, not {value}."), what=what, high=high, value=value
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class OpposedParams:
    """An opposed roll (L-6 to L-8, L-12, L-13): the hero against one opposition.

    ``dice`` are the dice of the hero's domain, ``vs_dice`` those of the opposition
    (``vs_level`` names its level when it has one, for L-5). Maluses and bonuses are
    applied here, never below 0 dice (L-6).
    """

    dice: int
    vs_dice: int
    vs_level: Level | None = None
    modifier: int = 0
    weakness: bool = False
    regret: int = 0
    removed_dice: int = 0
    light_wound: bool = False
    grave_wound: bool = False
    motivation: bool = False
    spend: int = 0
    extra_dice: int = 0
    bonus: int = 0
    vs_light_wound: bool = False
    vs_grave_wound: bool = False
    take: Band | None = None
    partial: Partial = "wound"
    """What a *victoire partielle* taken does to the loser (L-13): a wound, or doubt."""

    MAX_DICE: ClassVar[int] = 30
    """Dice on one side of a roll, before bonuses (a domain rolls 3; a crowd is split,
    L-4), and dice removed: the one bound that the CLI, the web table, the lab, the
    scene roll and the sheets read here."""
    MAX_SPEND: ClassVar[int] = 10
    """Motivation points spent on one roll (L-12: +1 die each)."""
    MAX_EXTRA_DICE: ClassVar[int] = 5
    """Extra dice from help (L-11)."""

    def __post_init__(self) -> None:
        _count(self.dice, 0, self.MAX_DICE, N_("The number of dice"))
        _count(self.vs_dice, 0, self.MAX_DICE, N_("The opposition's number of dice"))
        if self.vs_level is not None and self.vs_level not in LEVELS:
            raise UsageError(N_("Unknown opposition level '{level}'."), level=str(self.vs_level))
        check_circumstance(self.modifier)
        if self.regret not in (0, 1, 2) or isinstance(self.regret, bool):
            raise RuleError(
                N_("A regret or blocage removes 1 or 2 dice (L-6), not {regret}."),
                regret=self.regret,
            )
        _count(self.removed_dice, 0, self.MAX_DICE, N_("The dice removed"))
        _count(self.spend, 0, self.MAX_SPEND, N_("The motivation points spent"))
        _count(self.extra_dice, 0, self.MAX_EXTRA_DICE, N_("The extra dice"))
        _count(self.bonus, 0, 5, N_("The help bonus"))
        if self.take is not None and self.take not in BANDS:
            raise UsageError(UNKNOWN_BAND, band=str(self.take))
        if self.partial not in PARTIALS:
            raise UsageError(UNKNOWN_PARTIAL, partial=str(self.partial))
        wound_of(light=self.light_wound, grave=self.grave_wound)
        wound_of(light=self.vs_light_wound, grave=self.vs_grave_wound)

    @property
    def wound(self) -> Wound:
        """The hero's wound (L-13)."""
        return wound_of(light=self.light_wound, grave=self.grave_wound)

    @property
    def vs_wound(self) -> Wound:
        """The opposition's wound (L-13)."""
        return wound_of(light=self.vs_light_wound, grave=self.vs_grave_wound)

    @property
    def swept(self) -> bool:
        return is_swept(self.vs_level, self.weakness)

    @property
    def pc_dice(self) -> int:
        """The hero's dice after maluses and bonuses, never below 0 (L-6, L-12, L-13)."""
        data = rules_data()
        maluses = int(self.weakness) + self.regret + self.removed_dice + wound_malus(self.wound)[0]
        bonuses = self.spend * data.motivation.dice_per_point + self.extra_dice
        return max(0, self.dice - maluses + bonuses)

    @property
    def pc_bonus(self) -> int:
        """What is added to the hero's sum (L-7, L-12, L-13, help of L-11)."""
        data = rules_data()
        return (
            self.modifier
            + (data.motivation.bonus if self.motivation else 0)
            + self.bonus
            - wound_malus(self.wound)[1]
        )

    @property
    def opposition_dice(self) -> int:
        return max(0, self.vs_dice - wound_malus(self.vs_wound)[0])

    @property
    def opposition_bonus(self) -> int:
        return -wound_malus(self.vs_wound)[1]


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    faces: tuple[int, ...]
    vs_faces: tuple[int, ...]
    total: int
    opposition_total: int
    winner: Winner | None
    band: Band
    taken: Band
    swept: bool

    @property
    def difference(self) -> int:
        return abs(self.total - self.opposition_total)


def outcome_key(winner: Winner | None, band: Band) -> str:
    """``win:partial``, ``loss:cosmetic``, ``tie``: the hero's point of view."""
    if winner is None or band == "tie":
        return "tie"
    return f"{'win' if winner == 'pc' else 'loss'}:{band}"


def compare(total: int, opposition_total: int) -> tuple[Winner | None, Band]:
    """Winner and band of two totals (L-8)."""
    band = band_of(total - opposition_total)
    if band == "tie":
        return None, "tie"
    return ("pc" if total > opposition_total else "opposition"), band


class LegendesTest(Check[OpposedParams, OpposedOutcome]):
    """``meneur test legendes``: the hero's dice against an opposition's (L-5 to L-8)."""

    name: ClassVar[str] = "test"
    die_sides: ClassVar[int] = 6

    def vectorised(self, params: OpposedParams) -> Any:
        """The design lab's numpy resolve (swept commoners roll nothing)."""
        if params.swept:
            return None
        from meneur.systems.legendes.vector import LegendesTestVector

        return LegendesTestVector(params)

    def streams(self, params: OpposedParams) -> int:
        return 2

    def resolve(self, params: OpposedParams, faces: Faces) -> OpposedOutcome:
        if params.swept:
            return OpposedOutcome(
                (), (), 0, 0, "pc", "definitive", lesser("definitive", params.take), True
            )
        reader = FaceReader(faces)
        mine = reader.take(params.pc_dice, 0)
        theirs = reader.take(params.opposition_dice, 1)
        total = sum(mine) + params.pc_bonus
        opposition_total = sum(theirs) + params.opposition_bonus
        winner, band = compare(total, opposition_total)
        return OpposedOutcome(
            mine, theirs, total, opposition_total, winner, band, lesser(band, params.take), False
        )

    def key(self, outcome: OpposedOutcome) -> Hashable:
        return outcome_key(outcome.winner, outcome.band)

    def score(self, key: Hashable) -> float | None:
        """The hero's point of view: from a definitive win down to a definitive loss."""
        return float(-OUTCOME_KEYS.index(str(key)))

    def odds(self, params: OpposedParams) -> Dist[Hashable]:
        from meneur.systems.legendes.odds import opposed_odds

        return opposed_odds(params)  # type: ignore[return-value]

    def examples(self) -> Sequence[OpposedParams]:
        return (
            OpposedParams(dice=3, vs_dice=2),
            OpposedParams(dice=2, vs_dice=3, vs_level="legendaire", modifier=-2, motivation=True),
            OpposedParams(dice=3, vs_dice=2, weakness=True, regret=1, spend=1, light_wound=True),
            OpposedParams(dice=2, vs_dice=0, vs_level="commun", weakness=True, modifier=2),
            OpposedParams(dice=3, vs_dice=0, vs_level="commun"),
            OpposedParams(dice=0, vs_dice=1, vs_level="elite", spend=1, bonus=2),
            OpposedParams(
                dice=2, vs_dice=2, grave_wound=True, vs_light_wound=True, take="advantage"
            ),
            OpposedParams(dice=3, vs_dice=3, partial="doubt"),
        )

    def to_json(self, params: OpposedParams, outcome: OpposedOutcome) -> dict[str, Any]:
        return {
            "system": "legendes",
            "total": outcome.total,
            "opposition_total": outcome.opposition_total,
            "difference": outcome.difference,
            "winner": outcome.winner,
            "outcome": outcome.band,
            "taken": outcome.taken,
            "partial": params.partial,
            "key": outcome_key(outcome.winner, outcome.band),
            "swept": outcome.swept,
            "dice": params.pc_dice,
            "opposition_dice": params.opposition_dice,
            "opposition_level": params.vs_level,
            "faces": list(outcome.faces),
            "vs_faces": list(outcome.vs_faces),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class HelpParams:
    """A help roll (L-11): the helper's dice opposed to the helped character's dice.

    ``helped_dice`` are the dice of the helped character's domain; their wound weighs on
    their side of the roll as on any roll of theirs (L-13, :func:`wound_malus`)."""

    helper_dice: int
    helped_dice: int
    modifier: int = 0
    helped_wound: Wound = "none"

    def __post_init__(self) -> None:
        _count(self.helper_dice, 0, OpposedParams.MAX_DICE, N_("The helper's number of dice"))
        _count(
            self.helped_dice, 0, OpposedParams.MAX_DICE, N_("The helped character's number of dice")
        )
        check_circumstance(self.modifier)
        if self.helped_wound not in WOUNDS:
            raise UsageError(UNKNOWN_WOUND, wound=str(self.helped_wound))

    @property
    def helped_pool(self) -> int:
        """The helped character's dice after their wound, never below 0 (L-6, L-13)."""
        return max(0, self.helped_dice - wound_malus(self.helped_wound)[0])

    @property
    def helped_bonus(self) -> int:
        """What is added to the helped character's sum: their wound's penalty (L-13)."""
        return -wound_malus(self.helped_wound)[1]


@dataclass(frozen=True, slots=True)
class HelpOutcome:
    helper_faces: tuple[int, ...]
    helped_faces: tuple[int, ...]
    helper_total: int
    helped_total: int
    effect: Effect

    @property
    def difference(self) -> int:
        return self.helper_total - self.helped_total


class LegendesAid(Check[HelpParams, HelpOutcome]):
    """``meneur aid legendes``: what a helper's roll gives the helped character (L-11)."""

    name: ClassVar[str] = "aid"
    die_sides: ClassVar[int] = 6

    def streams(self, params: HelpParams) -> int:
        return 2

    def resolve(self, params: HelpParams, faces: Faces) -> HelpOutcome:
        reader = FaceReader(faces)
        helper = reader.take(params.helper_dice, 0)
        helped = reader.take(params.helped_pool, 1)
        helper_total = sum(helper) + params.modifier
        helped_total = sum(helped) + params.helped_bonus
        return HelpOutcome(
            helper, helped, helper_total, helped_total, help_effect(helper_total - helped_total)
        )

    def key(self, outcome: HelpOutcome) -> Hashable:
        return outcome.effect

    def score(self, key: Hashable) -> float | None:
        """From no help up to an extra die."""
        return float(-EFFECTS.index(cast("Effect", key)))

    def odds(self, params: HelpParams) -> Dist[Hashable]:
        from meneur.systems.legendes.odds import help_odds

        return help_odds(params)  # type: ignore[return-value]

    def examples(self) -> Sequence[HelpParams]:
        return (
            HelpParams(helper_dice=3, helped_dice=2),
            HelpParams(helper_dice=2, helped_dice=2, modifier=2),
            HelpParams(helper_dice=1, helped_dice=3),
            HelpParams(helper_dice=2, helped_dice=2, helped_wound="light"),
            HelpParams(helper_dice=2, helped_dice=3, helped_wound="grave"),
        )

    def to_json(self, params: HelpParams, outcome: HelpOutcome) -> dict[str, Any]:
        dice, bonus = effect_bonus(outcome.effect)
        return {
            "system": "legendes",
            "helper_total": outcome.helper_total,
            "helped_total": outcome.helped_total,
            "difference": outcome.difference,
            "effect": outcome.effect,
            "extra_dice": dice,
            "bonus": bonus,
            "helper_faces": list(outcome.helper_faces),
            "helped_faces": list(outcome.helped_faces),
        }
