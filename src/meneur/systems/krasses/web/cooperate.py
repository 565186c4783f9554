"""A Krâsses cooperation at the table (K-7): the GM or a player picks who takes part.

« Tout le monde fait un jet de compétence » : every member chosen among the campaign's
Krâsses characters rolls the cooperation's skill (or the trait chosen for them) from their
stored sheet — a skill gives its level, anything else no level (K-6), so its roller may
lead but never helps. The best total leads, every other member who reached 15 with a level
gives +2, and the leader's total meets the difficulty chosen on the ladder of K-3 (Moyen 15
when none is given). The roll is :class:`~meneur.systems.krasses.rules.KrassesCooperate`,
the check of ``meneur cooperate``, logged with its step so ``meneur verify --replay``
resolves it again; its exact chance is shown before the roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from meneur.campaign.records import NewRoll
from meneur.errors import MeneurError, RuleError
from meneur.locale import N_, fill
from meneur.locale import gettext as _
from meneur.rng import DiceSource
from meneur.text import has_control, has_markup, visible
from meneur.web.actions import ActionRoll, acting_for, log_action, roll_mode, table_character
from meneur.web.rolls import Roller
from meneur.web.systems import Verdict, int_field
from meneur.web.tables import Seat

JOIN = "join:"
"""A member's field: ``join:<name>`` (any value) puts the character in the cooperation."""
TRAIT = "trait:"
"""``trait:<name>``: what that member rolls, when not the cooperation's skill."""


TRAIT_LENGTH = 60
"""The longest skill or trait typed in the form: an advantage's name on a sheet has the
same bound (K-5)."""


def typed_trait(fields: Mapping[str, str], key: str) -> str:
    """The skill or trait typed in ``fields[key]`` (stripped; empty when none): refused,
    not cut or kept as typed, when it is too long or holds a control character or square
    brackets, as a name on a sheet is (it is logged, and ``meneur log`` prints it)."""
    text = (fields.get(key) or "").strip()
    if len(text) > TRAIT_LENGTH:
        raise RuleError(
            N_("A skill's name has at most {limit} characters, not {count}."),
            limit=TRAIT_LENGTH,
            count=len(text),
        )
    if has_control(text) or has_markup(text):
        raise RuleError(
            N_("A skill's name cannot hold a control character or square brackets: {name}"),
            name=visible(text),
        )
    return text


@dataclass(frozen=True, slots=True)
class Chosen:
    """One member as the form chose them: their name, what they roll, their sheet."""

    name: str
    trait: str
    sheet: Mapping[str, Any]


def moyen() -> int:
    """K-3: the difficulty when none is given, *Moyen* (15 on the ladder)."""
    from meneur.systems.krasses.ladder import parse_difficulty

    value = parse_difficulty("moyen").value
    assert value is not None
    return value


def difficulty_of(fields: Mapping[str, str]) -> int:
    """The difficulty typed or picked on the ladder (K-3; *Moyen* when none is given)."""
    from meneur.systems.krasses.rules import TestParams

    label, bound = _("Difficulty"), TestParams.MAX_VALUE
    return int_field({label: fields.get("difficulty", "")}, label, moyen(), -bound, bound)


def members_of(roller: Roller, seat: Seat, fields: Mapping[str, str]) -> list[Chosen]:
    """The members the form names, each a Krâsses character of the campaign."""
    from meneur.systems.krasses.rules import MAX_MEMBERS

    names = [key[len(JOIN) :] for key in fields if key.startswith(JOIN)]
    if not names:
        raise RuleError(N_("Choose who takes part in the cooperation."))
    if len(names) > MAX_MEMBERS:
        raise RuleError(
            N_("A cooperation has at most {limit} members, not {count}."),
            limit=MAX_MEMBERS,
            count=len(names),
        )
    skill = typed_trait(fields, "skill")
    chosen: list[Chosen] = []
    for name in names:
        info = table_character(roller, seat, name, "krasses")
        if any(c.name == info.name for c in chosen):
            continue
        trait = typed_trait(fields, TRAIT + name) or skill
        if not trait:
            raise RuleError(N_("Choose the skill of the cooperation."))
        chosen.append(Chosen(info.name, trait, info.sheet))
    acting_for(seat, [c.name for c in chosen])
    return chosen


def params_of(chosen: Sequence[Chosen], difficulty: int) -> Any:
    """K-7's params: each member's bonus (with the modifiers their sheet gives it, K-5) and
    level in what they roll (a characteristic or an unknown skill: no level, K-6)."""
    from meneur.systems.krasses.rules import CooperateParams, Member
    from meneur.systems.krasses.sheet import KrassesSheet, trait_roll

    members = []
    for one in chosen:
        rolled = trait_roll(KrassesSheet.model_validate(dict(one.sheet)), one.trait)
        members.append(Member(rolled.bonus + rolled.modifier, rolled.level))
    return CooperateParams(tuple(members), difficulty)


