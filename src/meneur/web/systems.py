"""What the web table asks of a system: the hooks of :class:`WebAdapter`, and who has one.

The web layer rolls through :meth:`meneur.systems.base.Check.roll`; an adapter only
translates between a sheet plus a form and the check's params, and between the check's
public JSON and words for the log. Each system writes its own adapter in its package
(``systems/<name>/web/``), overriding only what it offers, as a chess variant overrides
only the moves that differ; the list of adapters is given to the app when it starts
(:func:`install`, from :mod:`meneur.systems.at_table`), so nothing here names a system.
A system without an adapter is shown but cannot be rolled from here; a hook a system
does not override refuses with a clear message, never plays another system's rule.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, get_args, get_origin

from pydantic import BaseModel

from meneur.errors import RuleError, SheetError, UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.model_errors import first_problem
from meneur.pairs import once_each, parse_pair
from meneur.systems.base import Check, System
from meneur.whole import parse_whole

if TYPE_CHECKING:
    from meneur.campaign.store import Store
    from meneur.web.tables import Seat

MAX_OPTION = 200
"""The largest bonus or level typed in a creation form's ``Name=value`` list."""


@dataclass(frozen=True, slots=True)
class Trait:
    """A line of the sheet one can roll: its name and what it gives (dice or bonus)."""

    name: str
    label: str
    value: int
    shown: str


@dataclass(frozen=True, slots=True)
class RollOptions:
    """The options of a roll as the form gave them (validated by the system's params).

    One bag for every system's form: each adapter reads the fields it lists in
    :attr:`WebAdapter.option_fields` and its params type refuses what its rules refuse.
    """

    threshold: int = 2
    difficulty: int = 1
    modifier: int = 0
    blessed: bool = False
    cursed: bool = False
    explode: str = "needed"
    level: str = "elite"
    motivation: bool = False
    push: int = 0
    """Extra dice bought before the roll: their tier."""
    spend: int = 0
    """Points spent before the roll for dice."""
    help: str = "none"
    """The effect of the help received for this roll."""
    given: frozenset[str] = frozenset()
    """The fields the roller gave; the others take the system's defaults
    (:meth:`WebAdapter.chosen`)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One die as shown in the log: its face and whether it is a success (or a fumble)."""

    face: int
    css: str


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool | None
    words: str
    detail: str


@dataclass(frozen=True)
class NewCombatant:
    """What the tracker needs of a new combatant (see :meth:`WebAdapter.combatant`)."""

    initiative: int
    health: int
    dice: int = 0
    system: str = ""
    agility: int = 0
    most: int | None = None
    wounded: bool = False


@dataclass(frozen=True, slots=True)
class CreationField:
    """A number the creation form asks for, with the bounds its system accepts: the
    form's ``min`` and ``max`` (a characteristic up to the dice a test takes, a trait up
    to its level bound), where the template gave every system 0 to 30."""

    name: str
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class EditField:
    """A value of a sheet that changes in play, as the table's edit form shows it.

    ``path`` is where it sits in the sheet (``("ressources", "vie", "current")``); a
    field with ``choices`` is picked from them, one with ``text`` is free text, any
    other is a whole number. The system's own sheet model judges the new value.
    """

    path: tuple[str, ...]
    label: str
    value: str
    choices: tuple[tuple[str, str], ...] = ()
    text: bool = False
    flag: bool = False
    """A yes/no value (``value`` is ``true`` or ``false``)."""
    low: int | None = None
    high: int | None = None
    """A whole number's bounds, as the sheet model declares them (:func:`declared_bounds`):
    the form's ``min`` and ``max``, so that the browser refuses a value past them before
    posting (the model still judges every value)."""

    @property
    def key(self) -> str:
        """The form field's name."""
        return "/".join(self.path)

    @property
    def shown(self) -> str:
        """The value as a reader says it (« oui », a choice's label), for the log."""
        if self.flag:
            return _("yes") if self.value == "true" else _("no")
        return dict(self.choices).get(self.value, self.value)


SHOWN = "shown:"
"""``shown:<key>``: the value the edit form showed for a field (a hidden input). A field
typed as it was shown is not written, so an edit does not put back a value another seat
changed since the page was drawn (a Vécu spent, Endurance lost); one the user did change
from a value that changed meanwhile is refused rather than written over it."""


