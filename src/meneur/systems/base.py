"""What every system implements: checks that resolve faces, and the commands it offers.

The central idea of meneur (DESIGN.md): a roll is ``resolve(params, faces) -> outcome``,
a pure function of the dice shown. Everything else is derived from it here, once:

* :meth:`Check.roll` draws faces from dice sources on demand and resolves them;
* :func:`meneur.odds.brute_force` enumerates every face sequence through the same
  ``resolve`` (the conformance suite compares it with each system's fast ``odds``);
* the roll log stores params and faces, so any roll can be replayed with physical dice.

How ``resolve`` asks for dice: faces come as one tuple per *stream* (stream 0 is the
roller, stream 1 the opposition, and so on). When ``resolve`` needs more faces on a
stream than it was given, it raises :class:`NeedMoreDice` naming the stream and how
many dice the next batch needs; the caller supplies them and calls again. That keeps
``resolve`` pure while letting explosions, rerolls and physical dice decide how many
dice a roll takes.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    import typer

    from meneur.odds.dist import Dist
    from meneur.rng import DiceSource

P = TypeVar("P")
O = TypeVar("O")  # noqa: E741 - the outcome type, as in Check[P, O]

Faces = tuple[tuple[int, ...], ...]
"""The faces shown, one tuple per stream, in the order they were rolled."""


class NeedMoreDice(Exception):
    """Raised by ``resolve`` when stream ``stream`` needs ``count`` more dice."""

    def __init__(self, stream: int, count: int) -> None:
        super().__init__(stream, count)
        self.stream = stream
        self.count = count


class FaceReader:
    """Reads faces stream by stream inside ``resolve``; asks for more when they run out.

    ``take(n)`` returns the next ``n`` faces of a stream or raises :class:`NeedMoreDice`
    for exactly the dice missing from that batch.
    """

    __slots__ = ("_faces", "_positions")

    def __init__(self, faces: Faces) -> None:
        self._faces = faces
        self._positions = [0] * len(faces)

    def take(self, count: int, stream: int = 0) -> tuple[int, ...]:
        if count <= 0:
            return ()
        faces = self._faces[stream] if stream < len(self._faces) else ()
        start = self._positions[stream] if stream < len(self._positions) else 0
        available = len(faces) - start
        if available < count:
            raise NeedMoreDice(stream, count - available)
        self._positions[stream] = start + count
        return faces[start : start + count]


class DrawingReader(FaceReader):
    """A reader that draws each batch from the dice sources when the rule takes it.

    A procedure reads dozens of batches; re-running it from the start after each
    :class:`NeedMoreDice` (what :meth:`Check.roll` does) would cost quadratic time. This
    reader draws in the same order and the same counts as that loop, so the same seed
    gives the same faces, and :attr:`drawn` holds every face for the log and replays.
    """

    def __init__(self, sources: Sequence[DiceSource], streams: int, sides: int) -> None:
        super().__init__(tuple(() for _ in range(streams)))
        self.sources = sources
        self.sides = sides
        self.drawn: list[list[int]] = [[] for _ in range(streams)]

    def take(self, count: int, stream: int = 0) -> tuple[int, ...]:
        if count <= 0:
            return ()
        faces = tuple(self.sources[stream].roll(self.sides, count))
        self.drawn[stream].extend(faces)
        return faces


class VectorForm(Protocol):
    """The numpy form of a check or a procedure: many rolls at once (the lab's only door).

    ``faces`` arrays are ``[runs, streams, width]``, read in order per stream as
    :class:`FaceReader` would. ``tests/test_conformance_vector.py`` checks that
    ``key_at(form(faces), i)`` equals ``key(resolve(params, faces[i]))`` for every check
    and procedure that offers one.
    """

    width: int
    """The most faces one roll reads on a stream (explosions included)."""

    def __call__(self, faces: Any) -> tuple[Any, ...]:
        """Resolve every run of ``faces``: a tuple of arrays, one entry per run."""

    def key_at(self, result: tuple[Any, ...], i: int) -> Hashable:
        """Run ``i``'s value of the scalar ``key``."""

    def sample(self, rng: Any, runs: int) -> tuple[Any, ...]:
        """``runs`` rolls on faces drawn from the numpy generator ``rng`` as the rule asks."""

    def success(self, result: tuple[Any, ...]) -> Any:
        """A boolean array: which runs count as a success (the lab's tables and sweeps)."""


@dataclass(frozen=True, slots=True)
class Rolled(Generic[P, O]):
    """A roll that happened: its parameters, every face per stream, and its outcome."""

    params: P
    faces: Faces
    outcome: O


class Check(ABC, Generic[P, O]):
    """One kind of roll a system resolves: a test, an opposition, a cooperation...

    Subclasses implement the hooks below; :meth:`roll` is derived and should rarely be
    overridden. ``P`` is a frozen parameter type that validates itself on creation,
    ``O`` a frozen outcome type.
    """

    name: ClassVar[str]
    """The check's name, as in the command line (``test``, ``oppose``...)."""

    die_sides: ClassVar[int]
    """Faces of the dice this check rolls (every system rolls one kind of die)."""

    @abstractmethod
    def streams(self, params: P) -> int:
        """How many independent dice streams the check reads (1 for a test)."""

    @abstractmethod
    def resolve(self, params: P, faces: Faces) -> O:
        """The outcome shown by ``faces``; raise :class:`NeedMoreDice` when short.

        Must be pure: the same params and faces always give the same outcome, and it
        must never read more faces than the rule asks for.
        """

    @abstractmethod
    def key(self, outcome: O) -> Hashable:
        """The part of an outcome that :meth:`odds` distributes over."""

    @abstractmethod
    def odds(self, params: P) -> Dist[Hashable]:
        """The exact distribution of :meth:`key` over all faces (never sampled)."""

    @abstractmethod
    def examples(self) -> Sequence[P]:
        """Small parameter sets for the conformance suite (brute force must be quick)."""

    @abstractmethod
    def to_json(self, params: P, outcome: O) -> dict[str, Any]:
        """The public JSON form of an outcome (its keys are a contract)."""

    def logged_views(self, params: P, outcome: O) -> tuple[dict[str, Any], ...]:
        """The shapes in which an interface logs this roll's outcome, as the faces give
        it: ``meneur verify --replay`` requires a log entry's outcome to hold one of them
        whole, so that a result edited in the log (its chain hashed again) is caught, not
        only a changed step key. The whole :meth:`to_json` by default; a check printed in
        another shape (the live table logs one exchange of a fight as its round), added
        to after the roll (a Vécu earned on the sheet), or saying what no face decides
        (where its dice came from) gives the part it answers for, in each shape."""
        return (self.to_json(params, outcome),)

    def vectorised(self, params: P) -> VectorForm | None:
        """Optional hook: resolve many rolls at once with numpy (``None``: not offered).

        Simulation is the only user; see :class:`VectorForm` for what it must offer. The
        form lives in the system's ``vector.py``: import it (and numpy) inside this
        method, so that start-up stays light.
        """
        return None

    def marks(self, params: P, faces: Faces) -> tuple[tuple[str, ...], ...]:
        """Which faces matter to the verdict, per stream: ``hit``, ``fumble`` or ``""``.

        Presentation-neutral: the table and the terminal highlight what the rule counts
        (a success, a natural 20, the 1s of a fumble), not a guess from the face alone.
        The default marks nothing.
        """
        return tuple(tuple("" for _ in stream) for stream in faces)

    def params_json(self, params: P) -> dict[str, Any]:
        """The canonical JSON form of ``params``: what the roll log stores to replay a roll.

        The same whatever the interface (CLI, web, a stored sheet): a params type is a
        frozen dataclass, and its own fields are the form. :meth:`params_from_json` reads
        it back, through the type's own validation.
        """
        try:  # a dataclass of numbers, strings, tuples: no pydantic to load (~0.1 s)
            plain: dict[str, Any] = _plain(params)
        except TypeError:
            data: dict[str, Any] = _adapter(type(params)).dump_python(params, mode="json")
            return data
        return plain

    def params_from_json(self, data: Any) -> P:
        """Params from their canonical JSON form, validated as on creation.

        Raises a :class:`~meneur.errors.RuleError` (or the type's own error) when the
        data no longer validates: unknown field, wrong type, a bound the rules now refuse.
        """
        from pydantic import ValidationError

        from meneur.errors import RuleError
        from meneur.locale import N_
        from meneur.model_errors import first_problem

        try:
            params: P = _adapter(self.params_type()).validate_python(data, strict=False)
        except ValidationError as error:
            problem = first_problem(error)
            raise RuleError(
                N_("Invalid parameters ({where}): {problem}"),
                where=problem.where,
                problem=problem.reason,
            ) from None
        return params

    def params_type(self) -> type[Any]:
        """The params type ``P``, read from the class's ``Check[P, O]`` base."""
        from typing import get_args, get_origin

        for klass in type(self).__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                origin = get_origin(base)
                if isinstance(origin, type) and issubclass(origin, Check):
                    args = get_args(base)
                    if args and isinstance(args[0], type):
                        return args[0]
        raise TypeError(f"{type(self).__name__} names no params type")

    def params_strategy(self) -> Any:
        """Optional hook: a hypothesis strategy of valid params (``None``: examples only).

        The conformance suites draw params from it as well as from :meth:`examples`, so
        that the rules are checked where nobody thought of an example. Only tests call
        it: import hypothesis inside the method (it is not a runtime dependency).
        """
        return None

    def score(self, key: Hashable) -> float | None:
        """Optional hook: how good the result ``key`` is for the roller (higher is better).

        The roll log judges each player's luck with it: where each roll stands among
        the check's exact outcomes (:func:`meneur.campaign.recording.judge`). ``None``
        (the default) means the check's results have no such order.
        """
        return None

    def score_odds(self, params: P) -> Dist[Hashable]:
        """Optional hook: a law of keys that :meth:`score` reads as it reads :meth:`odds`
        (the default). A check whose score reads only part of its key may give a coarser
        law, cheaper to compute, so that more of its rolls get judged."""
        return self.odds(params)

    def roll(self, params: P, sources: Sequence[DiceSource]) -> Rolled[P, O]:
        """Draw faces from ``sources`` (one per stream) as ``resolve`` asks, then resolve."""
        count = self.streams(params)
        if len(sources) < count:
            sources = [*sources, *([sources[-1]] * (count - len(sources)))]
        drawn: list[list[int]] = [[] for _ in range(count)]
        while True:
            try:
                outcome = self.resolve(params, tuple(tuple(f) for f in drawn))
            except NeedMoreDice as need:
                drawn[need.stream].extend(sources[need.stream].roll(self.die_sides, need.count))
                continue
            break
        return self.finished(
            Rolled(params, tuple(tuple(f) for f in drawn), outcome), sources[:count]
        )

    def finished(self, rolled: Rolled[P, O], sources: Sequence[DiceSource]) -> Rolled[P, O]:
        """Close the sources of a finished roll; every override of :meth:`roll` ends here.

        A source that watches (``observe``: the roll log, which judges luck against
        :meth:`odds`) is told what the check made of its dice.
        """
        for source in {id(s): s for s in sources}.values():
            source.finish()
            observe = _watcher(source)
            if observe is not None:
                observe(self, rolled)
        return rolled


_ADAPTERS: dict[type[Any], Any] = {}


def _plain(value: Any) -> Any:
    """``value`` as :meth:`Check.params_json` stores it, when it is made of dataclasses,
    tuples, enums and JSON scalars other than floats (pydantic's
    ``dump_python(mode="json")`` gives the same: the conformance tests compare both);
    ``TypeError`` otherwise (a float, a pydantic model...), and pydantic writes it.

    Why: the roll log stores every roll's params, and importing pydantic and building
    an adapter cost a command like ``meneur test krasses`` about 0.1 s.
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, Enum):
        return _plain(value.value)
    if isinstance(value, int):  # a subclass too (a threshold named by its level)
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in fields(value)}
    raise TypeError(type(value).__name__)


def _adapter(kind: type[Any]) -> Any:
    """One pydantic adapter per params type (building one costs far more than using it)."""
    found = _ADAPTERS.get(kind)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


def _watcher(source: DiceSource) -> Any:
    """The ``observe`` of ``source`` or of a source it wraps (wrappers keep ``.source``)."""
    for _ in range(8):
        observe = getattr(source, "observe", None)
        if observe is not None or not hasattr(source, "source"):
            return observe
        source = source.source
    return None


class Procedure(Check[P, O]):
    """What spans several rolls: a fight, a melee round, a conflict, a survival day.

    The same contract as a :class:`Check` (frozen validated params, a pure ``resolve``
    over face streams with the :class:`NeedMoreDice` protocol, a key, a JSON form,
    examples, an optional numpy form), with two differences: exact odds are optional
    (:attr:`offers_odds`), and a subclass writes :meth:`run`, which reads faces through
    a reader, instead of ``resolve``. :meth:`roll` then draws each batch when the rule
    takes it (:class:`DrawingReader`), in one pass.
    """

    offers_odds: ClassVar[bool] = False

    @abstractmethod
    def run(self, params: P, reader: FaceReader) -> O:
        """The rule, reading every face through ``reader`` (pure in the faces read)."""

    def resolve(self, params: P, faces: Faces) -> O:
        return self.run(params, FaceReader(faces))

    def odds(self, params: P) -> Dist[Hashable]:
        from meneur.errors import RuleError
        from meneur.locale import N_

        raise RuleError(N_("A whole fight or journey has no exact odds here."))

    def roll(self, params: P, sources: Sequence[DiceSource]) -> Rolled[P, O]:
        count = self.streams(params)
        if len(sources) < count:
            sources = [*sources, *([sources[-1]] * (count - len(sources)))]
        reader = DrawingReader(sources, count, self.die_sides)
        outcome = self.run(params, reader)
        rolled = Rolled(params, tuple(tuple(f) for f in reader.drawn), outcome)
        return self.finished(rolled, sources[:count])


class CommandGroups(ABC):
    """The command groups a system adds its commands to (``test``, ``odds``...).

    The CLI builds them; a system only asks for a group by name, so that adding a
    system touches no CLI code.
    """

    @abstractmethod
    def group(self, *path: str) -> typer.Typer:
        """The Typer group at ``path`` (``"test"``, or ``"character", "new"``)."""


class System(ABC):
    """A game system: its names, its checks and its commands.

    Keep the module that defines a ``System`` subclass light: the registry imports it
    on every start of the CLI, so rules, odds and data load lazily inside the hooks.
    """

    name: ClassVar[str]
    """Canonical name, ASCII, lower case (``tunnels``)."""

    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names a user may type (accents and case are ignored anyway)."""

    title: ClassVar[str]
    """The system's display name (``Krâsses``)."""

    rule_prefix: ClassVar[str]
    """The letter of its rule ids in docs/rules.md (``T`` for ``T-5``)."""

    die_sides: ClassVar[int]

    labels: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """The label of each of this system's named fields (English, translated when shown):
    its roll options, as its params and the table's forms name them (``difficulty``),
    and its sheets' values by their path (``ressources.vecu``: what is inside it, its
    ``current`` points, is named by it too). The table's forms print it beside the
    field, and a refusal names the field by it (:func:`field_label`), never by the name
    or path the reader does not see."""

    def field_name(self, where: str) -> str:
        """How a refusal names the field ``where``: its label (:func:`field_label`), else
        the path itself (a Krâsses skill has no fixed label)."""
        return field_label(where, self) or where

    @abstractmethod
    def checks(self) -> Mapping[str, Check[Any, Any]]:
        """Every check of the system by name; the conformance suite runs them all."""

    def procedures(self) -> Mapping[str, Procedure[Any, Any]]:
        """Every procedure of the system by name (what spans several rolls)."""
        return {}

    @abstractmethod
    def register_cli(self, groups: CommandGroups) -> None:
        """Add the system's commands to the CLI's groups (all but ``simulate``'s)."""

    def log_summary(self, kind: str, outcome: Mapping[str, Any]) -> str | None:
        """Optional hook: the « Result » of one of this system's entries in ``meneur
        log``, one short line in the reader's language. None (the default) reads the
        outcome's usual fields (a total, successes, a winner); a system whose outcomes
        hold none of them (a scene's pairs) says it in its own words, where the log
        showed raw JSON."""
        return None

    def register_lab_cli(self, groups: CommandGroups) -> None:
        """Optional hook: add the system's ``simulate fight|policy|sweep|test`` commands.

        Apart from :meth:`register_cli` so that only ``meneur simulate ...`` imports
        them: every other command would pay for modules it never runs.
        """
        return None

    def check_sheet(self, sheet: dict[str, Any], label: str) -> None:
        """Optional hook: raise :class:`~meneur.errors.SheetError` (naming ``label``)
        when ``sheet`` is not a sheet of this system. The campaign checks every sheet it
        stores or changes through it, so that a character stored today can be rolled
        tomorrow. Default: any object of fields is kept as given."""
        return None

    def check_state(self, state: dict[str, Any], label: str) -> None:
        """Optional hook: raise :class:`~meneur.errors.SheetError` (naming ``label``)
        when a stored character's ``state`` (the campaign's free object of notes beside
        the sheet, ``character edit --state``) says what this system's rules forbid,
        such as a resource below its floor. The campaign checks it wherever a state is
        stored. Default: any object of fields is kept as given."""
        return None

    def lab_adapter(self) -> object | None:
        """Optional hook: the system's :class:`meneur.lab.adapter.Adapter`, which
        ``meneur table``, ``compare`` and the cell simulations tabulate (``None``: no
        table). The lab reaches a system only through it, never by the system's name."""
        return None


RULE_ID = re.compile(r"\s*\([A-Z]-\d+(?:, ?[A-Z]-\d+)*\)$")
"""The rule ids a label ends with (« Difficulté (K-3) »): shown beside a form's field,
left out when a message names the field."""


def field_label(where: str, system: System | None, *, rule_id: bool = False) -> str | None:
    """The label of the field ``where`` of ``system`` in the reader's language, or
    ``None`` when that system labels no such field (``system`` ``None``: none is known).

    The one lookup of a field's label, for every interface: a field is labelled by the
    system whose params or sheet hold it, never by another that happens to use the same
    name (Krâsses' ``difficulty`` is not Obscur's). A message names the field by its
    label alone (« Valeur invalide pour Difficulté »); ``rule_id`` keeps the rule the
    label cites, as the form shows it beside the field (« Difficulté (K-3) »).
    """
    from meneur.locale import gettext

    if system is None:
        return None
    parts = where.split(".")
    for end in range(len(parts), 0, -1):  # a value inside a labelled one: its label
        found = system.labels.get(".".join(parts[:end]))
        if found is not None:
            break
    else:
        return None
    text = gettext(found)
    text = text if rule_id else RULE_ID.sub("", text)
    if end == len(parts) - 1 and parts[-1] == "max":  # a pool's maximum, as its form says
        return gettext("{name} max").format(name=text)
    return text
