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

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

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

    def vectorised(self, params: P) -> Any:
        """Optional hook: resolve many rolls at once with numpy (``None``: not offered).

        Simulation is the only user. When offered, return an object with:

        * ``width``: the most faces one roll can read on a stream (explosions included);
        * ``__call__(faces)``: ``faces`` is an integer array ``[runs, streams, width]``
          read in order per stream, as :class:`FaceReader` would; it returns a tuple of
          arrays, one entry per run;
        * ``key_at(result, i)``: run ``i``'s value of :meth:`key`.

        ``tests/test_conformance_vector.py`` checks that ``key_at`` equals
        ``key(resolve(params, faces[i]))`` on the same faces for every check offering it.
        Import numpy (or the lab) inside the method: start-up must stay light.
        """
        return None

    def score(self, key: Hashable) -> float | None:
        """Optional hook: how good the result ``key`` is for the roller (higher is better).

        The roll log judges each player's luck with it: where each roll stands among
        the check's exact outcomes (:func:`meneur.campaign.recording.judge`). ``None``
        (the default) means the check's results have no such order.
        """
        return None

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


def _watcher(source: DiceSource) -> Any:
    """The ``observe`` of ``source`` or of a source it wraps (wrappers keep ``.source``)."""
    for _ in range(8):
        observe = getattr(source, "observe", None)
        if observe is not None or not hasattr(source, "source"):
            return observe
        source = source.source
    return None


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

    @abstractmethod
    def checks(self) -> Mapping[str, Check[Any, Any]]:
        """Every check of the system by name; the conformance suite runs them all."""

    @abstractmethod
    def register_cli(self, groups: CommandGroups) -> None:
        """Add the system's commands to the CLI's groups."""
