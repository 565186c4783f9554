"""The Tunnels commands: test, oppose, odds, fight and character new.

Help strings are translated when this module is imported (the language is set before).
Rules, odds and data load inside the command bodies.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meneur.cli.params import (
    CharacterArg,
    FacesArg,
    ForceOpt,
    Json,
    Seed,
    VsCharacterArg,
    VsFacesArg,
    int_parser,
    meneur_parser,
    parse_int,
    refuse_own_sheet,
    sheet_or_character,
)
from meneur.errors import DiceSourceError, UsageError
from meneur.locale import N_, labelled, ngettext
from meneur.locale import gettext as _
from meneur.locale.numbers import Chances, floats_of, fraction_text, fractions_of
from meneur.systems.base import CommandGroups
from meneur.systems.tunnels.limits import MAX_CHANCE_SPENT
from meneur.text import is_digits

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.console import Console

    from meneur.cli.params import TypedFaces
    from meneur.odds.dist import Dist
    from meneur.rng import DiceSource
    from meneur.systems.tunnels.combat import Fighter, FightParams
    from meneur.systems.tunnels.rules import (
        OpposedParams,
        Policy,
        SixesRule,
        TestOutcome,
        TestParams,
    )

FACE_GLYPHS = "⚀⚁⚂⚃⚄⚅"
VISIBLE = 20_000
"""One in this many: the smallest chance the successes table gives a row of its own
(0.005 %, printed 0,01)."""


def _policy(text: str) -> str:
    from meneur.systems.tunnels.rules import check_policy

    return check_policy(text.strip().lower())


def _sixes(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned not in ("batch", "all"):
        raise UsageError(N_("Unknown rule for sixes '{rule}': choose batch or all."), rule=cleaned)
    return cleaned


def _loss(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned not in ("margin", "one"):
        raise UsageError(N_("Unknown loss rule '{loss}': choose margin or one."), loss=cleaned)
    return cleaned


def _tie(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned not in ("none", "reroll"):
        raise UsageError(N_("Unknown tie rule '{tie}': choose none or reroll."), tie=cleaned)
    return cleaned


class _Level(int):
    """A threshold as typed; remembers if it came from the provisional table of levels."""

    provisional: bool = False


def _threshold(text: str) -> int:
    from meneur.systems.tunnels.rules import TestParams

    cleaned = text.strip()
    signed = cleaned[1:] if cleaned[:1] in "+-" else cleaned  # -3: out of bounds, not a word
    if is_digits(signed) and len(signed.lstrip("0")) > 6:  # not echoed: it may be pages long
        raise UsageError(
            N_("A threshold lies between 1 and {limit}, not a number of {digits} digits."),
            limit=TestParams.MAX_THRESHOLD,
            digits=len(signed.lstrip("0")),
        )
    if is_digits(signed):  # a number needs no data file
        value, provisional = int(cleaned), False
    else:
        from meneur.systems.tunnels.data import threshold_of

        value, provisional = threshold_of(text)
    if not 1 <= value <= TestParams.MAX_THRESHOLD:
        raise UsageError(
            N_("A threshold lies between 1 and {limit}, not {value}."),
            limit=TestParams.MAX_THRESHOLD,
            value=value,
        )
    level = _Level(value)
    level.provisional = provisional
    return level


def _level_note(threshold: int | None) -> str | None:
    if getattr(threshold, "provisional", False):
        return _("Named level from a table provisoire (only moyenne = 2 comes from the text).")
    return None


def _number_option(flag: str, parser: Any, help_text: str) -> Any:
    """A bounded whole-number option (Endurance, Chance): a clear error out of range."""
    return typer.Option(flag, parser=parser, metavar="N", help=help_text)


def pool(text: str) -> int:
    """A pool of dice (a characteristic, a Monster Rating), up to the one bound the rules
    declare (``TestParams.MAX_DICE``): play, odds and the lab's simulations alike.

    Read when the option is parsed, so that ``--help`` imports no rules.
    """
    from meneur.systems.tunnels.rules import TestParams

    return parse_int(text, low=1, high=TestParams.MAX_DICE)


def successes(text: str) -> int:
    """Successes needed: a number up to ``TestParams.MAX_THRESHOLD`` or a named level
    (``moyenne``), read as ``--threshold`` is everywhere (the lab refused the names)."""
    return meneur_parser(_threshold)(text)


def endurance(text: str) -> int:
    """An Endurance, up to the sheet's and the fight's bound (``combat.MAX_ENDURANCE``)."""
    from meneur.systems.tunnels.combat import MAX_ENDURANCE

    return parse_int(text, low=1, high=MAX_ENDURANCE)


def _dice_option(flag: str, help_text: str, parser: Any = pool) -> Any:
    """A number of dice, bounded where the rules (or the exact engine) declare it."""
    return typer.Option(flag, parser=parser, metavar="N", help=help_text)


def _choice_option(flag: str, parse: Any, metavar: str, help_text: str) -> Any:
    """An option among named values (a policy, a rule): ``parse`` refuses the others."""
    return typer.Option(flag, parser=meneur_parser(parse), metavar=metavar, help=help_text)


def _text_option(flag: str, metavar: str, help_text: str) -> Any:
    """A plain text or path option (a sheet, a characteristic, a spell, a weapon...)."""
    return typer.Option(flag, metavar=metavar, help=help_text)


Dice = Annotated[
    int | None,
    _dice_option("--dice", _("Dice rolled (the characteristic).")),
]
Threshold = Annotated[
    int | None,
    typer.Option(
        "--threshold",
        parser=successes,
        metavar="T",
        help=_("Successes needed (the niveau): a number, or a level such as moyenne."),
    ),
]
Blessed = Annotated[bool, typer.Option("--blessed", help=_("Blessed roll (béni): 3-6 succeed."))]
Cursed = Annotated[
    bool, typer.Option("--cursed", help=_("Cursed roll (maudit): only 5-6 succeed."))
]
Explode = Annotated[
    str,
    _choice_option(
        "--explode",
        _policy,
        "never|always|needed",
        _("When doubles explode: never, always or needed (while short of the goal)."),
    ),
]
Sixes = Annotated[
    str,
    _choice_option(
        "--sixes",
        _sixes,
        "batch|all",
        _("Exceptional success needs three 6s in one batch (batch) or anywhere (all)."),
    ),
]
VsExplode = Annotated[
    str | None,
    _choice_option(
        "--vs-explode",
        _policy,
        "never|always|needed",
        _("The opponent's explosion policy (default: the same as --explode)."),
    ),
]
VsBlessed = Annotated[bool, typer.Option("--vs-blessed", help=_("The opponent rolls blessed."))]
VsCursed = Annotated[bool, typer.Option("--vs-cursed", help=_("The opponent rolls cursed."))]
FightLoss = Annotated[
    str,
    _choice_option(
        "--loss", _loss, "margin|one", _("What the loser loses: the margin, or one point.")
    ),
]
Tie = Annotated[
    str,
    _choice_option(
        "--tie",
        _tie,
        "none|reroll",
        _("A tied round: nobody wins it, or it is rolled again (T-9 option)."),
    ),
]


class _Labelled:
    """A dice source whose errors name the option its faces came from (--faces, --vs-faces)."""

    def __init__(self, source: DiceSource, flag: str) -> None:
        self.source = source
        self.flag = flag

    @property
    def kind(self) -> str:
        return self.source.kind

    def _named(self, error: DiceSourceError) -> DiceSourceError:
        return DiceSourceError(N_("{flag}: {message}"), flag=self.flag, message=str(error))

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        try:
            return self.source.roll(sides, count)
        except DiceSourceError as error:
            raise self._named(error) from None

    def finish(self) -> None:
        try:
            self.source.finish()
        except DiceSourceError as error:
            raise self._named(error) from None


def _two_sources(
    seed: int | None, faces: TypedFaces | None, vs_faces: TypedFaces | None
) -> list[DiceSource]:
    from meneur.cli.params import dice_sources

    first, second = dice_sources(seed, faces, vs_faces)
    return [
        _Labelled(first, "--faces") if faces is not None else first,
        _Labelled(second, "--vs-faces") if vs_faces is not None else second,
    ]


def _die(face: int, lowest: int) -> str:
    glyph = FACE_GLYPHS[face - 1] if 1 <= face <= 6 else "?"
    if face == 1:
        return f"[bold red]{glyph} {face}[/]"
    if face >= lowest:
        return f"[bold green]{glyph} {face}[/]"
    return f"[dim]{glyph} {face}[/]"


def _batches_line(outcome: TestOutcome, lowest: int) -> str:
    parts = []
    for index, batch in enumerate(outcome.batches):
        dice = "  ".join(_die(face, lowest) for face in batch)
        label = _("roll") if index == 0 else _("explosion {n}").format(n=index)
        parts.append(_("[cyan]{label}:[/] {dice}").format(label=label, dice=dice))
    return "\n".join(parts)


def _verdict(outcome: TestOutcome) -> str:
    if outcome.critical:
        return "[bold white on red] " + _("A critical failure") + " [/]"
    if outcome.exceptional:
        return "[bold black on yellow] " + _("An exceptional success") + " [/]"
    if outcome.passed:
        return "[bold green]" + _("A success") + "[/]"
    return "[bold red]" + _("A failure") + "[/]"


def _mode_note(blessed: bool, cursed: bool) -> str | None:
    if blessed and cursed:
        return _("Blessed and cursed cancel out (T-4): an ordinary roll, 4-6 succeed.")
    if blessed:
        return _("Blessed (béni): 3-6 succeed.")
    if cursed:
        return _("Cursed (maudit): only 5-6 succeed.")
    return None


def _render_test(console: Console, outcome: TestOutcome, lowest: int, notes: list[str]) -> None:
    for note in notes:
        console.print(f"[italic]{note}[/]")
    console.print(_batches_line(outcome, lowest))
    if outcome.critical and outcome.margin >= 0:  # T-8: failed, so no Marge de Réussite
        console.print(
            _("Successes: {successes} / threshold {threshold}").format(
                successes=f"[bold]{outcome.successes}[/]", threshold=outcome.threshold
            )
        )
    else:
        margin_label = _("Marge de Réussite") if outcome.margin >= 0 else _("Marge d'Échec")
        console.print(
            _("Successes: {successes} / threshold {threshold} ({label} {margin})").format(
                successes=f"[bold]{outcome.successes}[/]",
                threshold=outcome.threshold,
                label=margin_label,
                margin=abs(outcome.margin),
            )
        )
    console.print(_verdict(outcome))
    if outcome.critical and outcome.successes >= outcome.threshold:
        console.print(_("Three 1s or more: the critical failure beats the successes (T-8)."))


def test_command(
    dice: Dice = None,
    threshold: Threshold = None,
    blessed: Blessed = False,
    cursed: Cursed = False,
    explode: Explode = "needed",
    sixes: Sixes = "batch",
    sheet: Annotated[
        Path | None,
        _text_option("--sheet", "FILE", _("Roll from a character sheet (JSON).")),
    ] = None,
    stored: CharacterArg = None,
    trait: Annotated[
        str | None,
        _text_option(
            "--trait", "NAME", _("The characteristic to roll from the sheet (Dextérité...).")
        ),
    ] = None,
    spell: Annotated[
        str | None,
        _text_option("--spell", "NAME", _("Cast a spell from the sheet: spends its Mana (T-13).")),
    ] = None,
    chance: Annotated[
        int,
        _number_option(
            "--chance",
            int_parser(0, MAX_CHANCE_SPENT),
            _("Spend up to N Chance on a failed test: each rerolls a failed die (T-12)."),
        ),
    ] = 0,
    chance_all: Annotated[
        bool,
        typer.Option("--chance-all", help=_("Option of T-12: 1 Chance rerolls every failed die.")),
    ] = False,
    faces: FacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll a Tunnels test."""
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.tunnels.rules import LOWEST_SUCCESS, TestParams, TunnelsTest, check_policy

    notes: list[str] = []
    loaded = None
    sheet = sheet_or_character(sheet, stored, "tunnels")
    if sheet is not None:  # sheets and spells load pydantic models: only when used
        from meneur.systems.tunnels import character as characters

        loaded = characters.load(sheet)
    chosen_spell = None
    if spell is not None:
        if loaded is None:
            raise UsageError(N_("Casting a spell needs --sheet."))
        from meneur.systems.tunnels.data import find_spell, find_trait, spells
        from meneur.systems.tunnels.magic import spend_mana

        chosen_spell = find_spell(spell)
        if trait is not None and find_trait(trait) != chosen_spell.trait:
            raise UsageError(
                N_("The spell {spell} is cast with {own}: leave out --trait {trait}."),
                spell=chosen_spell.name,
                own=chosen_spell.trait,
                trait=trait,
            )  # (it was ignored: the spell's own trait was rolled)
        trait = chosen_spell.trait
        if threshold is not None and threshold != chosen_spell.threshold:
            raise UsageError(
                N_(
                    "The spell {spell} is cast against threshold {own}: leave out "
                    "--threshold {threshold}."
                ),
                spell=chosen_spell.name,
                own=chosen_spell.threshold,
                threshold=int(threshold),
            )  # (T-13: the spell is data, its test too; it was silently overridden)
        threshold = chosen_spell.threshold
    if chance and loaded is not None and chance > loaded.chance.current:
        raise UsageError(
            N_("{name} has only {chance} Chance left."),
            name=loaded.name,
            chance=loaded.chance.current,
        )
    if loaded is not None:
        if trait is None:
            raise UsageError(N_("With --sheet, name the characteristic with --trait."))
        if dice is not None:
            raise UsageError(N_("Give either --dice or --sheet with --trait, not both."))
        trait_name, dice = loaded.trait(trait)
        notes.append(labelled(loaded.name, f"{trait_name} {dice}"))
    elif trait is not None:
        raise UsageError(N_("--trait needs --sheet."))
    if dice is None:
        raise UsageError(N_("Missing --dice (or --sheet with --trait)."))
    if threshold is None:
        raise UsageError(N_("Missing --threshold."))
    if dice < 1:
        raise UsageError(N_("A test rolls at least 1 die, not {dice}."), dice=dice)
    policy: Policy = check_policy(explode)
    params = TestParams(
        dice=dice,
        threshold=threshold,
        blessed=blessed,
        cursed=cursed,
        explode=policy,
        sixes="all" if sixes == "all" else "batch",
    )
    for note in (_mode_note(blessed, cursed), _level_note(threshold)):
        if note:
            notes.append(note)
    if chosen_spell is not None and loaded is not None:
        loaded = spend_mana(loaded, chosen_spell)
        if spells().provisional:
            notes.append(_("Spells: table provisoire."))
        notes.append(
            _("Spell {spell}: {cost} Mana spent, {left} left.").format(
                spell=chosen_spell.name, cost=chosen_spell.cost, left=loaded.mana.current
            )
        )
    check = TunnelsTest()
    (source,) = dice_sources(seed, faces)
    changes: tuple[tuple[int, int, int, int], ...] = ()
    data: dict[str, Any]
    if chance:  # one procedure: the test, then its rerolls, replayable from the log
        from meneur.systems.tunnels.chance import ChanceParams, TunnelsChance

        procedure, spending = TunnelsChance(), ChanceParams(params, chance, chance_all)
        spent_on = procedure.roll(spending, [source]).outcome
        first, outcome = spent_on.first, spent_on.outcome
        spent, changes = spent_on.spent, spent_on.changes
        data = procedure.to_json(spending, spent_on)  # the roll before, each die rerolled
    else:
        outcome = check.roll(params, [source]).outcome
        first = outcome
        spent = 0
        data = check.to_json(params, outcome)
    if spent:
        rule = (
            _("Chance spent: {spent} (option of T-12: 1 Chance rerolls every failed die).")
            if chance_all
            else _("Chance spent: {spent} (house rule T-12: 1 Chance rerolls one die).")
        )
        notes_after = [rule.format(spent=spent)]
        for _b, _i, old, new in changes:
            notes_after.append(_("Rerolled a {old}: now {new}.").format(old=old, new=new))
    else:
        notes_after = []
    if loaded is not None and (spent or chosen_spell is not None):
        if spent:
            loaded = loaded.model_copy(
                update={
                    "chance": characters.Pool(
                        current=loaded.chance.current - spent, max=loaded.chance.max
                    )
                }
            )
        assert sheet is not None
        characters.save(sheet, loaded)
    if chosen_spell is not None and loaded is not None:
        data["spell"] = chosen_spell.name
        data["mana"] = loaded.mana.current
    lowest = LOWEST_SUCCESS[params.mode]

    def render(console: Console) -> None:
        if spent:
            _render_test(console, first, lowest, notes)
            for line in notes_after:
                console.print(f"[italic]{line}[/]")
            _render_test(console, outcome, lowest, [])
        else:
            _render_test(console, outcome, lowest, notes)

    emit(data, render, as_json=as_json)


