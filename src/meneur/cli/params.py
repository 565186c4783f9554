"""Option parsers and shared options, with messages in the user's language.

Numbers are parsed by our own parsers rather than Typer's, so that a thousand-digit
number, a negative dice count or a word where a number belongs gets one translated line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from meneur.errors import MeneurError, UsageError
from meneur.locale import N_
from meneur.locale import gettext as _
from meneur.rng import DiceSource, make_source, parse_faces, parse_seed
from meneur.text import comma_items
from meneur.whole import parse_whole

T = TypeVar("T")


def parse_int(text: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number between ``low`` and ``high`` by meneur's one rule
    (:func:`meneur.whole.parse_whole`); ``typer.BadParameter`` otherwise."""
    try:
        return parse_whole(text, low=low, high=high)
    except MeneurError as error:
        raise typer.BadParameter(str(error)) from None


def int_parser(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A Typer ``parser=`` for a bounded whole number."""

    def parser(text: str) -> int:
        return parse_int(text, low=low, high=high)

    return parser


def meneur_parser(parse: Callable[[str], T]) -> Callable[[str], T]:
    """A Typer ``parser=`` made of one of meneur's parsers (which raise MeneurError)."""

    def parser(text: str) -> T:
        try:
            return parse(text)
        except MeneurError as error:
            raise typer.BadParameter(str(error)) from None

    return parser


def comma_list(text: str) -> str:
    """A list option's text as typed (``--rows 2,4,6``), once it holds no empty item
    (:func:`meneur.text.comma_items`): ``--rows 1,,2`` was read ``1,2`` unsaid."""
    comma_items(text)
    return text


listed = meneur_parser(comma_list)
"""The Typer ``parser=`` of every comma-separated list option: the refusal names it."""


@dataclass(frozen=True, slots=True)
class TypedFaces:
    """Faces typed with ``--faces`` (a class of its own so Typer reads one text value)."""

    values: tuple[int, ...]


def parse_typed_faces(text: str) -> TypedFaces:
    return TypedFaces(parse_faces(text))


def json_option() -> Any:
    return typer.Option("--json", help=_("Print the result as JSON (for programs)."))


def seed_option() -> Any:
    return typer.Option(
        "--seed",
        parser=meneur_parser(parse_seed),
        metavar="N",
        help=_("Seed for reproducible dice (a whole number)."),
    )


def faces_option(flag: str = "--faces", *, example: str | None = None) -> Any:
    """``--faces`` (the roller's dice) or ``--vs-faces`` (the other side's: the
    opposition's, the monster's), typed from the table.

    ``example``: faces that fit the system's dice, shown in the help and as the
    placeholder (a test of one d20: ``14``); by default four d6, ``1,1,4,6``
    (``2,3,5`` for the other side)."""
    if flag == "--vs-faces":
        words = _(
            "The other side's faces rolled at the table (the opposition's), in order, such "
            "as {example}."
        ).format(example=example or "2,3,5")
    else:
        words = _("The faces rolled at the table, in order, such as {example}.").format(
            example=example or "1,1,4,6"
        )
    return typer.Option(
        flag, parser=meneur_parser(parse_typed_faces), metavar=example or "1,1,4,6", help=words
    )


def character_option(flag: str = "--character", *, read_only: bool = False) -> Any:
    """``--character NAME`` (``--vs-character``: the other side's); ``read_only``: for a
    command that rolls nothing (``odds``), whose help must not promise a saved change."""
    if read_only:
        words = _(
            "A character stored in the current campaign, instead of a sheet file: its "
            "traits are read, nothing is rolled or saved."
        )
    elif flag == "--vs-character":
        words = _(
            "The other side: a character stored in the current campaign, instead of "
            "--vs-sheet; what the roll changes is saved with its log entry."
        )
    else:
        words = _(
            "A character stored in the current campaign, instead of a sheet file: "
            "what the roll changes is saved with its log entry."
        )
    return typer.Option(flag, metavar="NAME", help=words)


def sheet_or_character(
    sheet: Path | None, character: str | None, system: str, flags: str = "--sheet/--character"
) -> Path | None:
    """The sheet to read: the file given, or the stored character (never both)."""
    if character is None:
        return sheet
    if sheet is not None:
        raise UsageError(N_("Give {flags} once: a sheet file or a stored character."), flags=flags)
    return stored(character, system)


def stored(character: str, system: str) -> Path:
    """The stored character as a sheet path that the system's loaders read and write."""
    from meneur.cli.journal import required

    return required().stored_sheet(character, system)


def required_sheet(
    sheet: Path | None, character: str | None, system: str, flags: str = "--sheet/--character"
) -> Path:
    """Like :func:`sheet_or_character`, for commands that need a character."""
    chosen = sheet_or_character(sheet, character, system, flags)
    if chosen is None:
        raise UsageError(N_("Missing {flags}: a sheet file or a stored character."), flags=flags)
    return chosen


OWN_SHEET_FIGHT = N_(
    "A fighter cannot fight their own sheet when the fight is kept (--save, or a stored character)."
)
OWN_SHEET_OPPOSED = N_(
    "The two sides of an opposition are one sheet: a character does not oppose"
    " themself (and the second side's change would overwrite the first's)."
)


def refuse_own_sheet(a: Path | None, b: Path | None, message: str = OWN_SHEET_FIGHT) -> None:
    """Refuse two sides that are one sheet where both write it: each side would write
    its own end to the same sheet, the last one winning (a character saved dead by a
    fight it won, one Maladresse's Vécu lost). The same file however named (a link, a
    relative path), the same stored character however spelt (« Tess », « tess »)."""
    from meneur.files import sheet_identity

    if a is not None and b is not None and sheet_identity(a) == sheet_identity(b):
        raise UsageError(message)


Json = Annotated[bool, json_option()]
ForceOpt = Annotated[bool, typer.Option("--force", help=_("Replace the file if it exists."))]
Seed = Annotated[int | None, seed_option()]
FacesArg = Annotated[TypedFaces | None, faces_option()]
CharacterArg = Annotated[str | None, character_option()]
VsCharacterArg = Annotated[str | None, character_option("--vs-character")]
ReadCharacterArg = Annotated[str | None, character_option(read_only=True)]
VsFacesArg = Annotated[TypedFaces | None, faces_option("--vs-faces")]


def dice_sources(seed: int | None, *faces: TypedFaces | None) -> list[DiceSource]:
    """One dice source per stream: typed faces where given, else one shared seeded/secure source.

    With a seed, every stream draws from the same seeded source, so one seed replays the
    whole roll; typed faces for one side and random dice for the other may be mixed. A
    seed where every die is typed draws nothing: refused, rather than taken for the
    seed that made the roll.
    """
    from meneur.cli.journal import journal

    if seed is not None and faces and all(f is not None for f in faces):
        raise UsageError(
            N_("--seed draws no die here: every die is typed (--faces); give one or the other.")
        )

    shared = make_source(seed=seed)
    sources = [make_source(faces=f.values) if f is not None else shared for f in faces]
    explicit = seed is not None or any(f is not None for f in faces)
    log = journal()
    if log is None:
        return sources
    return log.dice_for(sources, explicit=explicit)  # remembered for the roll log when kept
