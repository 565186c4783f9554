"""Krâsses at the web table: a trait's d20 test against the difficulty (K-1 to K-4), and a
cooperation of the table's characters (K-7, :mod:`.cooperate`).

Its text gives no exchange of blows: the tracker's exchange is refused (the base hook)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.krasses.system import SYSTEM
from meneur.web.systems import (
    EditField,
    Mark,
    RollOptions,
    Trait,
    Verdict,
    WebAdapter,
    chance_where,
    number_field,
    pairs,
    refused,
    signed,
)


class KrassesWeb(WebAdapter):
    definition = SYSTEM
    templates = Path(__file__).parent / "templates"
    health = N_("Health")
    option_fields = ("difficulty", "modifier")
    preload = ("meneur.systems.krasses.odds",)

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        from meneur.systems.krasses.sheet import KrassesSheet, trait_roll

        model = KrassesSheet.model_validate(dict(sheet))
        found = []
        for name in [*model.skills, *model.characteristics]:
            roll = trait_roll(model, name)
            bonus = roll.bonus + roll.modifier
            found.append(Trait(name, name, bonus, _("d20 {bonus}").format(bonus=signed(bonus))))
        return found

    def option_defaults(self) -> Mapping[str, Any]:
        """K-3: a roll with no difficulty given is *Moyen* (15 on the ladder)."""
        from meneur.systems.krasses.ladder import parse_difficulty

        return {"difficulty": parse_difficulty("moyen").value}

    def choices(self) -> Mapping[str, list[tuple[Any, str]]]:
        """The ladder of K-3, each rung with its value (Très facile 5 … Héroïque 40)."""
        from meneur.systems.krasses.ladder import ladder

        rungs = [(level.value, f"{level.name} ({level.value})") for level in ladder().levels]
        return {"difficulty": rungs}

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        from meneur.systems.krasses.rules import TestParams

        options = self.chosen(options)
        found = self.find_trait(sheet, trait)
        return TestParams(
            bonus=found.value, difficulty=options.difficulty, modifier=options.modifier
        )

    def success(self, params: Any) -> Fraction:
        return chance_where(self.check.odds(params), lambda key: bool(key[0]))  # type: ignore[index]

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        if result["automatic"]:
            return Verdict(True, _("Automatic success"), "")
        detail = _("natural {natural}, total {total} against {difficulty}").format(
            natural=result["natural"], total=result["total"], difficulty=result["difficulty"]
        )
        if result["natural"] == 20:
            return Verdict(True, _("Success (natural 20)"), detail)
        if result["natural"] == 1:
            return Verdict(False, _("Failure (natural 1)"), detail)
        if result["passed"]:
            return Verdict(True, _("Success"), detail)
        return Verdict(False, _("Failure"), detail)

    def table_actions(self) -> tuple[Any, ...]:
        """K-7: a cooperation of the table's characters."""
        from meneur.systems.krasses.web.cooperate import Cooperation

        return (Cooperation(),)

    def describe(self, entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
        """A cooperation (K-7) in words: the verdict, the leader, the +2s, every roll."""
        from meneur.systems.krasses.web.cooperate import cooperation_words

        if entry.get("kind") != "cooperate":
            return None
        skill = str((entry.get("params") or {}).get("trait") or "")
        title = (
            _("cooperation (K-7): {skill}").format(skill=skill) if skill else _("cooperation (K-7)")
        )  # the command line's cooperation rolls bonuses, not a sheet's skill
        return title, cooperation_words(entry.get("outcome") or {})

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        return [
            [Mark(f, "hit" if f == 20 else ("fumble" if f == 1 else "")) for f in stream]
            for stream in faces
        ]

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        from meneur.systems.krasses.sheet import MAX_SCORE, KrassesSheet

        sheet = {  # the sheet's own bounds, as `character new krasses` takes them
            "system": "krasses",
            "name": name,
            "characteristics": pairs(
                fields.get("characteristics", ""),
                -MAX_SCORE,
                MAX_SCORE,
                field=_("Characteristics"),
            ),
            "skills": pairs(fields.get("skills", ""), 0, MAX_SCORE, field=_("Skills")),
            "advantages": [],
            "equipment": [],
        }
        return KrassesSheet.model_validate(sheet).model_dump(mode="json")

    def edit_fields(self, sheet: Mapping[str, Any]) -> list[EditField]:
        """What a Krâsses sheet holds as numbers: its characteristics and skill levels
        (the text keeps no health on the sheet)."""
        from meneur.systems.krasses.sheet import CHARACTERISTIC, LEVEL

        bounds = {"characteristics": CHARACTERISTIC, "skills": LEVEL}
        return [
            number_field((table, name), str(name), value, bounds[table])
            for table in ("characteristics", "skills")
            for name, value in (sheet.get(table) or {}).items()
        ]

    def valid_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Judged by the CLI's own Krâsses sheet model."""
        from pydantic import ValidationError

        from meneur.systems.krasses.sheet import KrassesSheet

        try:
            return KrassesSheet.model_validate(sheet).model_dump(mode="json")
        except ValidationError as error:
            raise refused(error, self.definition) from None
