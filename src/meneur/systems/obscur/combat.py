"""Combat (O-11 to O-22): a melee fought round by round to its end, ranged attacks,
and the variants (several weapons, outnumbered, draw, disengage, impress, aim).

A whole fight is a pure function of the faces: :func:`resolve_fight` reads every die
through one :class:`FaceReader`, fighter A's dice on stream 0 and fighter B's on
stream 1 (their tests, the hit-zone die of their blows, the shock tests of their
wounds), so a seeded fight is reproducible and its JSON replays from its faces.
Every test uses the core's ``resolve_test`` (successes per die, zero skill/attribute).

Splitting the PA between Attaque and Parade is a choice (O-12); automatic fighters use
a named strategy (:data:`STRATEGIES`), chosen per fighter on the sheet
(``equipement.tactique.strategie``) or on the command line:

* ``equilibree`` — half the dice attack (the odd die attacks);
* ``offensive`` — three quarters attack (rounded up);
* ``defensive`` — a quarter attack (rounded up);
* ``totale`` — every die attacks;
* ``prudente`` — ``equilibree``, then ``defensive`` once half the Vie is lost;
* ``attaque=N`` — N dice attack, the rest parry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meneur.errors import LimitError, RuleError, UsageError
from meneur.files import load_data
from meneur.locale import N_
from meneur.systems.base import FaceReader
from meneur.systems.obscur.gear import Weapon, armoury
from meneur.systems.obscur.health import Dice, body_malus, maluses_of, roll, shock, test_json
from meneur.systems.obscur.rules import NO_MALUS, Maluses, duel
from meneur.systems.obscur.state import Body
from meneur.systems.obscur.validation import sheet_error
from meneur.text import fold, is_digits

Side = Literal["a", "b"]
MAX_ROUNDS = 200


# --- data -------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Variants(_Strict):
    extra_weapon_malus: Annotated[int, Field(ge=0, le=20)] = 3
    extra_opponent_malus: Annotated[int, Field(ge=0, le=20)] = 3
    draw_difficulty: Annotated[int, Field(ge=0, le=20)] = 3
    draw_ra_loss: Annotated[int, Field(ge=0, le=20)] = 2
    aim_die_per_round: Annotated[int, Field(ge=0, le=10)] = 1
    max_rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 30


class RangedTable(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    speed: dict[str, Annotated[int, Field(ge=0, le=30)]]
    cover: dict[str, Annotated[int, Field(ge=0, le=30)]]
    distance: dict[str, Annotated[int, Field(ge=0, le=30)]]


class SpecialBlow(_Strict):
    """O-22 coup spécial (table provisoire): a cost in Attack dice and one effect."""

    name: str
    condition: str = ""
    cost: Annotated[int, Field(ge=0, le=20)]
    effect: Literal["damage", "zone", "disarm"]
    value: Annotated[int, Field(ge=0, le=20)] = 0
    zone: str | None = None


class SpecialBlowsFile(_Strict):
    provisional: bool = True  # a file that does not say false is not the text
    blows: list[SpecialBlow]


@cache
def special_blows() -> SpecialBlowsFile:
    try:
        data = SpecialBlowsFile.model_validate(load_data("obscur", "special_blows"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/special_blows.toml") from None
    zones = {fold(z.name) for z in armoury().zones_file.zones}
    for blow in data.blows:
        if blow.effect == "zone" and fold(blow.zone or "") not in zones:
            raise RuleError(
                N_("Special blow '{name}': unknown zone '{zone}'."),
                name=blow.name,
                zone=str(blow.zone),
            )
    return data


def special_blow(name: str) -> SpecialBlow:
    for blow in special_blows().blows:
        if fold(blow.name) == fold(name):
            return blow
    raise UsageError(
        N_("Unknown special blow '{name}' (known: {known})."),
        name=str(name),
        known=", ".join(b.name for b in special_blows().blows),
    )


class CombatFile(_Strict):
    variants: Variants = Variants()
    ranged: RangedTable


@cache
def combat_data() -> CombatFile:
    try:
        return CombatFile.model_validate(load_data("obscur", "combat"))
    except ValidationError as error:
        raise sheet_error(error, "obscur/data/combat.toml") from None


# --- the split of PA (O-12) -----------------------------------------------------------

STRATEGIES = ("equilibree", "offensive", "defensive", "totale", "prudente")


def check_strategy(name: str) -> str:
    """A known strategy name (``attaque=N`` included), folded; else a UsageError."""
    folded = fold(name.replace(" ", ""))  # « attaque = 2 » is « attaque=2 »
    if folded in STRATEGIES:
        return folded
    head, sep, value = folded.partition("=")
    if head == "attaque" and sep and is_digits(value) and len(value) <= 3:
        return folded
    raise UsageError(
        N_("Unknown strategy '{name}' (known: {known}, attaque=N)."),
        name=str(name),
        known=", ".join(STRATEGIES),
    )


def split(strategy: str, pa: int, body: Body) -> tuple[int, int]:
    """Attack and Parade dice of a PA under a strategy (documented above)."""
    pa = max(0, pa)
    if strategy == "prudente":
        strategy = "defensive" if body.lost * 2 >= body.vie_max else "equilibree"
    if strategy.startswith("attaque="):
        attack = min(pa, int(strategy.partition("=")[2]))
    elif strategy == "totale":
        attack = pa
    elif strategy == "offensive":
        attack = math.ceil(pa * 3 / 4)
    elif strategy == "defensive":
        attack = math.ceil(pa / 4)
    else:
        attack = math.ceil(pa / 2)
    return attack, pa - attack


# --- fighters ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arm:
    """One weapon in hand and its own PA before maluses (O-11, O-16)."""

    weapon: Weapon
    pa: Dice


@dataclass(frozen=True)
class Fighter:
    """What a fight reads from a character (built from a sheet by ``fighter_of``)."""

    name: str
    agility: int
    hargne: int
    resistance: int
    gardien: int
    arms: tuple[Arm, ...]
    unarmed: Arm
    armour: dict[str, int] = field(default_factory=dict)
    shield: int = 0
    choc: Dice | None = None
    dodge: Dice | None = None
    """Hargne + Esquive (O-19)."""
    impress: Dice | None = None
    """Prestance + Intimidation (O-20)."""
    sang_froid: int = 0
    strategy: str = "equilibree"
    ra_points: int = 0
    flee_at: int | None = None
    opponents: int = 1
    sheathed: bool = False
    """O-18: the weapon is not in hand yet; the fighter must draw it while fighting."""
    special: SpecialBlow | None = None
    """O-22: a coup spécial tried with every attack (table provisoire)."""
    overload: int = 0
    """O-42: the sheet's Surencombrement, a malus on the Rang d'Action (a movement roll)."""

    def __post_init__(self) -> None:
        if not 1 <= self.opponents <= 10:
            raise RuleError(N_("A fighter faces 1 to 10 opponents."))
        if self.ra_points > self.gardien:
            raise RuleError(
                N_("{name} can move at most {most} points of Gardien du feu to the RA."),
                name=self.name,
                most=self.gardien,
            )
        if len(self.arms) > 4:
            raise RuleError(N_("A fighter holds at most 4 weapons."))
        check_strategy(self.strategy)


def pa_malus(fighter: Fighter, weapons: int) -> int:
    """O-16 and O-17: dice each PA loses for extra weapons and extra opponents."""
    variants = combat_data().variants
    return variants.extra_weapon_malus * max(0, weapons - 1) + (
        variants.extra_opponent_malus * (fighter.opponents - 1)
    )


def action_rank(fighter: Fighter, arms: tuple[Arm, ...]) -> int:
    """O-11: Rang d'Action = Agilité − the weapon's Initiative (the slowest in hand),
    plus points moved from Gardien du feu, less the Surencombrement (O-42: movement)."""
    initiative = max((arm.weapon.initiative for arm in arms), default=0)
    return fighter.agility - initiative + fighter.ra_points - fighter.overload


def initiator(ra_a: int, ra_b: int, agility_a: int, agility_b: int) -> Side | None:
    """O-11: the highest RA initiates; tie: the higher Agilité; still tied: simultaneous."""
    if ra_a != ra_b:
        return "a" if ra_a > ra_b else "b"
    if agility_a != agility_b:
        return "a" if agility_a > agility_b else "b"
    return None


def blow_damage(
    margin: int, weapon: Weapon, hargne: int, *, protection: int, resistance: int
) -> int:
    """O-13: MR + Hargne bonus of the weapon class + weapon damage − armour − Résistance,
    never below 0."""
    return max(0, margin + weapon.hargne_bonus(hargne) + weapon.damage - protection - resistance)


# --- a melee round ----------------------------------------------------------------------


@dataclass
class _Side:
    key: Side
    stream: int
    fighter: Fighter
    body: Body
    impressed: int = 0
    ra_loss: int = 0
    drawn: bool = True
    shock: int = 0
    parade: int | None = None
    parade_json: dict[str, Any] | None = None
    arms: tuple[Arm, ...] = ()
    fumbles: int = 0
    """Maladresses rolled in this fight: each earns Vécu (O-3, O-40)."""


@dataclass(frozen=True)
class FightParams:
    a: Fighter
    b: Fighter
    a_body: Body
    b_body: Body
    impress: tuple[Side, ...] = ()
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        from meneur.systems.obscur.conditions import refuse_exhausted
        from meneur.systems.obscur.state import refuse_coma

        for body in (self.a_body, self.b_body):
            refuse_coma(body)
            refuse_exhausted(body)  # O-34: no effort at Volonté 0, no fight
        if self.max_rounds is not None and not 1 <= self.max_rounds <= MAX_ROUNDS:
            raise RuleError(N_("A fight lasts 1 to {most} rounds."), most=MAX_ROUNDS)


@dataclass(frozen=True)
class FightOutcome:
    rounds: tuple[dict[str, Any], ...]
    end: str
    """"coma", "dead", "disengaged" or "rounds" (the round limit)."""
    winner: Side | None
    a: dict[str, Any]
    b: dict[str, Any]
    opening: tuple[dict[str, Any], ...] = ()


def _copy(body: Body) -> Body:
    return replace(
        body,
        wounds=[replace(w) for w in body.wounds],
        intemperies=[replace(i) for i in body.intemperies],
    )


def _parade(
    reader: FaceReader, side: _Side, dice: int, arms: tuple[Arm, ...], fighter: Fighter
) -> int:
    """O-12/O-22/O-16/O-17: the Parade is rolled once in a round and holds against every
    attack: Parade dice + each weapon's Défense + the shield's Protection."""
    if side.parade is None:
        defence = sum(arm.weapon.defense for arm in arms) + fighter.shield
        pool = Dice(dice + defence, arms[0].pa.zero_skill, arms[0].pa.zero_attribute)
        params, outcome = roll(reader, pool, difficulty=0, modifier=-side.shock, stream=side.stream)
        side.fumbles += outcome.fumble
        side.parade = outcome.successes
        side.parade_json = test_json("Parade", params, outcome) | {
            "parade_dice": dice,
            "defense": defence - fighter.shield,
            "shield": fighter.shield,
        }
    return side.parade


def _strike(
    reader: FaceReader,
    attacker: _Side,
    defender: _Side,
    arm: Arm,
    attack_dice: int,
    defender_dice: int,
    defender_arms: tuple[Arm, ...],
    *,
    delay_shock: bool,
) -> dict[str, Any]:
    """One attack against the defender's Parade (O-12), its damage (O-13, O-22) and the
    shock of the wound (O-28)."""
    special = attacker.fighter.special
    cost = special.cost if special else 0
    pool = Dice(attack_dice, arm.pa.zero_skill, arm.pa.zero_attribute)
    params, outcome = roll(
        reader, pool, difficulty=0, modifier=-attacker.shock - cost, stream=attacker.stream
    )
    attacker.fumbles += outcome.fumble
    parade = _parade(reader, defender, defender_dice, defender_arms, defender.fighter)
    winner, margin = duel(outcome.successes, parade)
    entry: dict[str, Any] = {
        "attacker": attacker.key,
        "weapon": arm.weapon.name,
        "attack": test_json("Attaque", params, outcome),
        "parade": defender.parade_json,
        "hit": winner == "a",
        "margin": margin if winner == "a" else 0,
    }
    if special:
        entry["special"] = {"name": special.name, "cost": cost}
    if winner != "a":
        return entry
    zone_face: int | None = None
    if special and special.effect == "zone":
        zone = next(
            z.name for z in armoury().zones_file.zones if fold(z.name) == fold(special.zone or "")
        )
    else:
        zone_face = reader.take(1, attacker.stream)[0]
        zone = armoury().zone_of(zone_face)
    protection = defender.fighter.armour.get(zone, 0)
    damage = blow_damage(
        margin,
        arm.weapon,
        attacker.fighter.hargne,
        protection=protection,
        resistance=defender.fighter.resistance,
    )
    if special and special.effect == "damage":
        damage += special.value
    if special and special.effect == "disarm" and defender.drawn and defender.fighter.arms:
        defender.drawn = False  # O-18: must draw again while fighting
        entry["disarmed"] = True
    entry |= {
        "zone_face": zone_face,
        "zone": zone,
        "hargne_bonus": arm.weapon.hargne_bonus(attacker.fighter.hargne),
        "weapon_damage": arm.weapon.damage,
        "protection": protection,
        "resistance": defender.fighter.resistance,
        "damage": damage,
    }
    if damage:
        before = maluses_of(defender.body)  # O-29: the pain of this wound counts after the round
        defender.body.lose(damage, "coup")
        if not defender.body.coma:
            sh = shock(
                reader, damage, defender.fighter.choc, maluses=before, stream=defender.stream
            )
            defender.fumbles += bool(sh.get("test", {}).get("fumble"))
            entry["shock"] = sh
            if not delay_shock:
                defender.shock += sh["malus"]
            else:
                entry["shock_pending"] = sh["malus"]
    return entry


def _arms_in_hand(side: _Side) -> tuple[Arm, ...]:
    if not side.drawn or not side.fighter.arms:
        return (side.fighter.unarmed,)
    return side.fighter.arms


def _prepare(reader: FaceReader, side: _Side) -> dict[str, Any]:
    """Draw (O-18) if needed, then PA per weapon with every malus, RA and the split."""
    info: dict[str, Any] = {}
    arms: tuple[Arm, ...]
    fighter = side.fighter
    ra_loss = side.ra_loss
    side.ra_loss = 0
    if not side.drawn:
        pool = Dice(fighter.gardien)
        variants = combat_data().variants
        params, outcome = roll(
            reader,
            pool,
            difficulty=variants.draw_difficulty,
            maluses=maluses_of(side.body),
            stream=side.stream,
        )
        side.fumbles += outcome.fumble
        info["draw"] = test_json("Gardien du feu", params, outcome)
        if outcome.passed:
            side.drawn = True
            side.ra_loss = variants.draw_ra_loss
        info["draw"]["drawn"] = outcome.passed
        arms = (fighter.unarmed,)  # fights bare-handed the round it draws
    else:
        arms = _arms_in_hand(side)
    side.arms = arms
    malus = pa_malus(fighter, len(arms)) + body_malus(side.body) + side.impressed
    splits = []
    for arm in arms:
        pa = max(0, arm.pa.dice - fighter.ra_points - malus)
        attack, parade = split(fighter.strategy, pa, side.body)
        splits.append({"weapon": arm.weapon.name, "pa": pa, "attack": attack, "parade": parade})
    ra = action_rank(fighter, arms) - ra_loss
    info |= {"ra": ra, "malus": malus, "split": splits}
    return info


def _disengage(
    reader: FaceReader, fleer: _Side, attacker: _Side, attacker_ra: int
) -> dict[str, Any]:
    """O-19 first step: the fleer's RA is the successes of an Agilité test; above the
    attacker's RA, the combat is broken."""
    params, outcome = roll(
        reader,
        Dice(fleer.fighter.agility),
        difficulty=0,
        maluses=maluses_of(fleer.body, movement=True),  # O-29, O-42: a movement roll
        stream=fleer.stream,
    )
    fleer.fumbles += outcome.fumble
    return {
        "fighter": fleer.key,
        "agility": test_json("Agilité", params, outcome),
        "ra": outcome.successes,
        "attacker_ra": attacker_ra,
        "broken": outcome.successes > attacker_ra,
    }


