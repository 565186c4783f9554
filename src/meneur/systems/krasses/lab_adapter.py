"""Krâsses in the lab: bonus × the difficulty ladder (K-1 to K-3), bonus × bonus (K-4).

Variant: ``naturals`` (K-4 option: naturals ignored in oppositions). The opposed grid
sets a player character (rows) against a non-player character (columns), so ties go
to the PC and never reroll (K-4).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Any, ClassVar

from meneur.errors import UsageError
from meneur.lab.adapter import Adapter
from meneur.lab.grid import Axis, Measure, parse_int_list
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.krasses.system import SYSTEM

LADDER = (5, 10, 15, 20, 25, 30, 35, 40)


def ladder_values() -> tuple[int, ...]:
    """The rungs of the ladder data file (K-3), falling back to the text's."""
    try:
        from meneur.systems.krasses.ladder import ladder

        return tuple(level.value for level in ladder().levels) or LADDER
    except Exception:  # a broken user file is reported by the Krâsses commands themselves
        return LADDER


class KrassesAdapter(Adapter):
    checks: ClassVar[tuple[str, ...]] = ("test", "oppose")
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {"naturals": ("on", "off")}

    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        from meneur.systems.krasses.rules import TestParams

        bound = TestParams.MAX_VALUE  # the rules' one bound on a bonus and a difficulty
        if panels is not None:  # was ignored: a user thought they chose something
            raise UsageError(
                N_("A Krâsses table has one panel: --panels does not apply (rules: --variant).")
            )
        panel_axis = Axis("panel", N_("Variant"), ("variant",), (_("normal"),))
        row_values = parse_int_list(rows or "0..15", -bound, bound, _("Bonus"))
        if check == "test":
            if columns:
                cols = parse_int_list(columns, -bound, bound, _("Difficulty"))
            else:
                cols = ladder_values()
            return (
                panel_axis,
                Axis("bonus", N_("Bonus"), row_values),
                Axis("difficulty", N_("Difficulty"), cols),
            )
        cols = parse_int_list(columns or "0..15", -bound, bound, _("Opposing bonus"))
        label = _("naturals {state}").format(state=self.option(variant, "naturals"))
        return (
            Axis("panel", N_("Variant"), ("variant",), (label,)),
            Axis("bonus", N_("Bonus"), row_values),
            Axis("vs_bonus", N_("Opposing bonus"), cols),
        )

    def measures(self, check: str) -> tuple[Measure, ...]:
        if check == "test":
            return (Measure("success", N_("Success")),)
        return (Measure("win", N_("Win")), Measure("loss", N_("Loss")))

    def outcome_of(self, check: str, key: Hashable) -> tuple[Any, str]:
        """The margin (test; a success by a natural 20 or failure by a 1 shows as such)."""
        assert isinstance(key, tuple)
        if check == "test":
            passed, margin = key
            if margin is None:
                return 0, _("Success")
            mark = "✓" if passed else "✗"
            return margin, f"{margin:+d} {mark}"
        return str(key), f"{key[0]} ({key[1]})"

    def outcome_words(self, check: str, label: str) -> str:
        """An opposition's outcome as ``meneur log`` words it (K-4): « a l'emporte, par
        un 20 ou un 1 naturel », where its label is ``a (natural)``."""
        from meneur.systems.krasses.render import DECIDED_BY, LOG_WHY

        side, _sep, why = label.removesuffix(")").partition(" (")
        reason = {**DECIDED_BY, **LOG_WHY}.get(why)
        if check != "oppose" or reason is None:
            return label
        return _("{words}, {why}").format(words=_("{side} wins").format(side=side), why=_(reason))

    def params_at(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> Any:
        from meneur.systems.krasses.rules import OpposeParams, Side, TestParams

        assert isinstance(row, int) and isinstance(column, int)
        if check == "test":
            return TestParams(bonus=row, difficulty=column)
        naturals = self.option(variant, "naturals") == "on"
        return OpposeParams(Side(row, "pc"), Side(column, "npc"), naturals=naturals)

    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        assert isinstance(row, int) and isinstance(column, int)
        if check == "test":
            from meneur.systems.krasses.rules import TestParams

            dist: Any = self.check("test").odds(TestParams(bonus=row, difficulty=column))
            return {"success": dist.p_where(lambda k: k[0])}
        from meneur.systems.krasses.rules import OpposeParams, Side

        params = OpposeParams(
            Side(row, "pc"), Side(column, "npc"), naturals=self.option(variant, "naturals") == "on"
        )
        dist = self.check("oppose").odds(params)
        return {
            "win": dist.p_where(lambda k: k[0] == "a"),
            "loss": dist.p_where(lambda k: k[0] == "b"),
        }


ADAPTER = KrassesAdapter(SYSTEM)
