"""A scene, step by step: what each step does to the hero sheet (L-9 to L-14).

Each function takes a hero, works on a deep copy and returns the new hero with a report
(a JSON-ready dict). Nothing here writes files: the CLI saves the returned hero only
when the step succeeded, so a refused step (a second help by the same helper, a roll
against an opposition already out...) leaves the sheet untouched.

Rolls go through the same :class:`~meneur.systems.legendes.rules.LegendesTest.resolve`
as ``meneur test legendes``: the hero's faces are drawn once and compared with each
opposition's own faces, two by two (L-10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any, Literal

from meneur.errors import RuleError, UsageError
from meneur.locale import N_, quoted
from meneur.rng import DiceSource, HeldDice
from meneur.systems.base import FaceReader
from meneur.systems.legendes.data import rules_data
from meneur.systems.legendes.rules import (
    DOMAIN_NAMES,
    Band,
    Domain,
    HelpParams,
    LegendesAid,
    LegendesTest,
    Level,
    OpposedParams,
    Partial,
    SceneKind,
    crowd,
    domain_dice,
    effect_bonus,
    group_level,
    hero_dies,
    level_dice,
    merges,
    next_wound,
    npc_out_after_wound,
    outcome_key,
    partial_of,
    reach_motivation,
)
from meneur.systems.legendes.sheet import (
    MAX_OPPOSITIONS,
    Hero,
    Opposition,
    PendingHelp,
    Scene,
)
from meneur.text import NAME_LENGTH, fold

DURATIONS: tuple[str, ...] = (
    N_("an exchange"),
    N_("a series of exchanges"),
    N_("a few minutes of combat"),
    N_("a long fight"),
)
"""L-9: the time scale of an opposition steps up every two rolls (the text names three
steps; the fourth, and everything after it, is ours)."""


def duration_of(rolls: int) -> str:
    """The time scale (a message id) of an opposition's roll number ``rolls`` (1-based)."""
    return DURATIONS[min(max(rolls - 1, 0) // 2, len(DURATIONS) - 1)]


def _scene(hero: Hero) -> Scene:
    if hero.scene is None:
        raise RuleError(N_("No scene in progress: start one with 'meneur scene legendes start'."))
    return hero.scene


def _alive(hero: Hero) -> None:
    if hero.dead:
        raise RuleError(
            N_("{name} is dead (L-14): the sheet plays no more scenes."), name=hero.name
        )


def domain_of(hero: Hero, text: str) -> tuple[Domain, str]:
    """The domain kind of what the hero does: one of their domains by name, or a kind.

    Anything the sheet does not list is ordinary (L-1: "pour tout le reste").
    """
    wanted = fold(text)
    for name in hero.legendary:
        if fold(name) == wanted:
            return "legendary", name
    for name in hero.secondary:
        if fold(name) == wanted:
            return "secondary", name
    kind = DOMAIN_NAMES.get(wanted)
    if kind is not None:
        return kind, text
    return "ordinary", text


CLOSE_ENOUGH = 0.8
"""How alike (:func:`difflib.get_close_matches`' ratio, on folded names) a typed domain
and one of the sheet must be for the typed one to be taken for a typo: « magie des
ronses » for « Magie des ronces » is 0.94, « art » for « Arc » 0.67."""


def unlisted(hero: Hero, text: str) -> bool:
    """Whether ``text`` names neither a domain of the sheet nor a kind (legendary,
    secondary, ordinary): L-1 rolls it as ordinary, and the output says so."""
    kind, _name = domain_of(hero, text)
    return kind == "ordinary" and fold(text) not in DOMAIN_NAMES


@dataclass(frozen=True, slots=True)
class _Quoted:
    """Names quoted as the message's reader quotes them, when it is shown: the web table
    rolls in a worker thread, which does not know the language of the page."""

    names: tuple[str, ...]

    def __format__(self, spec: str) -> str:
        return format(", ".join(quoted(name) for name in self.names), spec)


def check_domain(hero: Hero, text: str) -> None:
    """Refuse a domain the sheet does not list but nearly does (or nearly names a kind,
    « legendair »), before anything is rolled.

    L-1 rolls anything unlisted as ordinary (no dice by default): a typo of « Magie des
    ronces » cost the hero the exchange, logged and saved on the sheet. The commands call
    this before they roll, not :func:`roll_with`: a roll already logged replays as it was.
    """
    if not unlisted(hero, text):
        return
    names = {key: key for key in DOMAIN_NAMES}  # « legendair »: a kind mistyped
    names.update({fold(name): name for name in (*hero.legendary, *hero.secondary)})
    near = get_close_matches(fold(text), list(names), n=3, cutoff=CLOSE_ENOUGH)
    if near:
        raise UsageError(
            N_(
                "'{domain}' is not on {name}'s sheet: did you mean {known}? Unlisted, it "
                "would roll as an ordinary domain (L-1); to roll an ordinary domain on "
                "purpose, name the domain 'ordinary'."
            ),
            domain=text,
            name=hero.name,
            known=_Quoted(tuple(names[found] for found in near)),
        )


def start(hero: Hero, title: str, kind: SceneKind = "physical") -> tuple[Hero, dict[str, Any]]:
    """Begin a scene; its kind says what a partial victory does by default (L-13)."""
    _alive(hero)
    if hero.scene is not None:
        raise RuleError(N_("A scene is already in progress: end it first."))
    new = hero.model_copy(deep=True)
    new.scene = Scene(title=title, kind=kind)
    return new, {"system": "legendes", "step": "start", "title": title, "kind": kind}


def add(
    hero: Hero,
    name: str,
    level: Level,
    *,
    group: bool = False,
    count: int = 1,
    keeps_fighting: bool | None = None,
) -> tuple[Hero, dict[str, Any]]:
    """Add an opposition, a group of about ten (L-4), or a crowd split into oppositions."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    scene = _scene(new)
    if count > 1:
        if count > MAX_OPPOSITIONS and not merges(level):
            raise RuleError(N_("A scene holds at most {limit} oppositions."), limit=MAX_OPPOSITIONS)
        levels = crowd(level, count)
        names = [f"{name} {i}" for i in range(1, len(levels) + 1)]
        whole = count // rules_data().groups.size if merges(level) else 0
        groups = [i < whole for i in range(len(levels))]
    else:
        levels = (group_level(level),) if group else (level,)
        names = [name]
        groups = [group]
    taken = {fold(o.name) for o in scene.oppositions}
    added = []
    for lvl, label, is_group in zip(levels, names, groups, strict=True):
        if fold(label) in taken:
            raise RuleError(N_("The scene already has an opposition called '{name}'."), name=label)
        opposition = Opposition(
            name=label,
            level=lvl,
            dice=level_dice(lvl),
            group=is_group,
            keeps_fighting=keeps_fighting,
        )
        added.append(opposition)
    if len(scene.oppositions) + len(added) > MAX_OPPOSITIONS:
        raise RuleError(N_("A scene holds at most {limit} oppositions."), limit=MAX_OPPOSITIONS)
    scene.oppositions.extend(added)
    return new, {
        "system": "legendes",
        "step": "add",
        "added": [o.model_dump(mode="json") for o in added],
    }


def add_character(hero: Hero, name: str, dice: int) -> tuple[Hero, dict[str, Any]]:
    """Another character joins the scene (L-10): a player character or a hero, with the
    dice of the domain it acts in (L-1). It may fight beside the hero or against them."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    scene = _scene(new)
    if fold(name) in {fold(o.name) for o in scene.oppositions}:
        raise RuleError(N_("The scene already has an opposition called '{name}'."), name=name)
    if fold(name) == fold(hero.name):
        raise RuleError(N_("{name} is the hero of this sheet."), name=name)
    if len(scene.oppositions) >= MAX_OPPOSITIONS:
        raise RuleError(N_("A scene holds at most {limit} oppositions."), limit=MAX_OPPOSITIONS)
    if (
        isinstance(dice, bool)
        or not isinstance(dice, int)
        or not 0 <= dice <= OpposedParams.MAX_DICE
    ):
        raise RuleError(N_("A character rolls 0 to {most} dice."), most=OpposedParams.MAX_DICE)
    character = Opposition(name=name, character=True, dice=dice)
    scene.oppositions.append(character)
    return new, {
        "system": "legendes",
        "step": "add",
        "added": [character.model_dump(mode="json")],
    }


def find_opposition(scene: Scene, name: str) -> Opposition:
    wanted = fold(name)
    for opposition in scene.oppositions:
        if fold(opposition.name) == wanted:
            return opposition
    raise RuleError(
        N_("No opposition called '{name}' in the scene (known: {known})."),
        name=name,
        known=", ".join(o.name for o in scene.oppositions) or "-",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RollRequest:
    """What the player and the GM say about one roll in the scene.

    ``against``: the oppositions the hero faces; ``allies``: characters of the scene who
    fight beside the hero against the same oppositions ("deux personnages s'attaquent à
    un troisième"); ``each_other``: the oppositions named also fight each other ("trois
    personnages se combattent les uns les autres"). Everyone rolls once; every pair is
    compared (L-10). ``partial``: what a partial victory does (L-13); None: the scene's
    kind decides (physical: a wound, social: doubt).
    """

    domain: str
    dice: int | None = None
    against: Sequence[str]
    allies: Sequence[str] = ()
    each_other: bool = False
    modifier: int = 0
    weakness: bool = False
    regret: int = 0
    removed_dice: int = 0
    motivation: bool = False
    spend: int = 0
    take: Band | None = None
    partial: Partial | None = None

    def __post_init__(self) -> None:
        # tuples whatever the caller gave: frozen, and equal to their own log form
        object.__setattr__(self, "against", tuple(self.against))
        object.__setattr__(self, "allies", tuple(self.allies))


def _pair_params(
    side: Opposition, other: Opposition, take: Band | None, partial: Partial
) -> OpposedParams:
    """Two participants other than the hero, compared (L-10): their own dice and wounds.

    A character sweeps commoners as the hero does (L-5); nobody else does.
    """
    return OpposedParams(
        dice=side.dice,
        vs_dice=other.dice,
        vs_level=other.level if side.character else None,
        light_wound=side.wound == "light",
        grave_wound=side.wound == "grave",
        vs_light_wound=other.wound == "light",
        vs_grave_wound=other.wound == "grave",
        take=take,
        partial=partial,
    )


def _strike(loser: Opposition, taken: Band, partial: Partial, who: str) -> list[str]:
    """What a won pair does to a participant other than the hero (L-8, L-13, L-14)."""
    if taken == "definitive":
        loser.out = True
        return [f"{who}_out"]
    if taken != "partial":
        return []
    if partial == "doubt":
        return [f"{who}_doubt"]
    loser.wound = next_wound(loser.wound)
    effects = [f"{who}_wound:{loser.wound}"]
    if not loser.character and npc_out_after_wound(loser.level, loser.keeps_fighting):  # type: ignore[arg-type]
        loser.out = True
        effects.append(f"{who}_out")
    return effects


def _participants(scene: Scene, request: RollRequest) -> tuple[list[Opposition], list[Opposition]]:
    """The oppositions and the allies named by a roll, checked (L-10, L-14)."""
    if not request.against:
        raise RuleError(N_("Name the opposition to roll against (L-2: no opposition, no roll)."))
    if request.allies and request.each_other:
        raise UsageError(
            N_(
                "In a fight of each against each (L-10) nobody fights beside the hero: "
                "choose allies or each against each, not both."
            )
        )
    oppositions = [find_opposition(scene, name) for name in request.against]
    allies = [find_opposition(scene, name) for name in request.allies]
    named = oppositions + allies
    for index, participant in enumerate(named):
        if any(other is participant for other in named[:index]):
            raise RuleError(
                N_("'{name}' is named twice in this roll: each one rolls once (L-10)."),
                name=participant.name,
            )
    for participant in named:
        if participant.out:
            raise RuleError(
                N_("'{name}' is already out of the scene (L-14)."), name=participant.name
            )
    for ally in allies:
        if not ally.character:
            raise RuleError(
                N_("'{name}' is an opposition: only a character fights beside the hero (L-10)."),
                name=ally.name,
            )
    return oppositions, allies


def roll(
    hero: Hero, request: RollRequest, hero_source: DiceSource, vs_source: DiceSource
) -> tuple[Hero, dict[str, Any]]:
    """:func:`roll_with` as the scene's procedure (logged, replayable): the hero's side on
    ``hero_source``, the oppositions on ``vs_source``."""
    from meneur.systems.legendes.procedures import SceneRoll, SceneRollParams

    sources = [HeldDice(hero_source), HeldDice(vs_source)]
    rolled = SceneRoll().roll(SceneRollParams(hero, request), sources)
    return rolled.outcome.hero, rolled.outcome.report


def roll_with(hero: Hero, request: RollRequest, reader: FaceReader) -> tuple[Hero, dict[str, Any]]:
    """One roll of the hero, allies and oppositions, compared two by two (L-6 to L-14).

    Everyone named rolls once: the hero, then the allies, on the hero's side's dice
    (``hero_source``); the oppositions, in order, on ``vs_source``. Then each pair is
    compared with :meth:`LegendesTest.resolve` — the hero against each opposition, each
    ally against each opposition, and with ``each_other`` each pair of oppositions —
    and what the winner takes is applied: out, a wound or doubt (L-13), defeat.
    """
    _alive(hero)
    new = hero.model_copy(deep=True)
    scene = _scene(new)
    if scene.hero_defeated:
        raise RuleError(
            N_("{name} was defeated in this scene: end the scene first."), name=hero.name
        )
    oppositions, allies = _participants(scene, request)
    if request.spend > new.motivation_points:
        raise RuleError(
            N_("{name} has {points} motivation point(s), not enough to spend {spend}."),
            name=hero.name,
            points=new.motivation_points,
            spend=request.spend,
        )
    if request.dice is not None:
        kind: Domain | None = None
        base, domain_name = request.dice, request.domain
    else:
        kind, domain_name = domain_of(new, request.domain)
        base = domain_dice(kind)
    partial = request.partial or partial_of(scene.kind)
    extra = sum(h.extra_dice for h in scene.pending_help)
    bonus = sum(h.bonus for h in scene.pending_help)
    params_list = [
        OpposedParams(
            dice=base,
            vs_dice=o.dice,
            vs_level=o.level,
            modifier=request.modifier,
            weakness=request.weakness,
            regret=request.regret,
            removed_dice=request.removed_dice,
            light_wound=new.wound == "light",
            grave_wound=new.wound == "grave",
            motivation=request.motivation,
            spend=request.spend,
            extra_dice=min(extra, 5),
            bonus=min(bonus, 5),
            vs_light_wound=o.wound == "light",
            vs_grave_wound=o.wound == "grave",
            take=request.take,
            partial=partial,
        )
        for o in oppositions
    ]
    others: list[tuple[Opposition, Opposition, OpposedParams]] = [
        (ally, o, _pair_params(ally, o, request.take, partial))
        for ally in allies
        for o in oppositions
    ]
    if request.each_other:
        for i, first in enumerate(oppositions):
            for second in oppositions[i + 1 :]:
                side, other = (
                    (second, first) if second.character > first.character else (first, second)
                )
                others.append((side, other, _pair_params(side, other, request.take, partial)))
    rolling = [p for p in params_list if not p.swept]
    hero_faces = reader.take(rolling[0].pc_dice, 0) if rolling else ()
    faces: dict[int, tuple[int, ...]] = {}
    for ally in allies:
        mine = [p for a, _o, p in others if a is ally and not p.swept]
        faces[id(ally)] = reader.take(mine[0].pc_dice, 0) if mine else ()
    for index, o in enumerate(oppositions):
        counts = [] if params_list[index].swept else [params_list[index].opposition_dice]
        counts += [p.opposition_dice for _a, b, p in others if b is o and not p.swept]
        counts += [p.pc_dice for a, _b, p in others if a is o and not p.swept]
        faces[id(o)] = reader.take(counts[0], 1) if counts else ()
    for participant in (*oppositions, *allies):
        participant.rolls += 1
    check = LegendesTest()
    pairs: list[dict[str, Any]] = []
    for opposition, params in zip(oppositions, params_list, strict=True):
        outcome = check.resolve(params, (hero_faces, faces[id(opposition)]))
        effects: list[str] = []
        if outcome.winner == "pc":
            effects = _strike(opposition, outcome.taken, partial, "opposition")
        elif outcome.winner == "opposition":
            if outcome.taken == "definitive":
                scene.hero_defeated = True
                effects.append("hero_defeated")
            elif outcome.taken == "partial" and partial == "doubt":
                effects.append("hero_doubt")
            elif outcome.taken == "partial":
                new.wound = next_wound(new.wound)
                effects.append(f"hero_wound:{new.wound}")
        pairs.append(
            _pair_report(check, params, outcome, None, opposition, opposition.rolls, effects)
        )
        scene.log.append(_log_entry(None, opposition.name, outcome))
    for side, other, params in others:
        outcome = check.resolve(params, (faces[id(side)], faces[id(other)]))
        effects = []
        if outcome.winner == "pc":
            effects = _strike(other, outcome.taken, partial, "opposition")
        elif outcome.winner == "opposition":
            effects = _strike(side, outcome.taken, partial, "side")
        number = max(side.rolls, other.rolls)
        pairs.append(_pair_report(check, params, outcome, side.name, other, number, effects))
        scene.log.append(_log_entry(side.name, other.name, outcome))
    new.motivation_points -= request.spend
    used_help = [h.model_dump(mode="json") for h in scene.pending_help]
    scene.pending_help = []
    regret_invoked = request.regret > 0
    if scene.hero_defeated and hero_dies(new.motivation_points, regret_invoked):
        new.dead = True
    del scene.log[: max(0, len(scene.log) - 400)]
    return new, {
        "system": "legendes",
        "step": "roll",
        "domain": domain_name,
        "domain_kind": kind,
        "domain_unlisted": request.dice is None and unlisted(new, request.domain),
        "dice": params_list[0].pc_dice,
        "faces": list(hero_faces),
        "partial": partial,
        "allies": [{"name": a.name, "faces": list(faces[id(a)])} for a in allies],
        "help_used": used_help,
        "spent": request.spend,
        "pairs": pairs,
        "hero_wound": new.wound,
        "hero_defeated": scene.hero_defeated,
        "hero_dead": new.dead,
        "motivation_points": new.motivation_points,
    }


def _pair_report(
    check: LegendesTest,
    params: OpposedParams,
    outcome: Any,
    side: str | None,
    opposition: Opposition,
    number: int,
    effects: list[str],
) -> dict[str, Any]:
    """One pair's JSON: the check's own, from the side's point of view (``side``: None for
    the hero, else the ally or opposition facing ``opposition``), and what it did."""
    data = check.to_json(params, outcome)
    data.update(
        {
            "side": side,
            "opposition": opposition.name,
            "level": opposition.level,
            "roll_number": number,
            "duration": duration_of(number),
            "effects": effects,
        }
    )
    return data


def _log_entry(side: str | None, opposition: str, outcome: Any) -> dict[str, Any]:
    entry = {
        "step": "roll",
        "opposition": opposition,
        "faces": list(outcome.faces),
        "vs_faces": list(outcome.vs_faces),
        "key": outcome_key(outcome.winner, outcome.band),
        "taken": outcome.taken,
    }
    if side is not None:
        entry["side"] = side
    return entry


def aid(
    hero: Hero,
    helper: str,
    helper_dice: int,
    helped_dice: int,
    modifier: int,
    helper_source: DiceSource,
    helped_source: DiceSource,
) -> tuple[Hero, dict[str, Any]]:
    """:func:`aid_with` as the scene's procedure (logged, replayable)."""
    from meneur.systems.legendes.procedures import SceneAid, SceneAidParams

    params = SceneAidParams(hero, helper, helper_dice, helped_dice, modifier)
    rolled = SceneAid().roll(params, [HeldDice(helper_source), HeldDice(helped_source)])
    return rolled.outcome.hero, rolled.outcome.report


def aid_with(
    hero: Hero,
    helper: str,
    helper_dice: int,
    helped_dice: int,
    modifier: int,
    reader: FaceReader,
) -> tuple[Hero, dict[str, Any]]:
    """A helper helps the hero before their next roll (L-11), once per helper per scene.

    ``helped_dice`` are the dice of the hero's domain; the hero's wound weighs on their
    side of the help roll as on their own rolls (L-13, through :class:`HelpParams`).
    The name is kept to its first NAME_LENGTH characters (a sheet loads no longer one), and
    the once-per-helper check reads it as kept: a longer name given twice is the same
    helper."""
    helper = helper[:NAME_LENGTH]
    _alive(hero)
    new = hero.model_copy(deep=True)
    scene = _scene(new)
    once_per = rules_data().help.once_per
    if once_per == "scene" and scene.helpers_used:
        raise RuleError(N_("Help was already tried in this scene (L-11: once per scene)."))
    if fold(helper) in {fold(h) for h in scene.helpers_used}:
        raise RuleError(
            N_("{helper} already helped in this scene (L-11: once per helper per scene)."),
            helper=helper,
        )
    params = HelpParams(
        helper_dice=helper_dice, helped_dice=helped_dice, modifier=modifier, helped_wound=new.wound
    )
    check = LegendesAid()
    helper_faces = reader.take(params.helper_dice, 0)
    helped_faces = reader.take(params.helped_pool, 1)
    outcome = check.resolve(params, (helper_faces, helped_faces))
    scene.helpers_used.append(helper)
    dice, bonus = effect_bonus(outcome.effect)
    if dice or bonus:
        scene.pending_help.append(
            PendingHelp(helper=helper, effect=outcome.effect, extra_dice=dice, bonus=bonus)
        )
    scene.log.append(
        {
            "step": "aid",
            "helper": helper,
            "faces": list(helper_faces),
            "vs_faces": list(helped_faces),
            "effect": outcome.effect,
        }
    )
    data = check.to_json(params, outcome)
    data.update({"step": "aid", "helper": helper})
    return new, data


def in_scene(hero: Hero) -> Hero:
    """The hero in a scene: theirs, or a new untitled one (the web table's scene runs until
    its GM starts the next, :func:`next_scene`)."""
    if hero.scene is not None:
        return hero
    return hero.model_copy(update={"scene": Scene()}, deep=True)


def give_help(helper: Hero, helped: str) -> Hero:
    """The helper once they have helped ``helped`` (L-11): refused if they already helped
    in this scene, whoever they helped (once per helper per scene)."""
    _alive(helper)
    new = in_scene(helper).model_copy(deep=True)
    scene = _scene(new)
    if scene.gave_help:
        raise RuleError(
            N_("{helper} already helped in this scene (L-11: once per helper per scene)."),
            helper=helper.name,
        )
    scene.gave_help.append(helped[:NAME_LENGTH])
    return new


def next_scene(hero: Hero) -> tuple[Hero, dict[str, Any]]:
    """:func:`end` for a hero in or out of a scene (the table's « new scene »): a light
    wound heals (L-13), the help waiting is dropped and everyone may help again (L-11)."""
    return end(in_scene(hero))


def wound(hero: Hero, *, grave: bool = False) -> tuple[Hero, dict[str, Any]]:
    """A wound from outside an opposition (poison, a fall...): light, or grave (L-13)."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    new.wound = "grave" if grave else next_wound(new.wound)
    return new, {"system": "legendes", "step": "wound", "wound": new.wound}


def heal(hero: Hero) -> tuple[Hero, dict[str, Any]]:
    """The cause of a grave wound is treated (care and rest always suffice, L-13)."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    new.wound = "none"
    return new, {"system": "legendes", "step": "heal", "wound": new.wound}


def progress(hero: Hero) -> tuple[Hero, dict[str, Any]]:
    """Significant progress toward the motivation: one more point (L-12)."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    if new.motivation_points >= 99:
        raise RuleError(N_("A hero holds at most {limit} motivation points."), limit=99)
    new.motivation_points += 1
    return new, {
        "system": "legendes",
        "step": "progress",
        "motivation_points": new.motivation_points,
    }


def reached(
    hero: Hero, choice: Literal["keep", "raise"], motivation: str | None = None
) -> tuple[Hero, dict[str, Any]]:
    """The motivation is reached: keep it (exactly 1 point) or raise it (points kept) (L-12)."""
    _alive(hero)
    new = hero.model_copy(deep=True)
    if choice == "raise":
        if not motivation or not motivation.strip():
            raise RuleError(N_("Raising the motivation needs the new, harder motivation."))
        new.motivation = motivation.strip()[:300]
    new.motivation_points = reach_motivation(new.motivation_points, choice)
    return new, {
        "system": "legendes",
        "step": "reached",
        "choice": choice,
        "motivation": new.motivation,
        "motivation_points": new.motivation_points,
    }


def end(hero: Hero) -> tuple[Hero, dict[str, Any]]:
    """The end of the scene: a light wound heals (L-13); helpers may help again (L-11)."""
    new = hero.model_copy(deep=True)
    scene = _scene(new)
    healed = new.wound == "light"
    if healed:
        new.wound = "none"
    new.scene = None
    return new, {
        "system": "legendes",
        "step": "end",
        "title": scene.title,
        "light_wound_healed": healed,
        "wound": new.wound,
        "rolls": len([e for e in scene.log if e.get("step") == "roll"]),
        "out": [o.name for o in scene.oppositions if o.out],
    }