def _dodge_strike(
    reader: FaceReader, attacker: _Side, fleer: _Side, arm: Arm, attack_dice: int
) -> dict[str, Any]:
    """O-19 second step: Hargne + Esquive against the Attack; the fleer wins: dodged;
    else the blow lands normally (no Parade)."""
    pool = Dice(attack_dice, arm.pa.zero_skill, arm.pa.zero_attribute)
    params, outcome = roll(
        reader, pool, difficulty=0, modifier=-attacker.shock, stream=attacker.stream
    )
    attacker.fumbles += outcome.fumble
    dodge = fleer.fighter.dodge or Dice(fleer.fighter.hargne, zero_skill=True)
    d_params, d_outcome = roll(
        reader, dodge, difficulty=0, maluses=maluses_of(fleer.body), stream=fleer.stream
    )
    fleer.fumbles += d_outcome.fumble
    entry: dict[str, Any] = {
        "attacker": attacker.key,
        "weapon": arm.weapon.name,
        "attack": test_json("Attaque", params, outcome),
        "dodge": test_json("Hargne + Esquive", d_params, d_outcome),
        "hit": outcome.successes >= d_outcome.successes and outcome.successes > 0,
    }
    if not entry["hit"]:
        return entry
    # The blow lands as if unparried: MR = its successes over the dodge (at least 0).
    margin = outcome.successes - d_outcome.successes
    zone_face = reader.take(1, attacker.stream)[0]
    zone = armoury().zone_of(zone_face)
    protection = fleer.fighter.armour.get(zone, 0)
    damage = blow_damage(
        margin,
        arm.weapon,
        attacker.fighter.hargne,
        protection=protection,
        resistance=fleer.fighter.resistance,
    )
    entry |= {
        "margin": margin,
        "zone_face": zone_face,
        "zone": zone,
        "hargne_bonus": arm.weapon.hargne_bonus(attacker.fighter.hargne),
        "weapon_damage": arm.weapon.damage,
        "protection": protection,
        "resistance": fleer.fighter.resistance,
        "damage": damage,
    }
    before = maluses_of(fleer.body)
    if fleer.body.lose(damage, "coup") and not fleer.body.coma:
        sh = shock(reader, damage, fleer.fighter.choc, maluses=before, stream=fleer.stream)
        fleer.fumbles += bool(sh.get("test", {}).get("fumble"))
        entry["shock"] = sh
        fleer.shock += sh["malus"]
    return entry


