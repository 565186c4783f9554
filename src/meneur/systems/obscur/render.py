"""Rich rendering of Obscur results: dice shown as dice, successes highlighted, the
verdict in words, French game terms kept (Réussite, Marge de Réussite, Maladresse)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meneur.locale import N_, ngettext
from meneur.locale import gettext as _
from meneur.text import visible

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

PIPS = "⚀⚁⚂⚃⚄⚅"


def dice_text(
    faces: list[int], values: tuple[int, ...] = (0, 0, 0, 1, 1, 2), marks: set[int] | None = None
) -> Text:
    from rich.text import Text

    text = Text()
    for index, face in enumerate(faces):
        value = values[face - 1]
        style = "bold green" if value >= 2 else "green" if value == 1 else "dim"
        if marks and index in marks:
            style += " underline"
        text.append(f"{PIPS[face - 1]} {face}", style=style)
        text.append("  ")
    if not faces:
        text.append(_("(no dice)"), style="dim")
    return text


MALUS_LABELS = {
    "pain": N_("pain"),
    "intemperies": N_("Intempéries"),
    "fatigue": N_("fatigue"),
    "movement": N_("Surencombrement"),
}
"""The sheet's conditions as the pool's breakdown names them (O-29)."""


def pool_text(pool: dict[str, Any]) -> str:
    """« 5 dés − 2 douleur − 1 fatigue = 2 dés »: where a test's dice went (O-29)."""
    parts = [_dice(pool["base"])]
    if pool["modifier"]:
        sign = "+" if pool["modifier"] > 0 else "−"
        parts.append(_("{sign} {n} modifier").format(sign=sign, n=abs(pool["modifier"])))
    for name, value in pool["maluses"].items():
        parts.append(f"− {value} {_(MALUS_LABELS[name])}")
    if pool["extra_dice"]:
        parts.append(_("+ {n} Dépassement").format(n=pool["extra_dice"]))
    if len(parts) == 1:
        return parts[0]
    return " ".join(parts) + " = " + _dice(pool["dice"])


def _dice(count: int) -> str:
    """« 1 dé », « 2 dés », « 0 dé » (French counts 0 and 1 in the singular)."""
    return ngettext("{n} die", "{n} dice", count).format(n=count)


def verdict_text(data: dict[str, Any]) -> Text:
    from rich.text import Text

    text = Text()
    if data.get("automatic"):
        text.append(
            _("Automatic success (no roll)")
            if data["passed"]
            else _("Automatic failure (no roll)"),
            style="bold",
        )
        return text
    if data["fumble"]:
        text.append(_("Maladresse!") + " ", style="bold red")
    if data["passed"]:
        text.append(_("Réussite"), style="bold green")
        text.append("  " + _("Marge de Réussite {margin}").format(margin=data["margin"]))
    else:
        text.append(_("Échec"), style="bold red")
        text.append("  " + _("Marge d'Échec {margin}").format(margin=-data["margin"]))
    return text


def render_test(
    console: Console, data: dict[str, Any], values: tuple[int, ...], title: str | None = None
) -> None:
    if title:
        console.print(title, style="bold")
    if "rolled" in data:
        console.print(_("Rolled:  "), dice_text(data["rolled"], values))
        rerolled = data.get("rerolled") or []
        if rerolled:
            console.print(
                _("Rerolled dice: {dice}").format(dice=", ".join(f"#{i}" for i in rerolled))
            )
        adjusted = data.get("adjusted") or []
        if adjusted:
            console.print(
                _("Adjusted: {list}").format(list=", ".join(f"#{i} +{inc}" for i, inc in adjusted))
            )
    if values == (0, 0, 0, 0, 0, 2):
        console.print(_("Trait at 0 (O-5): only 6s count, 2 each."), style="dim")
    elif values == (0, 0, 0, 0, 0, 1):
        console.print(
            _("Caractéristique or Connaissance at 0 (O-6): only 6s count, 1 each."), style="dim"
        )
    marks = {i - 1 for i, _inc in data.get("adjusted") or []}
    console.print(_("Dice:    "), dice_text(data["faces"], values, marks))
    console.print(
        _("Successes: {successes} / difficulty {difficulty}").format(
            successes=data["successes"], difficulty=data["difficulty"]
        )
    )
    console.print(verdict_text(data))
    push = data.get("push")
    if push:
        console.print(
            _("Dépassement spent: {cost} points").format(cost=push["cost"]), style="yellow"
        )
    sheet = data.get("sheet")
    if sheet:
        from meneur.systems.obscur.sheet import RESOURCE_LABELS

        for name, points in (sheet.get("paid") or {}).items():
            label = RESOURCE_LABELS.get(name, name)
            console.print(_("  {points} from {resource}").format(points=points, resource=label))
        render_vecu_gained(console, sheet)


def render_vecu_gained(console: Console, sheet: dict[str, Any] | None) -> None:
    """The Vécu a Maladresse wrote on its sheet (O-3), said where a test or a side of an
    opposition shows its dice: the sheet changed, the user should know it."""
    if sheet and sheet.get("vecu_gained"):
        console.print(
            _("+{points} Vécu written to {path} (Maladresse).").format(
                points=sheet["vecu_gained"], path=visible(str(sheet["path"]))
            ),
            style="yellow",
            markup=False,
        )