def _same(typed: str, value: str) -> bool:
    """Whether a typed value is the one given (spaces around it and line ends aside)."""
    return typed.replace("\r\n", "\n").strip() == value.replace("\r\n", "\n").strip()


MAX_EDIT = 100_000
"""The largest number (either sign) typed in a sheet's edit form."""
MAX_EDIT_TEXT = 2000
"""The longest text typed in a sheet's edit form."""


def read_edit(field: EditField, typed: str) -> Any:
    """The value typed for ``field``, as the sheet stores it (refused in one clear line)."""
    if field.flag:
        if typed not in ("true", "false"):
            raise RuleError(
                N_("'{value}' is not a choice for {name}."), value=typed, name=field.label
            )
        return typed == "true"
    if field.text:
        return typed.replace("\r\n", "\n")[:MAX_EDIT_TEXT]
    if field.choices:
        if typed not in {value for value, _label in field.choices}:
            raise RuleError(
                N_("'{value}' is not a choice for {name}."), value=typed, name=field.label
            )
        return typed
    return int_field({field.label: typed}, field.label, 0, -MAX_EDIT, MAX_EDIT)


Bounds = tuple[int | None, int | None]
"""The lowest and highest whole number a value may take (``None``: no bound declared)."""


def declared_bounds(model: type[BaseModel], name: str) -> Bounds:
    """The bounds ``model`` declares on its field ``name`` (``Field(ge=..., le=...)``,
    also inside ``Annotated[...] | None``): read from the model, never copied."""
    info = model.model_fields[name]
    found: list[Any] = list(info.metadata)
    for arg in get_args(info.annotation):  # X | None: the constraints sit on X
        if get_origin(arg) is Annotated:
            for extra in get_args(arg)[1:]:
                found.extend(getattr(extra, "metadata", [extra]))
    low: int | None = None
    high: int | None = None
    for item in found:  # annotated_types' Ge, Gt, Le, Lt
        for bound, shift in (("ge", 0), ("gt", 1), ("le", 0), ("lt", -1)):
            value: Any = getattr(item, bound, None)
            if isinstance(value, int) and not isinstance(value, bool):
                if bound[0] == "g":
                    low = value + shift
                else:
                    high = value + shift
    return low, high


def number_field(path: tuple[str, ...], label: str, value: Any, bounds: Bounds) -> EditField:
    """A whole number of a sheet, within the ``bounds`` its sheet model declares."""
    return EditField(path, label, str(value), low=bounds[0], high=bounds[1])


def flag_field(path: tuple[str, ...], label: str, value: Any) -> EditField:
    """A yes/no field of a sheet."""
    return EditField(path, label, "true" if value else "false", flag=True)


def refused(error: Any, system: System) -> SheetError:
    """A sheet model's refusal (a pydantic ``ValidationError``) in one clear line, the
    value named by ``system``'s label (its path where it has none)."""
    problem = first_problem(error)
    return SheetError(
        N_("The sheet refuses this value: {field}: {reason}."),
        field=system.field_name(problem.where),
        reason=problem.reason,
    )