def impress(reader: FaceReader, who: _Side, target: _Side) -> dict[str, Any]:
    """O-20: Prestance + Intimidation against the opponent's Sang-froid; the MR becomes a
    dice malus for the opponent for the whole fight."""
    pool = who.fighter.impress or Dice(0)
    params, outcome = roll(
        reader,
        pool,
        difficulty=max(1, target.fighter.sang_froid),
        maluses=maluses_of(who.body),
        stream=who.stream,
    )
    who.fumbles += outcome.fumble
    malus = outcome.margin if outcome.passed else 0
    target.impressed += malus
    return {
        "fighter": who.key,
        "test": test_json("Prestance + Intimidation", params, outcome),
        "malus": malus,
    }


def resolve_fight(params: FightParams, faces: tuple[tuple[int, ...], ...]) -> FightOutcome:
    """A melee to its end (coma, death, disengagement or the round limit), pure in faces."""
    return fight_with(params, FaceReader(faces))


def fight_with(params: FightParams, reader: FaceReader) -> FightOutcome:
    """:func:`resolve_fight` reading its dice from ``reader`` (stream 0: A, 1: B)."""
    sides = {
        "a": _Side("a", 0, params.a, _copy(params.a_body), drawn=not params.a.sheathed),
        "b": _Side("b", 1, params.b, _copy(params.b_body), drawn=not params.b.sheathed),
    }
    opening = tuple(
        impress(reader, sides[key], sides["b" if key == "a" else "a"]) for key in params.impress
    )
    limit = params.max_rounds or combat_data().variants.max_rounds
    rounds: list[dict[str, Any]] = []
    end, winner = "rounds", None
    for number in range(1, limit + 1):
        for side in sides.values():
            side.shock = 0
            side.parade = None
            side.parade_json = None
        prep = {key: _prepare(reader, side) for key, side in sides.items()}
        first = initiator(prep["a"]["ra"], prep["b"]["ra"], params.a.agility, params.b.agility)
        record: dict[str, Any] = {
            "round": number,
            "initiator": first,
            "a": prep["a"],
            "b": prep["b"],
        }
        strikes: list[dict[str, Any]] = []
        fleeing = [
            key
            for key, side in sides.items()
            if side.fighter.flee_at is not None and side.body.vie <= side.fighter.flee_at
        ]
        if fleeing:
            key = fleeing[0]
            other: Side = "b" if key == "a" else "a"
            step = _disengage(reader, sides[key], sides[other], prep[other]["ra"])
            record["disengage"] = step
            if step["broken"]:
                rounds.append(record | {"strikes": strikes, "state": _states(sides)})
                end, winner = "disengaged", other
                break
            arms = sides[other].arms
            for arm, part in zip(arms, prep[other]["split"], strict=False):
                strikes.append(_dodge_strike(reader, sides[other], sides[key], arm, part["attack"]))
        else:
            order: list[Side] = [first, "b" if first == "a" else "a"] if first else ["a", "b"]
            for attacker_key in order:
                attacker, defender = sides[attacker_key], sides["b" if attacker_key == "a" else "a"]
                if attacker.body.coma and first is not None:
                    break  # knocked down before striking back
                arms = attacker.arms
                d_arms = defender.arms
                d_parade = sum(p["parade"] for p in prep[defender.key]["split"])
                for arm, part in zip(arms, prep[attacker_key]["split"], strict=False):
                    strikes.append(
                        _strike(
                            reader,
                            attacker,
                            defender,
                            arm,
                            part["attack"],
                            d_parade,
                            d_arms,
                            delay_shock=first is None,
                        )
                    )
                    if defender.body.coma:
                        break
        record["strikes"] = strikes
        record["state"] = _states(sides)
        rounds.append(record)
        down = [key for key, side in sides.items() if side.body.coma]
        if down:
            end = "dead" if any(sides[k].body.dead for k in down) else "coma"
            winner = None if len(down) == 2 else ("b" if down[0] == "a" else "a")
            break
    from meneur.systems.obscur.tables import rule_tables

    reward = rule_tables().experience.fumble_reward
    for side in sides.values():
        side.body.vecu += side.fumbles * reward
    return FightOutcome(
        tuple(rounds),
        end,
        winner,
        sides["a"].body.to_json() | {"fumbles": sides["a"].fumbles},
        sides["b"].body.to_json() | {"fumbles": sides["b"].fumbles},
        opening,
    )