def oppose_command(
    dice: Annotated[
        int,
        _dice_option("--dice", _("Dice of side a.")),
    ],
    vs: Annotated[
        int,
        _dice_option("--vs", _("Dice of side b (or its Monster Rating).")),
    ],
    blessed: Blessed = False,
    cursed: Cursed = False,
    vs_blessed: Annotated[
        bool, typer.Option("--vs-blessed", help=_("Side b's roll is blessed."))
    ] = False,
    vs_cursed: Annotated[
        bool, typer.Option("--vs-cursed", help=_("Side b's roll is cursed."))
    ] = False,
    explode: Explode = "needed",
    reroll_ties: Annotated[
        bool,
        typer.Option(
            "--reroll-ties", help=_("Option of T-9: a tie is rolled again until someone wins.")
        ),
    ] = False,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Roll an opposed Tunnels test."""
    from meneur.cli.output import emit
    from meneur.systems.tunnels.rules import (
        LOWEST_SUCCESS,
        MAX_TIES,
        OpposedParams,
        Side,
        TunnelsOppose,
        check_policy,
    )

    policy = check_policy(explode)
    params = OpposedParams(
        Side(dice, blessed=blessed, cursed=cursed, explode=policy),
        Side(vs, blessed=vs_blessed, cursed=vs_cursed, explode=policy),
    )
    check = TunnelsOppose()
    sources = _two_sources(seed, faces, vs_faces)
    if reroll_ties:
        from meneur.rng import HeldDice

        held = [HeldDice(source) for source in sources]
        ties = 0
        outcome = check.roll(params, held).outcome
        while outcome.winner is None and ties < MAX_TIES:  # the last tie is shown as one
            ties += 1
            outcome = check.roll(params, held).outcome
        for source in {id(s): s for s in sources}.values():
            source.finish()
    else:
        ties = 0
        outcome = check.roll(params, sources).outcome

    def render(console: Console) -> None:
        if ties:
            console.print(
                "[italic]" + _("Ties rolled again (option of T-9): {n}.").format(n=ties) + "[/]"
            )
        if outcome.winner is None and reroll_ties:  # large pools: three 1s on both sides
            console.print(
                "[italic]"
                + _("Still tied after {limit} exchanges: the last one is shown.").format(
                    limit=MAX_TIES + 1
                )
                + "[/]"
            )
        for label, side, test in (("a", params.a, outcome.a), ("b", params.b, outcome.b)):
            note = _mode_note(side.blessed, side.cursed)
            console.print(
                f"[bold]{label}[/] ({side.dice}d6)" + (f" [italic]{note}[/]" if note else "")
            )
            console.print(_batches_line(test, LOWEST_SUCCESS[side.mode]))
            line = _("Successes: {n}").format(n=f"[bold]{test.successes}[/]")
            if test.critical:
                line += "  " + _verdict(test)
            elif test.six_streak:
                line += "  " + _("three 6s")
            console.print(line)
        if outcome.winner is None:
            console.print("[bold]" + _("Tie: nobody wins this exchange.") + "[/]")
        else:
            console.print(
                "[bold green]"
                + _("{side} wins, Marge de Réussite {margin}.").format(
                    side=outcome.winner, margin=outcome.margin
                )
                + "[/]"
            )

    data = check.to_json(params, outcome)
    if reroll_ties:
        data["ties_rerolled"] = ties
    emit(data, render, as_json=as_json)


def _mode_words(blessed: bool, cursed: bool) -> str:
    """« béni », « maudit » after a side's dice (T-4: both cancel out), or nothing."""
    if blessed == cursed:
        return ""
    return " " + (_("blessed") if blessed else _("cursed"))


def odds_command(
    dice: Annotated[
        int,
        _dice_option("--dice", _("Dice rolled.")),
    ],
    threshold: Threshold = None,
    blessed: Blessed = False,
    cursed: Cursed = False,
    explode: Explode = "needed",
    sixes: Sixes = "batch",
    vs: Annotated[
        int | None,
        _dice_option(
            "--vs",
            _("Odds of an opposition against this many dice instead of a threshold."),
        ),
    ] = None,
    reroll_ties: Annotated[
        bool,
        typer.Option(
            "--reroll-ties", help=_("Option of T-9: a tie is rolled again until someone wins.")
        ),
    ] = False,
    vs_blessed: VsBlessed = False,
    vs_cursed: VsCursed = False,
    as_json: Json = False,
) -> None:
    """Exact odds of a Tunnels test (or opposition), explosions included."""
    from fractions import Fraction

    from meneur.cli.output import emit
    from meneur.systems.tunnels.odds import who_wins
    from meneur.systems.tunnels.rules import OpposedParams, Side, TestParams, check_policy

    policy = check_policy(explode)
    rule: SixesRule = "all" if sixes == "all" else "batch"
    if vs is None and (reroll_ties or vs_blessed or vs_cursed):  # a test has no other side
        raise UsageError(
            N_("--reroll-ties, --vs-blessed and --vs-cursed are an opposition's (T-9): give --vs.")
        )
    if vs is not None:
        if threshold is not None:  # it was ignored: who wins reads no threshold (T-9)
            raise UsageError(N_("An opposition has no threshold (T-9): leave out --threshold."))
        if sixes == "all":  # it was ignored: three 6s decide no opposition (T-7, T-9)
            raise UsageError(
                N_("Three 6s decide no opposition (T-7, T-9): leave out --sixes with --vs.")
            )
        oparams = OpposedParams(
            Side(dice, blessed=blessed, cursed=cursed, explode=policy),
            Side(vs, blessed=vs_blessed, cursed=vs_cursed, explode=policy),
            sixes=rule,
        )
        _prepare_sides(oparams)
        p_a, p_b, p_tie = who_wins(oparams)
        if reroll_ties:  # option of T-9: a tie is rolled again, so only the decisive ones count
            p_a, p_b, p_tie = p_a / (1 - p_tie), p_b / (1 - p_tie), Fraction(0)
        sides: Chances = {"p_a": p_a, "p_b": p_b, "p_tie": p_tie}
        data = {"system": "tunnels", **floats_of(sides), "exact": fractions_of(sides)}

        def render_vs(console: Console) -> None:
            from rich.table import Table

            from meneur.locale.numbers import exact, percent

            table = Table(
                title=_("Opposition {a}d6{a_mode} vs {b}d6{b_mode} (explode: {policy})").format(
                    a=dice,
                    a_mode=_mode_words(blessed, cursed),
                    b=vs,
                    b_mode=_mode_words(vs_blessed, vs_cursed),
                    policy=policy,
                )
            )
            table.add_column(_("Result"))
            table.add_column("%", justify="right")
            table.add_column(_("Exact"), justify="right")
            for label, p in ((_("a wins"), p_a), (_("b wins"), p_b), (_("Tie"), p_tie)):
                table.add_row(label, percent(p, symbol=False), exact(p))
            console.print(table)

        emit(data, render_vs, as_json=as_json)
        return
    if threshold is None:
        raise UsageError(N_("Missing --threshold."))
    params = TestParams(
        dice=dice, threshold=threshold, blessed=blessed, cursed=cursed, explode=policy, sixes=rule
    )
    law3 = _whole_law(params)
    p_success = law3.p_where(lambda k: k[0] >= threshold and not k[2])
    p_exceptional = law3.p_where(lambda k: k[1])
    p_critical = law3.p_where(lambda k: k[2])
    successes: dict[int, Fraction] = {}
    for (count, _exc, _crit), p in law3.probabilities().items():
        successes[count] = successes.get(count, Fraction(0)) + p
    ordered = dict(sorted(successes.items()))
    chances: Chances = {
        "p_success": p_success,
        "p_exceptional": p_exceptional,
        "p_critical": p_critical,
        "successes": {str(k): v for k, v in ordered.items()},
    }
    data = {"system": "tunnels", **floats_of(chances), "exact": fractions_of(chances)}

    def render(console: Console) -> None:
        from rich.table import Table

        from meneur.locale.numbers import exact, percent

        for note in (_mode_note(blessed, cursed), _level_note(threshold)):
            if note:
                console.print(f"[italic]{note}[/]")
        title = _("{dice}d6, threshold {threshold}, explode: {policy}").format(
            dice=dice, threshold=threshold, policy=policy
        )
        summary = Table(title=title)
        summary.add_column(_("Result"))
        summary.add_column("%", justify="right")
        summary.add_column(_("Exact"), justify="right")
        for label, p in (
            (_("A success"), p_success),
            (_("An exceptional success"), p_exceptional),
            (_("A critical failure"), p_critical),
        ):
            summary.add_row(label, percent(p, symbol=False), exact(p))
        console.print(summary)
        table = Table(title=_("Successes"))
        table.add_column(_("Successes"), justify="right")
        table.add_column("%", justify="right")
        table.add_column(_("Exact"), justify="right")
        shown, rare = _visible(ordered)
        for count, p in shown.items():
            style = "green" if count >= threshold else ""
            table.add_row(
                f"[{style}]{count}[/]" if style else str(count),
                percent(p, symbol=False),
                exact(p),
            )
        if rare:
            together = sum(rare.values(), Fraction(0))
            table.add_row(
                ngettext("{n} other count", "{n} other counts", len(rare)).format(n=len(rare)),
                percent(together, symbol=False),
                exact(together),
                style="dim",
            )
        console.print(table)

    emit(data, render, as_json=as_json)


def _prepare_sides(params: OpposedParams) -> None:
    """Build what an opposition's sides bring before reading who wins, with a bar on
    standard error when it will take a while (60 dice a side: several seconds)."""
    from meneur.lab.progress import LazyBar
    from meneur.systems.tunnels.odds import opposition_work, prepare_opposition

    bar = LazyBar(opposition_work(params), _("Exact odds"))
    try:
        prepare_opposition(params, bar.advance)
    finally:
        bar.stop()


def _whole_law(params: TestParams) -> Dist[tuple[int, bool, bool]]:
    """The test's whole law, with a bar on standard error when it will take a while."""
    from meneur.lab.progress import LazyBar
    from meneur.systems.tunnels.odds import reported_test_odds, whole_law_work

    bar = LazyBar(whole_law_work(params), _("Exact odds"))
    try:
        return reported_test_odds(params, bar.advance)
    finally:
        bar.stop()


def _visible(law: dict[int, Fraction]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """The counts worth a row (at least 0.005 %: a row never reads « < 0,01 ») and the
    others, shown as one row: 60 exploding dice can reach 1,830 successes, and the table
    would otherwise run to as many lines. ``--json`` keeps every count."""
    shown: dict[int, Fraction] = {}
    rare: dict[int, Fraction] = {}
    for count, p in law.items():
        (shown if p * VISIBLE >= 1 else rare)[count] = p
    return shown, rare


def fight_command(
    dice: Annotated[
        int | None,
        _dice_option("--dice", _("The character's Force (dice).")),
    ] = None,
    endurance: Annotated[
        int | None,
        _number_option("--endurance", endurance, _("The character's Endurance.")),
    ] = None,
    sheet: Annotated[
        Path | None,
        _text_option("--sheet", "FILE", _("The character's sheet (JSON).")),
    ] = None,
    vs_mr: Annotated[
        int | None,
        _dice_option("--vs-mr", _("The monster's Monster Rating.")),
    ] = None,
    vs_dice: Annotated[
        int | None,
        _dice_option("--vs-dice", _("Another character's Force.")),
    ] = None,
    vs_endurance: Annotated[
        int | None,
        _number_option("--vs-endurance", endurance, _("Another character's Endurance.")),
    ] = None,
    vs_sheet: Annotated[
        Path | None,
        _text_option("--vs-sheet", "FILE", _("Another character's sheet.")),
    ] = None,
    stored: CharacterArg = None,
    vs_stored: VsCharacterArg = None,
    explode: Explode = "needed",
    vs_explode: VsExplode = None,
    blessed: Blessed = False,
    cursed: Cursed = False,
    vs_blessed: VsBlessed = False,
    vs_cursed: VsCursed = False,
    sixes: Sixes = "batch",
    loss: FightLoss = "margin",
    tie: Tie = "none",
    odds: Annotated[
        bool,
        typer.Option(
            "--odds", help=_("Print the exact odds of winning against the MR instead of fighting.")
        ),
    ] = False,
    weapon: Annotated[
        str | None,
        _text_option("--weapon", "NAME", _("The character's weapon (table provisoire).")),
    ] = None,
    armour: Annotated[
        str | None,
        _text_option("--armour", "NAME", _("The character's armour (table provisoire).")),
    ] = None,
    vs_weapon: Annotated[
        str | None, _text_option("--vs-weapon", "NAME", _("The opponent's weapon."))
    ] = None,
    vs_armour: Annotated[
        str | None, _text_option("--vs-armour", "NAME", _("The opponent's armour."))
    ] = None,
    save: Annotated[
        bool,
        typer.Option(
            "--save",
            help=_("Write Endurance, wounds and death back to the sheets after the fight."),
        ),
    ] = False,
    faces: FacesArg = None,
    vs_faces: VsFacesArg = None,
    seed: Seed = None,
    as_json: Json = False,
) -> None:
    """Melee to the end against a monster's MR or another character."""
    from meneur.cli.output import emit
    from meneur.systems.tunnels import character as characters
    from meneur.systems.tunnels.combat import (
        Fighter,
        FightParams,
        character,
        fight,
        fight_json,
        monster,
    )
    from meneur.systems.tunnels.rules import check_policy

    sheet = sheet_or_character(sheet, stored, "tunnels")
    vs_sheet = sheet_or_character(vs_sheet, vs_stored, "tunnels", "--vs-sheet/--vs-character")
    save = save or stored is not None or vs_stored is not None  # stored: always kept
    if save:
        refuse_own_sheet(sheet, vs_sheet)

    def side(
        dice_: int | None, endurance_: int | None, sheet_: Path | None, default: str, flag: str
    ) -> Fighter | None:
        if sheet_ is not None:
            if dice_ is not None or endurance_ is not None:
                raise UsageError(
                    N_("Give either a sheet or dice and Endurance for {flag}, not both."), flag=flag
                )
            loaded = characters.load(sheet_)
            if loaded.dead:
                raise UsageError(N_("{name} is dead."), name=loaded.name)
            if loaded.endurance.current < 1:
                raise UsageError(N_("{name} has no Endurance left."), name=loaded.name)
            return Fighter(
                loaded.name,
                loaded.characteristics["Force"],
                loaded.endurance.current,
                loaded.endurance.max,  # never below current (the sheet's cap, T-11)
                wounded=loaded.wounded,
            )
        if dice_ is None and endurance_ is None:
            return None
        if dice_ is None or endurance_ is None:
            raise UsageError(N_("A character needs both dice and Endurance ({flag})."), flag=flag)
        return character(default, dice_, endurance_)

    a = side(dice, endurance, sheet, _("Hero"), "--dice/--endurance")
    if a is None:
        raise UsageError(N_("Missing the character: --dice and --endurance, or --sheet."))
    b = side(vs_dice, vs_endurance, vs_sheet, _("Opponent"), "--vs-dice/--vs-endurance")
    if vs_mr is not None:
        if b is not None:
            raise UsageError(N_("Give either --vs-mr or another character, not both."))
        b = monster(_("Monster"), vs_mr)
    if b is None:
        raise UsageError(
            N_("Missing the opponent: --vs-mr, --vs-dice with --vs-endurance, or --vs-sheet.")
        )
    from dataclasses import replace

    from meneur.systems.tunnels.data import find_armour, find_weapon, gear

    gear_note = (
        _("Weapons and armour: table provisoire.")
        if (weapon or armour or vs_weapon or vs_armour) and gear().provisional
        else None
    )

    def geared(fighter: Fighter, weapon_: str | None, armour_: str | None) -> Fighter:
        return replace(
            fighter,
            damage=find_weapon(weapon_).damage if weapon_ else 0,
            absorb=find_armour(armour_).absorb if armour_ else 0,
        )

    a = geared(a, weapon, armour)
    b = geared(b, vs_weapon, vs_armour)
    params = FightParams(
        a,
        b,
        explode=check_policy(explode),
        vs_explode=check_policy(vs_explode or explode),
        blessed=blessed,
        cursed=cursed,
        vs_blessed=vs_blessed,
        vs_cursed=vs_cursed,
        sixes="all" if sixes == "all" else "batch",
        loss="one" if loss == "one" else "margin",
        tie="reroll" if tie == "reroll" else "none",
    )
    if odds:
        _fight_odds(params, as_json=as_json, note=gear_note)
        return
    result = fight(params, _two_sources(seed, faces, vs_faces))
    if save:
        if sheet is None and vs_sheet is None:
            raise UsageError(N_("--save needs --sheet or --vs-sheet."))
        for path, after in ((sheet, result.a), (vs_sheet, result.b)):
            if path is not None:
                before = characters.load(path)
                endurance_pool = characters.Pool(current=after.endurance, max=before.endurance.max)
                update = {"endurance": endurance_pool, "wounded": after.wounded, "dead": after.dead}
                characters.save(path, before.model_copy(update=update))

    def state(f: Fighter) -> str:
        if f.monster:
            return _("{name}: MR {mr}").format(name=f.name, mr=f.dice)
        words = _("{name}: Endurance {e}").format(name=f.name, e=f.endurance)
        if f.dead:
            words += " [bold red]" + _("dead") + "[/]"
        elif f.wounded:
            words += " [yellow]" + _("wounded") + "[/]"
        return words

    def render(console: Console) -> None:
        if gear_note:
            console.print(f"[italic]{gear_note}[/]")
        console.print(f"[bold]{state(a)}[/]  vs  [bold]{state(b)}[/]")
        for r in result.rounds:
            console.rule(_("Round {n}").format(n=r.number))
            for name, count, test in (
                (a.name, r.a_dice, r.outcome.a),
                (b.name, r.b_dice, r.outcome.b),
            ):
                dice_text = _batches_line(test, 4).replace("\n", "  ")
                mark = "  " + _verdict(test) if test.critical else ""
                side = _("{name} ({count}d6): {dice}")
                side = side.format(name=name, count=count, dice=dice_text)
                console.print(f"{side} → [bold]{test.successes}[/]{mark}")
            if r.rerolled:
                console.print(_("Tie: the exchange is rolled again."))
            elif r.outcome.winner is None:
                console.print(_("Tie: nobody loses anything."))
            else:
                loser = b.name if r.outcome.winner == "a" else a.name
                console.print(
                    _("Margin {margin}: {loser} loses {lost}.").format(
                        margin=r.outcome.margin, loser=loser, lost=r.lost
                    )
                )
            console.print(f"{state(r.a)}  |  {state(r.b)}")
        if not result.finished:
            stopped = _("Stopped after {n} rounds: both sides still stand.")
            console.print("[bold]" + stopped.format(n=result.counted) + "[/]")
        elif result.winner is None:
            console.print("[bold]" + _("Nobody wins.") + "[/]")
        else:
            winner = result.a if result.winner == "a" else result.b
            console.print(
                "[bold green]" + _("{name} wins the fight.").format(name=winner.name) + "[/]"
            )

    emit(fight_json(result), render, as_json=as_json)


def _fight_odds(params: FightParams, *, as_json: bool, note: str | None = None) -> None:
    from meneur.cli.output import emit
    from meneur.lab.progress import LazyBar
    from meneur.systems.tunnels.combat_odds import fight_steps, p_win_against_monster

    a, b = params.a, params.b
    if not b.monster:
        raise UsageError(N_("Exact fight odds are computed against a Monster Rating (--vs-mr)."))
    steps = fight_steps(a.endurance, b.dice, wounded=a.wounded, max_endurance=a.max_endurance)
    bar = LazyBar(steps, _("Exact fight odds"))
    try:
        p = p_win_against_monster(
            a.dice,
            a.endurance,
            b.dice,
            wounded=a.wounded,
            max_endurance=a.max_endurance,
            explode=params.explode,
            loss=params.loss,
            damage=a.damage,
            absorb=a.absorb,
            vs_damage=b.damage,
            vs_absorb=b.absorb,
            blessed=params.blessed,
            cursed=params.cursed,
            vs_explode=params.vs_explode,
            vs_blessed=params.vs_blessed,
            vs_cursed=params.vs_cursed,
            progress=bar.advance,
        )
    finally:
        bar.stop()
    chances = {"p_win": p, "p_lose": 1 - p}
    data = {"system": "tunnels", **floats_of(chances), "exact": fractions_of(chances)}
    from meneur.locale.numbers import EXACT_WIDTH, percent

    shown = percent(p)
    text = fraction_text(p)
    fraction = f" ({text})" if len(text) <= EXACT_WIDTH else ""

    def render(console: Console) -> None:
        if note:
            console.print(f"[italic]{note}[/]")
        line = _("{name} ({force}d6, Endurance {e}) against MR {mr}: wins with {percent}.")
        console.print(
            line.format(
                name=a.name, force=a.dice, e=a.endurance, mr=b.dice, percent=f"[bold]{shown}[/]"
            )
            + fraction
        )

    emit(data, render, as_json=as_json)


def character_new_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help=_("The character's name."))],
    seed: Seed = None,
    faces: FacesArg = None,
    out: Annotated[
        Path | None,
        _text_option("--out", "FILE.json", _("Save the sheet to this JSON file.")),
    ] = None,
    force: ForceOpt = False,
    as_json: Json = False,
) -> None:
    """Create a random Tunnels character (T-1) with its derived statistics (T-2), stored in
    the current campaign (and written to --out FILE too if given)."""
    from meneur.cli.newcharacter import check_out, creating, store_new, stored_line
    from meneur.cli.output import emit
    from meneur.cli.params import dice_sources
    from meneur.systems.tunnels import character as characters
    from meneur.systems.tunnels.data import derived

    check_out(out, force)
    creating()  # the creation rolls are logged, even on a first start
    (source,) = dice_sources(seed, faces)
    sheet = characters.create(characters.check_name(name), source)
    campaign = store_new("tunnels", sheet.name, sheet.model_dump())
    if out is not None:
        characters.save(out, sheet)
    house = derived().house_rule

    def render(console: Console) -> None:
        from rich.table import Table

        table = Table(title=f"{sheet.name} (Tunnels)")
        table.add_column(_("Characteristic"))
        table.add_column(_("Value"), justify="right")
        for trait, value in sheet.characteristics.items():
            table.add_row(trait, str(value))
        table.add_section()
        for label, pool in (
            ("Endurance", sheet.endurance),
            ("Mana", sheet.mana),
            ("Chance", sheet.chance),
        ):
            table.add_row(f"[bold]{label}[/]", str(pool.max))
        console.print(table)
        if house:
            console.print(
                "[italic]"
                + _("Derived statistics: house rule (the text gives no formula).")
                + "[/]"
            )
        console.print(stored_line(sheet.name, campaign), markup=False)
        if out is not None:
            console.print(_("Saved to {path}.").format(path=out))

    emit(sheet.model_dump(), render, as_json=as_json)


def register(groups: CommandGroups) -> None:
    groups.group("test").command(
        "tunnels", help=_("Roll a Tunnels test (1d6 per point, 4-6 succeed).")
    )(test_command)
    groups.group("oppose").command(
        "tunnels", help=_("Roll an opposed Tunnels test (or against an MR).")
    )(oppose_command)
    groups.group("odds").command(
        "tunnels", help=_("Exact odds of a Tunnels test, explosions included.")
    )(odds_command)
    groups.group("fight").command(
        "tunnels", help=_("Melee to the end against an MR or another character.")
    )(fight_command)
    groups.group("character", "new").command(
        "tunnels", help=_("Create a random Tunnels character.")
    )(character_new_command)
