"""Légendes in the lab: the hero's dice × opposition level × circumstance (L-1 to L-8).

Rows are dice (0..6) or domains (legendary, secondary, ordinary: L-1). Variants: the PC
dice of each domain (``legendary``, ``secondary``, ``ordinary``: L-1 reads them from
data, here they can be switched to compare readings), and ``motivation`` (+2, L-12).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Any, ClassVar, NoReturn

from meneur.errors import UsageError
from meneur.lab.adapter import Adapter
from meneur.lab.grid import Axis, Measure, parse_int_list, parse_names
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.legendes.system import SYSTEM
from meneur.text import fold

DICE = ("0", "1", "2", "3", "4", "5", "6")
LEVELS = ("commun", "elite", "heroique", "legendaire")
DOMAINS = ("legendary", "secondary", "ordinary")


class LegendesAdapter(Adapter):
    checks: ClassVar[tuple[str, ...]] = ("test",)
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "legendary": ("3", *DICE),
        "secondary": ("2", *DICE),
        "ordinary": ("0", *DICE),
        "motivation": ("no", "yes"),
    }

    def level_label(self, level: str) -> str:
        """An opposition level (L-3) as ``odds legendes`` names it (« Élite », "Elite")."""
        from meneur.systems.legendes.render import LEVEL_LABELS

        return _(LEVEL_LABELS[level])

    def domain_label(self, domain: str, variant: Mapping[str, str]) -> str:
        """A domain (L-1) and its dice: « légendaire (3d6) », "legendary (3d6)"."""
        name = {
            "legendary": _("legendary"),
            "secondary": _("secondary"),
            "ordinary": _("ordinary"),
        }[domain]
        return f"{name} ({self.option(variant, domain)}d6)"

    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        modifiers: tuple[int, ...] = (0, 2, -2)
        if panels is not None:
            try:
                modifiers = parse_int_list(panels.replace("+", ""), -2, 2, _("Circumstance"))
            except UsageError as error:  # « from -2 to 2 » read as if 1 were allowed
                if "number" not in error.params:
                    raise
                _refuse_circumstance(error.params["number"])
            for modifier in modifiers:
                if modifier not in (-2, 0, 2):
                    _refuse_circumstance(modifier)
        panel_axis = Axis(
            "modifier",
            N_("Circumstance"),
            modifiers,
            tuple(f"{m:+d}" if m else "±0" for m in modifiers),
        )
        by_domain = any(k in variant for k in DOMAINS)
        row_text = rows or ("legendary,secondary,ordinary" if by_domain else "0..6")
        if any(fold(part).isalpha() for part in row_text.split(",")):
            names = {
                **{d: d for d in DOMAINS},
                "legendaire": "legendary",
                "secondaire": "secondary",
                "ordinaire": "ordinary",
            }
            row_values: tuple[Hashable, ...] = parse_names(row_text, names, _("Domain"))
            row_axis = Axis(
                "domain",
                N_("Domain"),
                row_values,
                tuple(self.domain_label(str(v), variant) for v in row_values),
            )
        else:
            from meneur.systems.legendes.rules import OpposedParams

            most = OpposedParams.MAX_DICE  # the rules' one bound on a side's dice
            row_axis = Axis("dice", N_("Dice"), parse_int_list(row_text, 0, most, _("Dice")))
        names = {level: level for level in LEVELS}
        names.update({"common": "commun", "heroic": "heroique", "legendary": "legendaire"})
        levels = parse_names(columns or ",".join(LEVELS), names, _("Opposition level"))
        column_axis = Axis(
            "level", N_("Opposition"), levels, tuple(self.level_label(str(v)) for v in levels)
        )
        return panel_axis, row_axis, column_axis

    def measures(self, check: str) -> tuple[Measure, ...]:
        return (
            Measure("win", N_("Win")),
            Measure("definitive", N_("Definitive victory (victoire définitive)")),
            Measure("tie", N_("Nobody wins")),
            Measure("loss", N_("Loss")),
        )

    def dice_of(self, variant: Mapping[str, str], row: Hashable) -> int:
        if isinstance(row, int):
            return row
        return int(self.option(variant, str(row)))

    def outcome_of(self, check: str, key: Hashable) -> tuple[Any, str]:
        """The outcome keys in their public order (from the hero's best to worst)."""
        from meneur.systems.legendes.rules import OUTCOME_KEYS

        return OUTCOME_KEYS.index(str(key)), str(key)

    def outcome_words(self, check: str, label: str) -> str:
        """An outcome as ``odds legendes`` words it (« héros : victoire définitive »)."""
        return self.outcome_label(label)

    def params_at(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> Any:
        return self.params(variant, panel, row, column)

    def params(self, variant: Mapping[str, str], panel: Any, row: Any, column: Any) -> Any:
        from meneur.systems.legendes.rules import OpposedParams, level_dice

        return OpposedParams(
            dice=self.dice_of(variant, row),
            vs_dice=level_dice(column),
            vs_level=column,
            modifier=panel,
            motivation=self.option(variant, "motivation") == "yes",
        )

    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        dist: Any = self.check("test").odds(self.params(variant, panel, row, column))
        return {
            "win": dist.p_where(lambda k: k.startswith("win")),
            "definitive": dist.p("win:definitive"),
            "tie": dist.p("tie"),
            "loss": dist.p_where(lambda k: k.startswith("loss")),
        }

    def outcome_label(self, key: str) -> str:
        """A band of ``odds legendes`` in words (``win:definitive``: the hero's victory)."""
        from meneur.systems.legendes.render import KEY_LABELS

        return _(KEY_LABELS.get(key, key))


def _refuse_circumstance(value: object) -> NoReturn:
    """A circumstance is ±2 on the result, or nothing (L-7): what the message says,
    whichever number was typed (3 as much as 1)."""
    raise UsageError(N_("A circumstance is -2, 0 or +2 (L-7), not {value}."), value=value)


ADAPTER = LegendesAdapter(SYSTEM)
