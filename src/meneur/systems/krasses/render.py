"""How Krâsses rolls look to people: dice as dice, naturals coloured, verdicts in words.

Only the CLI imports this module (it needs rich). French game terms are kept through the
catalogue: *Réussite*, *Échec*, *PJ*/*PNJ*, *meneur de l'action*.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from meneur.locale import N_, pgettext
from meneur.locale import gettext as _
from meneur.locale.numbers import decimal, percent
from meneur.systems.krasses.rules import (
    HELP_BONUS,
    NATURAL_FAILURE,
    NATURAL_SUCCESS,
    CooperateOutcome,
    CooperateParams,
    Krasse,
    OpposeOutcome,
    OpposeParams,
    TestOutcome,
    TestParams,
)
from meneur.systems.log_words import opposition_words, test_words

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rich.console import Console

DECIDED_BY = {
    "natural": N_("by a natural 20 or 1"),
    "total": N_("by the higher total"),
    "tie": N_("on a tie, the PC wins"),
}
"""What decided an opposition (K-4), after its result."""
LOG_WHY = {"natural": DECIDED_BY["natural"], "tie": N_("tie to the PC")}
"""The same in a line of the log, where the totals already say a win by the total."""

SOURCES = {
    "skill": lambda: _("skill"),
    "advantage": lambda: _("advantage"),
    "characteristic": lambda: _("characteristic"),
}


def die(face: int) -> str:
    """A d20 face as rich markup: a natural 20 green, a natural 1 red."""
    if face == NATURAL_SUCCESS:
        return f"[bold green]\\[{face}][/]"
    if face == NATURAL_FAILURE:
        return f"[bold red]\\[{face}][/]"
    return f"[bold]\\[{face}][/]"


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def verdict(passed: bool) -> str:
    # The markup is part of the message id: "Success" alone is shared with other areas.
    return _("[bold green]Success[/]") if passed else _("[bold red]Failure[/]")


def kind_name(kind: str) -> str:
    return _("PC") if kind == "pc" else _("NPC")


def difficulty_text(base: int, name: str | None, krasses: tuple[Krasse, ...]) -> str:
    from meneur.systems.krasses.ladder import name_of

    label = name or name_of(base)
    text = f"{escape(label)} ({base})" if label else str(base)
    for krasse in krasses:
        text += " " + _("{sign} krâsse « {name} »").format(
            sign=signed(krasse.value), name=escape(krasse.name)
        )
    if krasses:
        text += f" = [bold]{base + sum(k.value for k in krasses)}[/]"
    return text


def natural_note(natural: int) -> str | None:
    if natural == NATURAL_SUCCESS:
        return _("Natural 20: the action succeeds whatever the total.")
    if natural == NATURAL_FAILURE:
        return _("Natural 1: the action fails whatever the total.")
    return None


def render_test(
    console: Console,
    params: TestParams,
    outcome: TestOutcome,
    name: str | None,
    trait: dict[str, Any] | None,
) -> None:
    console.print("[bold]Krâsses[/] — " + _("test"))
    if trait is not None:
        level = (
            _("no level, so no bonus: K-6")
            if trait["source"] == "none"
            else _("{source} {bonus}").format(source=SOURCES[trait["source"]](), bonus=params.bonus)
        )
        console.print(_("Rolled: {name} ({level})").format(name=escape(trait["name"]), level=level))
    if outcome.natural is None or outcome.total is None or params.difficulty is None:
        console.print(
            _("Difficulty: {name}. The action succeeds without a roll.").format(
                name=escape(name) if name else _("Automatique")
            )
        )
        console.print(verdict(True))
        return
    parts = [
        _("d20 {die}").format(die=die(outcome.natural)),
        _("{value} (bonus)").format(value=signed(params.bonus)),
    ]
    if params.modifier:
        parts.append(_("{value} (modifiers)").format(value=signed(params.modifier)))
    console.print(
        _("Roll: {parts} = [bold]{total}[/]").format(parts=" ".join(parts), total=outcome.total)
    )
    console.print(
        _("Difficulty: {text}").format(
            text=difficulty_text(params.difficulty, name, params.krasses)
        )
    )
    note = natural_note(outcome.natural)
    if note:
        console.print(note)
    console.print(
        _("{verdict} (margin {margin})").format(
            verdict=verdict(outcome.passed), margin=signed(outcome.margin or 0)
        )
    )


def render_oppose(console: Console, params: OpposeParams, outcome: OpposeOutcome) -> None:
    from rich.table import Table

    console.print(
        "[bold]Krâsses[/] — "
        + _("opposed roll: a ({a_kind}, bonus {a}) against b ({b_kind}, bonus {b})").format(
            a_kind=kind_name(params.a.kind),
            a=signed(params.a.bonus + params.a.modifier),
            b_kind=kind_name(params.b.kind),
            b=signed(params.b.bonus + params.b.modifier),
        )
    )
    table = Table(show_header=True, header_style="bold")
    table.add_column(pgettext("krasses", "Round"), justify="right")
    table.add_column("a")
    table.add_column("b")
    table.add_column(_("Round result"))
    for number, exchange in enumerate(outcome.rounds, start=1):
        if exchange.result == "reroll":
            result = _("tie: roll again")
        else:
            result = _("{side} wins").format(side=exchange.result)
        table.add_row(
            str(number),
            f"{die(exchange.a_natural)} → {exchange.a_total}",
            f"{die(exchange.b_natural)} → {exchange.b_total}",
            result,
        )
    console.print(table)
    why = _(DECIDED_BY[outcome.decided_by])
    kind = params.a.kind if outcome.winner == "a" else params.b.kind
    console.print(
        _("Winner: [bold]{side}[/] ({kind}), {why}.").format(
            side=outcome.winner, kind=kind_name(kind), why=why
        )
    )
    if outcome.rerolls:
        console.print(_("Rerolls: {count}").format(count=outcome.rerolls))


def log_summary(kind: str, outcome: Mapping[str, Any]) -> str | None:
    """A test's line in ``meneur log`` (K-1 to K-3): « échec (8 contre 15) »; an
    opposition's (K-4): « b l'emporte (11 contre 21) »,
    with why when the totals do not say it: « a l'emporte (23 contre 18), par un 20 ou
    un 1 naturel », « a l'emporte (13 contre 13), égalité au PJ »; None for another
    kind (the log reads the usual fields)."""
    if kind in ("test", "cooperate"):
        return _test_words(outcome)
    said = opposition_words(outcome, "total", margin=False) if kind == "oppose" else None
    why = LOG_WHY.get(str(outcome.get("decided_by")))
    if said is None or why is None:
        return said
    return _("{words}, {why}").format(words=said, why=_(why))


def _test_words(outcome: Mapping[str, Any]) -> str | None:
    """« échec (8 contre 15) », « réussite sur un 20 naturel (23 contre 25) » (K-2)."""
    natural = outcome.get("natural")
    verdict = (
        _("success on a natural 20")
        if natural == NATURAL_SUCCESS
        else _("failure on a natural 1")
        if natural == NATURAL_FAILURE
        else None
    )
    return test_words(outcome, "total", "difficulty", verdict)


def render_cooperate(
    console: Console, params: CooperateParams, outcome: CooperateOutcome, name: str | None
) -> None:
    from rich.table import Table

    console.print("[bold]Krâsses[/] — " + _("cooperation"))
    table = Table(show_header=True, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(_("Bonus"), justify="right")
    table.add_column(_("Level"), justify="right")
    table.add_column(_("d20"))
    table.add_column(_("Total"), justify="right")
    table.add_column(_("Role"))
    for index, member in enumerate(params.members):
        if index == outcome.leader:
            role = "[bold]" + _("leads the action") + "[/]"
        elif index in outcome.helpers:
            role = "[green]" + _("helps: +{bonus}").format(bonus=HELP_BONUS) + "[/]"
        elif member.level < 1:
            role = _("no level: cannot help")
        elif outcome.naturals[index] == NATURAL_FAILURE:  # K-7: whatever its total
            role = _("does not help (a natural 1)")
        else:
            role = _("does not help (below 15)")
        table.add_row(
            str(index + 1),
            signed(member.bonus),
            str(member.level),
            die(outcome.naturals[index]),
            str(outcome.totals[index]),
            role,
        )
    console.print(table)
    help_bonus = HELP_BONUS * len(outcome.helpers)
    console.print(
        _("Leader's total: {total} {help} = [bold]{final}[/]").format(
            total=outcome.totals[outcome.leader], help=signed(help_bonus), final=outcome.total
        )
    )
    console.print(
        _("Difficulty: {text}").format(
            text=difficulty_text(params.difficulty, name, params.krasses)
        )
    )
    note = natural_note(outcome.naturals[outcome.leader])
    if note:
        console.print(note)
    console.print(
        _("{verdict} (margin {margin})").format(
            verdict=verdict(outcome.passed), margin=signed(outcome.margin)
        )
    )


def render_odds(console: Console, data: dict[str, Any]) -> None:
    if data["kind"] == "oppose":
        console.print(
            _("Chance that a wins: [bold]{exact}[/] ({percent})").format(
                exact=data["exact"]["p_a_wins"], percent=percent(data["p_a_wins"])
            )
        )
        if data["p_tie_round"]:
            console.print(
                _("Ties rolled again: {tie} per round, {rerolls} rerolls on average.").format(
                    tie=percent(data["p_tie_round"]), rerolls=decimal(data["expected_rerolls"], 3)
                )
            )
        return
    console.print(
        _("Chance of success: [bold]{exact}[/] ({percent})").format(
            exact=data["exact"]["p_success"], percent=percent(data["p_success"])
        )
    )
    if data["kind"] == "cooperate":
        for index, p in data["p_leader"].items():
            console.print(
                _("Member {number} leads: {percent}").format(
                    number=int(index) + 1, percent=percent(p)
                )
            )
