"""Characters to and from JSON files: one character, or a whole campaign's.

Export then import gives back exactly what was exported (sheet, state, timestamps);
exporting again gives the same bytes. Import reads and validates EVERY character (file
shape, names, systems, sheets by their system's model, duplicates, names already taken)
before writing any, then writes them all in one transaction: a file with one bad
character among ten writes nothing, and the error names that character and its field.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meneur.campaign.records import CharacterInfo, format_at
from meneur.errors import SheetError
from meneur.locale import N_, gettext

if TYPE_CHECKING:
    from meneur.campaign.store import NewCharacter

CHARACTER_FORMAT = "meneur-character"
CAMPAIGN_FORMAT = "meneur-campaign"
VERSION = 1
MAX_IMPORT_BYTES = 50_000_000
MAX_CHARACTERS = 10_000
FIELDS = ("system", "name", "sheet", "state", "created_at", "updated_at")


def character_json(info: CharacterInfo) -> dict[str, Any]:
    return {
        "system": info.system,
        "name": info.name,
        "sheet": info.sheet,
        "state": info.state,
        "created_at": format_at(info.created_at),
        "updated_at": format_at(info.updated_at),
    }


def export_character(info: CharacterInfo) -> dict[str, Any]:
    return {"format": CHARACTER_FORMAT, "version": VERSION, "character": character_json(info)}


def export_campaign(name: str, characters: list[CharacterInfo]) -> dict[str, Any]:
    return {
        "format": CAMPAIGN_FORMAT,
        "version": VERSION,
        "campaign": name,
        "characters": [character_json(info) for info in characters],
    }


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def read_document(path: Path) -> dict[str, Any]:
    """A JSON file as a dict, with one clear error if it is missing, huge or malformed."""
    from meneur.files import parse_document, read_bounded

    raw = read_bounded(
        path,
        MAX_IMPORT_BYTES,
        too_large=N_("{path} is larger than {limit} bytes."),
        missing=N_("No file at {path}."),
        folder=N_("{path} is a folder, not a file."),
    )
    return parse_document(raw, path, json_only=True)


def _field_error(label: str, field: str, problem: str) -> SheetError:
    return SheetError(
        N_("Character {name}: field '{field}': {problem}"),
        name=label,
        field=field,
        problem=gettext(problem),
    )


def _moment(value: Any, label: str, field: str) -> datetime | None:
    from datetime import UTC

    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise _field_error(label, field, N_("not a date"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _field_error(label, field, N_("not a date")) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse_characters(document: dict[str, Any]) -> list[NewCharacter]:
    """The characters of an export file, each checked for shape (not yet for its system)."""
    from meneur.campaign.store import NewCharacter

    kind = document.get("format")
    items: Any
    if kind == CHARACTER_FORMAT:
        items = [document.get("character")]
    elif kind == CAMPAIGN_FORMAT:
        items = document.get("characters")
        if not isinstance(items, list):
            raise SheetError(N_("The file has no list of 'characters'."))
    else:
        raise SheetError(
            N_("This file is not a meneur character export (its 'format' is not {formats})."),
            formats=f"{CHARACTER_FORMAT}, {CAMPAIGN_FORMAT}",
        )
    version = document.get("version")  # the integer itself: in Python, True == 1.0 == 1
    if type(version) is not int or version != VERSION:
        raise SheetError(
            N_("This export has version {found}; this meneur reads version {version}."),
            found=json.dumps(document.get("version"), ensure_ascii=False)[:20],  # "1", not 1
            version=VERSION,
        )
    if len(items) > MAX_CHARACTERS:
        raise SheetError(N_("An import holds at most {limit} characters."), limit=MAX_CHARACTERS)
    parsed: list[NewCharacter] = []
    for number, item in enumerate(items, start=1):
        label = f"#{number}"
        if not isinstance(item, dict):
            raise _field_error(label, "-", N_("not an object"))
        name = item.get("name")
        if isinstance(name, str) and name.strip():
            label = f"{name.strip()[:80]} (#{number})"
        unknown = sorted(set(item) - set(FIELDS))
        if unknown:
            raise _field_error(label, unknown[0][:40], N_("unknown field"))
        for required in ("system", "name", "sheet"):
            if required not in item:
                raise _field_error(label, required, N_("missing"))
        if not isinstance(item["system"], str):
            raise _field_error(label, "system", N_("not text"))
        if not isinstance(item["sheet"], dict):
            raise _field_error(label, "sheet", N_("not an object"))
        state = item.get("state", {})
        if not isinstance(state, dict):
            raise _field_error(label, "state", N_("not an object"))
        parsed.append(
            NewCharacter(
                system=item["system"],
                name=item["name"],
                sheet=item["sheet"],
                state=state,
                created_at=_moment(item.get("created_at"), label, "created_at"),
                updated_at=_moment(item.get("updated_at"), label, "updated_at"),
            )
        )
    return parsed
