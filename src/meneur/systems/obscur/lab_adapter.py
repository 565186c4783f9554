"""Obscur in the lab: Potentiel d'Action × difficulty (O-2 to O-10).

Variants: ``scoring`` (O-5, O-6: a zero skill, a zero attribute, or both), and the
points of Dépassement spent on each kind (O-10: ``dice``, ``reroll``, ``adjust``,
``margin``; 0 or a tier's price, 1, 3 or 6), so that ``meneur compare obscur --variant
reroll=1 --variant adjust=1`` answers "what is one Vécu point worth?"; ``margin_counts``
is the O-10 option. Points, as ``odds obscur --reroll 3`` reads them: ``reroll=3`` is
the same spend in the lab and in play (it named the third tier, 6 points, before).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar

from meneur.errors import UsageError
from meneur.lab.adapter import Adapter, tails
from meneur.lab.grid import Axis, Cell, Measure, parse_int_list
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.systems.obscur.system import SYSTEM
from meneur.systems.obscur.tables import rule_tables

POINTS = ("0", *(str(cost) for cost in rule_tables().depassement.tier_costs))
"""The points a variant may spend on one kind: nothing, or the price of a tier (O-10;
amounts between tiers buy the tier below, so they are not offered)."""


class ObscurAdapter(Adapter):
    checks: ClassVar[tuple[str, ...]] = ("test", "oppose")
    options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "scoring": ("normal", "zero-skill", "zero-attribute", "both"),
        "dice": POINTS,
        "reroll": POINTS,
        "adjust": POINTS,
        "margin": POINTS,
        "margin_counts": ("no", "yes"),
    }

    def axes(
        self,
        check: str,
        variant: Mapping[str, str],
        rows: str | None,
        columns: str | None,
        panels: str | None,
    ) -> tuple[Axis, Axis, Axis]:
        label = _("normal") if not variant else ",".join(f"{k}={v}" for k, v in variant.items())
        panel_axis = Axis("panel", N_("Variant"), ("variant",), (label,))
        if panels is not None:  # one panel, the variant's: --panels zzz was ignored
            raise UsageError(
                N_("An Obscur table has one panel: --panels does not apply (rules: --variant).")
            )
        row_values = parse_int_list(rows or "1..30", 0, 60, _("Dice"))
        if check == "test":
            cols = parse_int_list(columns or "1..15", 1, 200, _("Difficulty"))
            return (
                panel_axis,
                Axis("dice", N_("Dice"), row_values),
                Axis("difficulty", N_("Difficulty"), cols),
            )
        row_values = parse_int_list(rows or "1..15", 0, 60, _("Dice"))
        cols = parse_int_list(columns or "1..15", 0, 60, _("Opposing dice"))
        return (
            panel_axis,
            Axis("dice", N_("Dice"), row_values),
            Axis("vs_dice", N_("Opposing dice"), cols),
        )

    def measures(self, check: str) -> tuple[Measure, ...]:
        if check == "test":
            return (Measure("success", N_("Success")), Measure("fumble", N_("Fumble (Maladresse)")))
        return (
            Measure("win", N_("Win")),
            Measure("tie", N_("Nobody wins")),
            Measure("loss", N_("Loss")),
        )

    def outcome_of(self, check: str, key: Hashable) -> tuple[Any, str]:
        """Successes (test; a Maladresse apart) or the signed margin of side a (oppose)."""
        assert isinstance(key, tuple)
        if check == "test":
            return (-1, _("Fumble (Maladresse)")) if key[1] else (key[0], str(key[0]))
        signed = 0 if key[0] is None else key[1] if key[0] == "a" else -key[1]
        return signed, f"{signed:+d}"

    def params_at(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> Any:
        from meneur.systems.obscur.rules import OpposeParams

        assert isinstance(row, int) and isinstance(column, int)
        if check == "test":
            return self.test_params(variant, row, column)
        return OpposeParams(self.test_params(variant, row), self.test_params({}, column))

    def test_params(self, variant: Mapping[str, str], dice: int, difficulty: int = 1) -> Any:
        from meneur.systems.obscur.depassement import PushPlan, tier_for_points
        from meneur.systems.obscur.rules import TestParams

        def tier(kind: str) -> int:
            return tier_for_points(int(self.option(variant, kind)))

        scoring = self.option(variant, "scoring")
        return TestParams(
            dice,
            difficulty=difficulty,
            zero_skill=scoring in ("zero-skill", "both"),
            zero_attribute=scoring in ("zero-attribute", "both"),
            push=PushPlan(
                dice=tier("dice"),
                reroll=tier("reroll"),
                adjust=tier("adjust"),
                margin=tier("margin"),
            ),
            margin_counts=self.option(variant, "margin_counts") == "yes",
        )

    @staticmethod
    @cache
    def _fast(variant: tuple[tuple[str, str], ...]) -> tuple[tuple[int, ...], int] | None:
        """(successes per face, extra dice) when a row is one polynomial's tail, else None
        (rerolls and score adjustments change the law; a margin counted changes the cut)."""
        params = ADAPTER.test_params(dict(variant), 0, 1)
        push = params.push
        if push.reroll or push.adjust or (push.margin and params.counts_margin):
            return None
        return params.scoring.values, params.pool

    def row(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        columns: Sequence[Hashable],
    ) -> Sequence[Cell | None] | None:
        """One law per pool: a difficulty only cuts it (unless a margin adjustment counts)."""
        if check != "test" or not isinstance(row, int):
            return None
        fast = self._fast(tuple(sorted(variant.items())))
        if fast is not None:  # one polynomial per pool
            from meneur.systems.obscur.lab_grid import obscur_row

            values, extra = fast
            return obscur_row(values, row + extra, columns)
        params = self.test_params(variant, row, 1)
        if params.push.margin and params.counts_margin:
            return None
        dist: Any = self.check("test").odds(params)
        by_successes: dict[int, int] = {}
        fumble = 0
        for (successes, fumbled), weight in dist.items():
            by_successes[successes] = by_successes.get(successes, 0) + weight
            fumble += weight if fumbled else 0
        p_fumble = Fraction(fumble, dist.total)
        return [
            {"success": p, "fumble": p_fumble} for p in tails(by_successes, columns, dist.total)
        ]

    def cell(
        self,
        check: str,
        variant: Mapping[str, str],
        panel: Hashable,
        row: Hashable,
        column: Hashable,
    ) -> dict[str, Fraction] | None:
        from meneur.systems.obscur.rules import verdict

        assert isinstance(row, int) and isinstance(column, int)
        if check == "test":
            params = self.test_params(variant, row, column)
            dist: Any = self.check("test").odds(params)
            return {
                "success": dist.p_where(lambda k: verdict(params, k[0], k[1])[0]),
                "fumble": dist.p_where(lambda k: k[1]),
            }
        from meneur.systems.obscur.rules import OpposeParams

        opposed = OpposeParams(self.test_params(variant, row), self.test_params({}, column))
        dist = self.check("oppose").odds(opposed)
        return {
            "win": dist.p_where(lambda k: k[0] == "a"),
            "tie": dist.p_where(lambda k: k[0] is None),
            "loss": dist.p_where(lambda k: k[0] == "b"),
        }


ADAPTER = ObscurAdapter(SYSTEM)