def _states(sides: dict[str, _Side]) -> dict[str, Any]:
    from meneur.systems.obscur.health import pain_malus

    return {
        key: {
            "vie": side.body.vie,
            "status": side.body.status,
            "shock": side.shock,
            "pain": pain_malus(side.body.lost),
        }
        for key, side in sides.items()
    }


def final_bodies(params: FightParams, outcome: FightOutcome) -> tuple[Body, Body]:
    """The fighters' bodies after the fight (to save back to their sheets)."""
    from meneur.systems.obscur.state import Intemperie, Wound

    def build(base: Body, data: dict[str, Any]) -> Body:
        body = _copy(base)
        body.vie = data["vie"]
        body.vecu = data["vecu"]
        body.wounds = [Wound(w["points"], w["source"], w["treated"]) for w in data["wounds"]]
        body.intemperies = [Intemperie(i["points"], i["source"]) for i in data["intemperies"]]
        return body

    return build(params.a_body, outcome.a), build(params.b_body, outcome.b)


# --- ranged attacks ---------------------------------------------------------------------


MAX_AIM = 10
"""Rounds a shot may be aimed (O-21): a bound on the option, not a rule of the text."""


@dataclass(frozen=True)
class RangedParams:
    """A shot (O-14, O-15, O-21), its options checked here for the CLI and the web alike."""

    pa: Dice
    gardien: int
    weapon: Weapon
    hargne: int = 0
    speed: str = "immobile"
    cover: str = "aucune"
    distance: str = "courte"
    aim_rounds: int = 0
    gardien_only: bool = False
    """O-21: roll only Gardien du feu; on success the unrolled dice add to the damage."""
    dodge: Dice | None = None
    """O-15: an active target dodges; its successes are the difficulty (at least 1)."""
    protection: int = 0
    resistance: int = 0
    armour: tuple[tuple[str, int], ...] | None = None
    """The target's Protection by zone: a hit then rolls its zone (O-22) like a blow."""
    maluses: Maluses = NO_MALUS
    """The shooter's sheet conditions (O-29)."""
    dodge_maluses: Maluses = NO_MALUS
    """The target's sheet conditions on its dodge (O-29)."""

    def __post_init__(self) -> None:
        if not 0 <= self.aim_rounds <= MAX_AIM:
            raise LimitError(
                N_("A shot is aimed 0 to {most} rounds, not {rounds}."),
                most=MAX_AIM,
                rounds=self.aim_rounds,
            )
        ranged_modifier(self.speed, self.cover, self.distance)  # unknown names refused