def put(sheet: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    """Set ``value`` at ``path`` in a sheet (its tables exist: the field was read there)."""
    table = sheet
    for part in path[:-1]:
        table = table[part]
    table[path[-1]] = value


class Waiting(Protocol):
    """A roll that waits for its roller's choice between two requests (one per seat).

    A system offers it through :meth:`WebAdapter.waits`; the table finds the one a roll
    form asks for (:meth:`asks`), starts it, shows :meth:`view` with the system's
    template part and passes the roller's choice to :meth:`choose`.
    """

    name: str
    """Its address: the roller's choice is posted to ``…/roll/<name>``."""
    kind: str
    """Its rows' kind in ``web_waits`` (a seat has one waiting roll of each kind at most)."""
    template: str
    """The template part that shows it (``<system>/<file>``)."""
    keep: Mapping[str, str]
    """The roll form's options to keep selected once the roll is done."""

    def asks(self, form: Any) -> bool:
        """Whether this roll form asks for this kind of waiting roll."""

    def blind(self, form: Any) -> Any:
        """The form a blind roller may send: one whose choices never wait for hidden dice
        (changed, or refused with a :class:`~meneur.errors.RuleError`)."""

    def start(
        self,
        roller: Any,
        seat: Seat,
        character: str,
        trait: str,
        options: RollOptions,
        mode: str,
        faces: str,
    ) -> dict[str, Any] | None:
        """Roll; ``None`` while it waits for a choice, else the log entry."""

    def choose(self, roller: Any, seat: Seat, choice: Mapping[str, str]) -> dict[str, Any] | None:
        """The roller's choice (the form's fields); ``None`` if it waits again."""

    def view(self, seat: Seat) -> dict[str, Any] | None:
        """What the seat's waiting roll shows, or ``None`` when none waits."""

    def close(self, roller: Any, seat: Seat) -> dict[str, Any] | None:
        """Log the seat's waiting roll as it stands (the seat rolls again): its entry,
        or ``None`` when none waits."""


class TableAction(Protocol):
    """A roll of a system between several of the table's characters (a cooperation, a
    help) or a step of its play (a new scene), offered beside the sheets.

    A system offers it through :meth:`WebAdapter.table_actions`; the table shows
    :meth:`view` with the system's template part, asks :meth:`odds` as the form changes
    (``…/action/<system>/<name>/odds``) and posts the form to ``…/action/<system>/<name>``,
    which :meth:`act` rolls and logs. ``fields`` are the form's fields, by name.
    """

    name: str
    """Its address, under its system's name."""
    template: str
    """The template part that shows its form (``<system>/<file>``)."""

    def view(
        self, seat: Seat, characters: Sequence[Any], fields: Mapping[str, str]
    ) -> dict[str, Any] | None:
        """What its form shows ``seat`` (``characters``: the campaign's, as stored;
        ``fields``: the page's query, the form as last typed), or ``None``: not offered."""

    def odds(
        self, roller: Any, seat: Seat, fields: Mapping[str, str]
    ) -> list[tuple[str, Fraction]]:
        """The exact chance of each result the form's choices can give, before the roll
        (worker thread; refused in one clear line as :meth:`act` would be)."""

    def act(self, roller: Any, seat: Seat, fields: Mapping[str, str]) -> dict[str, Any]:
        """Roll and log (worker thread): the log entry as stored."""


def chance_where(dist: Any, passed: Callable[[Hashable], bool]) -> Fraction:
    """The exact chance of the outcomes ``passed`` accepts in a check's distribution."""
    chance: Fraction = dist.p_where(passed)
    return chance


class WebAdapter:
    """The web part of one system: its main test at the table, its sheets, its tracker.

    A subclass sets :attr:`definition` (its :class:`~meneur.systems.base.System`) and
    overrides the hooks its rules give; the defaults show nothing more and refuse what
    the system does not offer.
    """

    definition: System
    option_fields: tuple[str, ...] = ()
    """The roll form's fields this system reads (see :class:`RollOptions`)."""
    templates: Path | None = None
    """A folder of the system's own template parts, found as ``<system>/<file>``:
    ``create.html`` (the creation form's fields), ``tracker_add.html`` and
    ``tracker_exchange.html`` (the combat tracker's fields), one per waiting roll and one
    per table action (:meth:`table_actions`)."""

    preload: tuple[str, ...] = ()
    """The modules this system's exact odds import, loaded once by the odds worker's
    fork server: each worker then answers its first question within its budget, even
    on a busy machine (a luck verdict has half a second)."""

    health: str = N_("Health")
    """What the tracker's health column holds for this system's characters."""
    shows_health: bool = True
    """Whether the tracker shows a health for this system's characters."""

    def __repr__(self) -> str:  # the odds worker's cache keys read it: stable, short
        return f"<web adapter {self.system}>"

    @property
    def system(self) -> str:
        return self.definition.name

    @property
    def title(self) -> str:
        return self.definition.title

    @property
    def check(self) -> Check[Any, Any]:
        return self.definition.checks()["test"]

    def option_defaults(self) -> Mapping[str, Any]:
        """The roll options this system sets when the roller gives none (its text's)."""
        return {}

    def chosen(self, options: RollOptions) -> RollOptions:
        """``options`` with this system's defaults where the roller gave no value."""
        missing = {k: v for k, v in self.option_defaults().items() if k not in options.given}
        return replace(options, **missing) if missing else options

    def choices(self) -> Mapping[str, list[tuple[Any, str]]]:
        """Named values the roll form offers for an option (value, label)."""
        return {}

    def traits(self, sheet: Mapping[str, Any]) -> list[Trait]:
        raise NotImplementedError

    def params(self, sheet: Mapping[str, Any], trait: str, options: RollOptions) -> Any:
        raise NotImplementedError

    def success(self, params: Any) -> Fraction:
        raise NotImplementedError

    def verdict(self, result: Mapping[str, Any]) -> Verdict:
        raise NotImplementedError

    def marks_json(self, params: Mapping[str, Any], faces: list[list[int]]) -> list[list[Mark]]:
        """The dice of a logged roll, successes marked (``params`` as logged)."""
        return [[Mark(face, "") for face in stream] for stream in faces]

    def stats(self, sheet: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What the table shows of a character besides its traits (Endurance, Vie...)."""
        return []

    def paid(self, sheet: Mapping[str, Any], params: Any) -> dict[str, Any] | None:
        """The sheet after paying what the roll costs before it is rolled, or ``None``."""
        return None

    def settled(self, sheet: Mapping[str, Any], params: Any, outcome: Any) -> dict[str, Any] | None:
        """The sheet after what the roll's result itself gives or costs (``sheet`` as paid
        before the roll), or ``None`` when the result changes nothing on it."""
        return None

    @property
    def result_shows_on_sheet(self) -> bool:
        """Whether a roll's result may change its sheet (:meth:`settled` is the system's
        own): the card then tells the result to whoever reads it, and a roll more secret
        than the card is refused (:meth:`meneur.web.rolls.Roller.secret_enough`)."""
        return type(self).settled is not WebAdapter.settled

    def after_roll(
        self, sheet: Mapping[str, Any], paid: dict[str, Any] | None, params: Any, outcome: Any
    ) -> dict[str, Any] | None:
        """The sheet a roll writes: ``paid`` (:meth:`paid`, before the roll), then what its
        result gives (:meth:`settled`); ``None`` when neither changes ``sheet``."""
        settled = self.settled(paid if paid is not None else sheet, params, outcome)
        return settled if settled is not None else paid

    def push_chances(
        self, sheet: Mapping[str, Any], trait: str, options: RollOptions
    ) -> list[tuple[int, int, int, Fraction]]:
        """Each amount bought before the roll: (tier, dice, cost, exact chance)."""
        return []

    def creation_fields(self) -> list[CreationField]:
        """The numbers the creation form asks for, one field each (besides the template's)."""
        return []

    def new_sheet(self, name: str, fields: Mapping[str, str]) -> dict[str, Any]:
        raise NotImplementedError

    def edit_fields(self, sheet: Mapping[str, Any]) -> list[EditField]:
        """The values of the sheet that change in play, editable at the table."""
        return []

    def edited(self, sheet: Mapping[str, Any], values: Mapping[str, str]) -> dict[str, Any]:
        """The sheet with the values typed in its edit form (fields left out keep theirs),
        judged by the system's own sheet model (:meth:`valid_sheet`)."""
        fields = self.edit_fields(sheet)
        if not fields:
            raise RuleError(N_("{system} sheets cannot be edited at the table."), system=self.title)
        new = copy.deepcopy(dict(sheet))
        for field in fields:
            typed = values.get(field.key)
            if typed is None or _same(typed, field.value):
                continue
            shown = values.get(SHOWN + field.key)
            if shown is not None and _same(typed, shown):
                continue  # left as the form showed it: not this edit's to write back
            if shown is not None and not _same(shown, field.value):
                raise RuleError(
                    N_(
                        "{field} changed meanwhile ({shown} → {now}): look at the sheet "
                        "again before you change it."
                    ),
                    field=field.label,
                    shown=shown.strip(),
                    now=field.shown,
                )
            put(new, field.path, read_edit(field, typed if field.text else typed.strip()))
        return self.valid_sheet(new)

    def valid_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """``sheet`` once the system's sheet model accepts it (the CLI's own model)."""
        raise NotImplementedError

    initiative_rule: str = ""
    """The rule that orders a fight, as the tracker names it (empty: the system's text
    gives no initiative, and the order stays as typed)."""

    def initiative(self, sheet: Mapping[str, Any]) -> tuple[int, int] | None:
        """A character's initiative by its system's rule (:attr:`initiative_rule`) and
        what breaks its ties; ``None`` when the system's text gives none."""
        return None

    def waits(self, store: Store) -> tuple[Waiting, ...]:
        """The rolls of this system that wait for their roller's choice (kept in
        ``store``, so that every process sees them)."""
        return ()

    def table_actions(self) -> tuple[TableAction, ...]:
        """The rolls of this system between several of the table's characters, and the
        steps of its play the table offers beside the sheets (none by default)."""
        return ()

    def levels(self) -> Mapping[str, str]:
        """Levels the tracker may show instead of health (an opposition without a sheet)."""
        return {}

    def combatant(
        self, sheet: Mapping[str, Any], order: int | None, value: int | None
    ) -> NewCombatant:
        """A character joining the tracker: what its sheet brings unless typed (``None``)."""
        return NewCombatant(order or 0, 10 if value is None else value, system=self.system)

    def exchange(
        self,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """One exchange of blows at the tracker, played by the system's own rules.

        ``fields``: the tracker form's values (each system validates its own). A system
        whose text gives no exchange refuses it (the GM adjusts the tracker by hand): it
        is never played as another system's.
        """
        raise RuleError(
            N_("{system} has no exchange of blows in its text: adjust the tracker by hand."),
            system=self.title,
        )

    def tracker_action(
        self,
        action: str,
        roller: Any,
        seat: Any,
        combat: dict[str, Any],
        first: int,
        second: int,
        fields: Mapping[str, Any],
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Another roll between two combatants that the system's text gives (a shot...)."""
        raise UsageError(
            N_("{system} offers no '{action}' at the tracker."),
            system=self.title,
            action=action,
        )

    def describe(self, entry: Mapping[str, Any]) -> tuple[str, Verdict] | None:
        """A logged tracker roll (an exchange, a shot) as a title and words, or ``None``."""
        return None

    def find_trait(self, sheet: Mapping[str, Any], name: str) -> Trait:
        for trait in self.traits(sheet):
            if trait.name == name:
                return trait
        raise RuleError(N_("Unknown trait '{name}' on this sheet."), name=name)


_INSTALLED: dict[str, WebAdapter] = {}


def install(adapters: Iterable[WebAdapter]) -> None:
    """Give the table its systems' adapters (the app does, when it is created)."""
    for adapter in adapters:
        _INSTALLED[adapter.system] = adapter


def adapters() -> Mapping[str, WebAdapter]:
    """Every installed adapter, by system name (in the registry's order)."""
    return _INSTALLED


def adapter_for(system: str) -> WebAdapter:
    adapter = _INSTALLED.get(system)
    if adapter is None:
        raise RuleError(N_("The web table cannot roll for the system '{name}' yet."), name=system)
    return adapter


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def int_field(fields: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """A whole number typed in a form's field (``default`` when empty), within bounds."""
    text = (fields.get(name) or "").strip()
    if not text:
        return default
    try:
        value = parse_whole(text)  # meneur's one rule for a typed number, as on the command line
    except UsageError as error:
        raise RuleError(error.message, **error.params) from None
    return within(name, value, low, high)


def within(name: str, value: int, low: int, high: int) -> int:
    """``value`` if it is from ``low`` to ``high``, else a refusal that names its field."""
    if not low <= value <= high:
        raise RuleError(
            N_("{name}: {value} must be from {low} to {high}."),
            name=name,
            value=value,
            low=low,
            high=high,
        )
    return value


def pairs(text: str, low: int, high: int, *, field: str) -> dict[str, int]:
    """``Bagarre=3, Discrétion=2`` (commas or lines) as a dict, each item read as the
    command line reads a ``NAME=VALUE`` option (:func:`meneur.pairs.parse_pair`): an
    item without ``=`` or without a number is refused, never read as 0, and a name given
    twice is refused with ``field`` (its label) named, never the last one kept. A value
    past its bounds names its own field (« Bagarre : 99 »)."""
    found: list[tuple[str, int]] = []
    try:
        for item in text.replace("\n", ",").split(","):
            if item.strip():
                # the name whole: a name too long (or empty) is the sheet's to refuse, named
                name, value = parse_pair(item.strip())
                found.append((name, within(name, value, low, high)))
        return once_each(found, field)
    except UsageError as error:
        raise RuleError(error.message, **error.params) from None


def names_of(text: str) -> list[str]:
    """``a, b`` (commas or lines) as a list of names, each whole: a name too long is
    refused by the sheet's model with its field named, never cut unsaid."""
    return [item.strip() for item in text.replace("\n", ",").split(",") if item.strip()]