class Cooperation:
    """K-7 at the table (a :class:`~meneur.web.systems.TableAction`)."""

    name = "cooperate"
    template = "krasses/cooperate.html"

    def view(
        self, seat: Seat, characters: Sequence[Any], fields: Mapping[str, str]
    ) -> dict[str, Any] | None:
        """The campaign's Krâsses characters, the skills they know, the ladder; offered
        once two of them can cooperate."""
        from meneur.systems.krasses.ladder import ladder
        from meneur.systems.krasses.odds import cooperate_p_success

        mine = [c for c in characters if c.system == "krasses"]
        if len(mine) < 2 or not (seat.is_gm or any(seat.may_act_for(c.name) for c in mine)):
            return None
        skills = sorted({str(s) for c in mine for s in (c.sheet.get("skills") or {})})
        skill = (fields.get("skill") or "").strip()[:TRAIT_LENGTH] or (skills[0] if skills else "")
        asked = any(key.startswith(JOIN) for key in fields)
        chosen = [
            Chosen(
                c.name, (fields.get(TRAIT + c.name) or "").strip()[:TRAIT_LENGTH] or skill, c.sheet
            )
            for c in mine
            if not asked or JOIN + c.name in fields
        ]
        try:
            difficulty = difficulty_of(fields)
            odds = [(_("Success"), cooperate_p_success(params_of(chosen, difficulty)))]
        except MeneurError:  # nobody chosen yet, a bad number: the script asks again
            difficulty, odds = moyen(), []
        rungs = [(level.value, f"{level.name} ({level.value})") for level in ladder().levels]
        if all(value != difficulty for value, _label in rungs):
            rungs.append((difficulty, str(difficulty)))
        return {
            "characters": [c.name for c in mine],
            "traits": {
                c.name: [*(c.sheet.get("skills") or {}), *(c.sheet.get("characteristics") or {})]
                for c in mine
            },
            "skills": skills,
            "skill": skill,
            "joined": {c.name for c in chosen},
            "chosen": {c.name: fields.get(TRAIT + c.name, "") for c in mine},
            "difficulty": difficulty,
            "rungs": rungs,
            "odds": odds,
        }

    def odds(
        self, roller: Roller, seat: Seat, fields: Mapping[str, str]
    ) -> list[tuple[str, Fraction]]:
        from meneur.systems.krasses.odds import cooperate_p_success

        params = params_of(members_of(roller, seat, fields), difficulty_of(fields))
        return [(_("Success"), cooperate_p_success(params))]

    def act(self, roller: Roller, seat: Seat, fields: Mapping[str, str]) -> dict[str, Any]:
        """Everyone rolls (one die each, in the order given), logged as one entry."""
        from meneur.campaign.replay import STEPS, step
        from meneur.systems.krasses.rules import KrassesCooperate

        mode = roll_mode(fields)
        difficulty = difficulty_of(fields)

        def make(source: DiceSource) -> ActionRoll:
            chosen = members_of(roller, seat, fields)
            params = params_of(chosen, difficulty)
            check = KrassesCooperate()
            rolled = check.roll(params, [source])
            outcome = check.to_json(params, rolled.outcome)
            for member in outcome["members"]:
                member["name"] = chosen[member["index"]].name
                member["trait"] = chosen[member["index"]].trait
            skill = typed_trait(fields, "skill") or chosen[0].trait
            return ActionRoll(
                NewRoll(
                    system="krasses",
                    kind="cooperate",
                    params={
                        "trait": skill,
                        "members": [{"name": c.name, "trait": c.trait} for c in chosen],
                        "difficulty": difficulty,
                        STEPS: [step(check, rolled)],
                    },
                    faces=[list(stream) for stream in rolled.faces],
                    outcome=outcome,
                    source=source.kind,
                    who=", ".join(c.name for c in chosen),
                )
            )

        return log_action(roller, seat, mode, make)


def _member_name(member: Mapping[str, Any]) -> str:
    """A member by name; one the command line rolled (no sheet: ``--member 2:1``) by its
    number in the command's table, « #1 »."""
    name = member.get("name")
    return str(name) if name else f"#{int(member['index']) + 1}"


def cooperation_words(outcome: Mapping[str, Any]) -> Verdict:
    """The log's words: the verdict, the leader and the +2s, then everyone's roll."""
    members = {int(m["index"]): m for m in outcome["members"]}
    leader = members[int(outcome["leader"])]
    helpers = [_member_name(members[int(i)]) for i in outcome["helpers"]]
    words = _("Success") if outcome["passed"] else _("Failure")
    lead = _("{name} leads: total {total} against {difficulty}").format(
        name=_member_name(leader), total=outcome["total"], difficulty=outcome["difficulty"]
    )
    if helpers:
        lead += " " + fill(
            _("(+{bonus} from {names})"), bonus=outcome["help_bonus"], names=", ".join(helpers)
        )
    rolls = " ; ".join(
        _("{name} {total} (natural {natural})").format(
            name=_member_name(m), total=m["total"], natural=m["natural"]
        )
        for m in outcome["members"]
    )
    return Verdict(bool(outcome["passed"]), f"{words} · {lead}", rolls)