def _ranged_value(table: dict[str, int], name: str, unknown: str) -> int:
    """The dice a named speed, cover or distance removes; ``unknown`` is the whole
    message for a name not in the table (one per word, each translated whole)."""
    for key, value in table.items():
        if fold(key) == fold(name):
            return value
    raise UsageError(unknown, name=str(name), known=", ".join(table))


def ranged_modifier(speed: str, cover: str, distance: str) -> int:
    """O-14: dice removed for the target's speed, cover and distance (table provisoire)."""
    table = combat_data().ranged
    return (
        _ranged_value(table.speed, speed, N_("Unknown speed '{name}' (known: {known})."))
        + _ranged_value(table.cover, cover, N_("Unknown cover '{name}' (known: {known})."))
        + _ranged_value(table.distance, distance, N_("Unknown distance '{name}' (known: {known})."))
    )


def resolve_shot(params: RangedParams, faces: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """A ranged attack: stream 0 the shooter, stream 1 the target's dodge."""
    return shot_with(params, FaceReader(faces))


def shot_with(params: RangedParams, reader: FaceReader) -> dict[str, Any]:
    """:func:`resolve_shot` reading its dice from ``reader``."""
    malus = ranged_modifier(params.speed, params.cover, params.distance)
    aim = params.aim_rounds * combat_data().variants.aim_die_per_round
    result: dict[str, Any] = {"rule": "O-14", "malus": malus, "aim_dice": aim}
    difficulty = 1
    if params.dodge is not None:
        d_params, d_outcome = roll(
            reader, params.dodge, difficulty=0, maluses=params.dodge_maluses, stream=1
        )
        difficulty = max(1, d_outcome.successes)
        result |= {"rule": "O-15", "dodge": test_json("Esquive", d_params, d_outcome)}
    extra = 0
    if params.gardien_only:
        pool = Dice(params.gardien, zero_attribute=params.pa.zero_attribute)
        extra = max(0, params.pa.dice - params.gardien)
    else:
        pool = params.pa
    t_params, outcome = roll(
        reader, pool, difficulty=difficulty, modifier=aim - malus, maluses=params.maluses
    )
    result |= {"difficulty": difficulty, "attack": test_json("Tir", t_params, outcome)}
    result["hit"] = outcome.passed
    result["fumble"] = outcome.fumble
    if not outcome.passed:
        result["damage"] = 0
        return result
    protection = params.protection
    if params.armour is not None:
        face = reader.take(1, 0)[0]
        zone = armoury().zone_of(face)
        protection = dict(params.armour).get(zone, 0)
        result |= {"zone_face": face, "zone": zone}
    result["protection"] = protection
    result["aimed_bonus"] = extra
    result["damage"] = max(
        0,
        blow_damage(
            outcome.margin,
            params.weapon,
            params.hargne,
            protection=protection,
            resistance=params.resistance,
        )
        + extra,
    )
    return result


def shoot(
    params: RangedParams, target: Body, choc: Dice | None, reader: FaceReader
) -> dict[str, Any]:
    """A shot at a target's body: its damage, the shock of the wound (O-28), and the
    Vécu of the target's own Maladresses (dodge, shock test: O-3, O-40)."""
    from meneur.systems.obscur.tables import rule_tables

    before = maluses_of(target)
    result = shot_with(params, reader)
    if target.lose(result["damage"], "tir") and not target.coma:
        result["shock"] = shock(reader, result["damage"], choc, maluses=before, stream=1)
    fumbles = bool(result.get("dodge", {}).get("fumble")) + bool(
        result.get("shock", {}).get("test", {}).get("fumble")
    )
    target.vecu += fumbles * rule_tables().experience.fumble_reward
    result["target_fumbles"] = fumbles
    result["target"] = target.to_json()
    return result


# --- from a sheet -----------------------------------------------------------------------


def dice_of(character: Any, trait: str) -> Dice:
    """The pool of a trait on a sheet, with its zero rules (the core's O-4..O-6)."""
    pool = character.pool(trait)
    return Dice(pool.dice, pool.zero_skill, pool.zero_attribute)


def fighter_of(
    character: Any,
    *,
    strategy: str | None = None,
    opponents: int = 1,
    sheathed: bool = False,
    special: str | None = None,
) -> Fighter:
    """A :class:`Fighter` from a validated sheet and its ``equipement`` (O-11)."""
    from meneur.systems.obscur.catalog import Kind
    from meneur.systems.obscur.gear import kit_of
    from meneur.systems.obscur.state import overload_of

    kit = kit_of(character.sheet.equipment, str(character.path or "-"))
    arms_data = armoury()

    def level(name: str) -> int:
        kind, key = character.find(name)
        return int(character.level(kind, key))

    arms = tuple(
        Arm(weapon, dice_of(character, weapon.skill or "Bagarre")) for weapon in kit.weapons
    )
    unarmed = Arm(arms_data.unarmed(), dice_of(character, "Bagarre"))
    sang_froid = character.level(Kind.ABILITY, character.find("Sang-froid")[1])
    coup = special or kit.tactics.coup
    return Fighter(
        name=character.sheet.name or str(character.path or "?"),
        agility=level("Agilité"),
        hargne=level("Hargne"),
        resistance=level("Résistance"),
        gardien=level("Gardien du feu"),
        arms=arms,
        unarmed=unarmed,
        armour=dict(kit.armour),
        shield=kit.shield_protection,
        choc=dice_of(character, "Choc"),
        dodge=dice_of(character, "Esquive"),
        impress=dice_of(character, "Intimidation"),
        sang_froid=int(sang_froid),
        strategy=check_strategy(strategy or kit.tactics.strategie),
        ra_points=kit.tactics.ra,
        flee_at=kit.tactics.fuite,
        opponents=opponents,
        sheathed=sheathed,
        special=special_blow(coup) if coup else None,
        overload=overload_of(character),
    )


def shot_of(
    shooter: Any,
    target: Any,
    *,
    speed: str = "immobile",
    cover: str = "aucune",
    distance: str = "courte",
    aim_rounds: int = 0,
    gardien_only: bool = False,
    dodge: bool = False,
) -> RangedParams:
    """A shot from one sheet at another (O-14, O-15, O-21): the shooter's first ranged
    weapon and its PA, the target's armour, Résistance and (active) Hargne + Esquive, each
    side's conditions (O-29); a shooter at Volonté 0 cannot shoot (O-34)."""
    from meneur.systems.obscur.conditions import refuse_exhausted
    from meneur.systems.obscur.gear import kit_of
    from meneur.systems.obscur.state import body_of

    shooter_body = body_of(shooter)
    refuse_exhausted(shooter_body)
    kit = kit_of(shooter.sheet.equipment, str(shooter.path or "-"))
    weapon = next((w for w in kit.weapons if w.ranged), None)
    if weapon is None:
        raise RuleError(
            N_("{name} holds no ranged weapon (O-14): give one in equipement.armes."),
            name=shooter.sheet.name or str(shooter.path or "?"),
        )
    target_kit = kit_of(target.sheet.equipment, str(target.path or "-"))

    def level(character: Any, name: str) -> int:
        kind, key = character.find(name)
        return int(character.level(kind, key))

    return RangedParams(
        dice_of(shooter, weapon.skill or "Bagarre"),
        level(shooter, "Gardien du feu"),
        weapon,
        hargne=level(shooter, "Hargne"),
        speed=speed,
        cover=cover,
        distance=distance,
        aim_rounds=aim_rounds,
        gardien_only=gardien_only,
        dodge=dice_of(target, "Esquive") if dodge else None,
        resistance=level(target, "Résistance"),
        armour=tuple(sorted(target_kit.armour.items())),
        maluses=maluses_of(shooter_body),
        dodge_maluses=maluses_of(body_of(target)),
    )
