"""Reading sheets and rule data, and writing sheets without ever half-writing them.

* Sheets are JSON or TOML (by extension); a malformed file is a :class:`SheetError` that
  names the file and, where the parser says, the line.
* Rule data ships as TOML under ``systems/<system>/data/``; a user file with the same
  name in ``$MENEUR_DATA_DIR/<system>/`` (or the user config directory) overrides it.
* Writes go to a temporary file in the same folder, then replace the old one atomically:
  a crash leaves either the old sheet or the new one, never half of either.

Every command imports this module (through the roll log); the parsers, ``tempfile`` and
``importlib.resources`` load inside the functions that use them, so that a command
reading no file does not pay for them at start-up.
"""

from __future__ import annotations

import errno
import os
from abc import ABC, abstractmethod
from collections.abc import Hashable, MutableMapping
from functools import cache
from pathlib import Path
from typing import Any

from meneur.errors import SheetError
from meneur.locale import N_
from meneur.model_errors import Phrase

MAX_SHEET_BYTES = 1_000_000


def user_data_dir() -> Path:
    """Where users put their own rule data files (overrides of the shipped ones)."""
    explicit = os.environ.get("MENEUR_DATA_DIR")
    if explicit:
        return Path(explicit)
    from platformdirs import user_config_dir

    return Path(user_config_dir("meneur")) / "data"


class SheetElsewhere(ABC):
    """A sheet path whose content lives elsewhere than in a file (a stored character).

    The systems' loaders take a path: a path that also derives from this class is read and
    written through these two methods, so that no system needs a second loader and this
    module needs to know nothing of where such sheets live (the campaign subclasses it).
    """

    @abstractmethod
    def read_document(self) -> dict[str, Any]:
        """The sheet's content, as :func:`read_sheet` gives a file's."""

    @abstractmethod
    def write_document(self, data: dict[str, Any]) -> None:
        """Keep ``data`` as the sheet's new content."""

    @abstractmethod
    def identity(self) -> Hashable:
        """What names this sheet however it was spelt (two paths of one sheet are equal
        here), as a file's resolved path names a file."""


def sheet_identity(path: Path) -> Hashable:
    """:meth:`SheetElsewhere.identity`, or a file's resolved path (links followed)."""
    return path.identity() if isinstance(path, SheetElsewhere) else ("file", path.resolve())


def read_sheet(path: Path) -> dict[str, Any]:
    """The content of a JSON or TOML sheet, as a dict (or of a stored character's sheet)."""
    if isinstance(path, SheetElsewhere):
        return path.read_document()
    raw = read_bounded(
        path,
        MAX_SHEET_BYTES,
        too_large=N_("The sheet {path} is larger than {limit} bytes."),
        missing=N_("No sheet at {path}."),
        folder=N_("{path} is a folder, not a sheet."),
    )
    return parse_document(raw, path)


def read_bounded(path: Path, limit: int, *, too_large: str, missing: str, folder: str) -> bytes:
    """The bytes of ``path``, or one :class:`SheetError` (``too_large``, ``missing``,
    ``folder``: the caller's words, each with ``{path}``). A file or a pipe is read, one
    byte past ``limit`` at most instead of trusting the size the file system tells; a
    device is refused (``/dev/zero`` never ends) and a named pipe is opened without
    waiting for a writer (the command used to hang there for good)."""
    import stat

    try:
        # Non-blocking: opening a named pipe for reading would otherwise wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SheetError(missing, path=str(path)) from None
    except IsADirectoryError:
        raise SheetError(folder, path=str(path)) from None
    except OSError as error:
        raise SheetError(
            N_("Cannot read {path}: {reason}."), path=str(path), reason=os_reason(error)
        ) from None
    mode = os.fstat(descriptor).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a folder, a device, a socket
        os.close(descriptor)
        if stat.S_ISDIR(mode):
            raise SheetError(folder, path=str(path))
        raise SheetError(
            N_("{path} is a device, not a file: only files and pipes are read."),
            path=str(path),
        )
    # A pipe is read to its end: ``<(command)`` has its writer; a named pipe that nobody
    # writes reads as empty at once (the non-blocking open did not wait for one).
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "rb") as handle:
        try:
            raw = handle.read(limit + 1)
        except OSError as error:
            raise SheetError(
                N_("Cannot read {path}: {reason}."), path=str(path), reason=os_reason(error)
            ) from None
    if len(raw) > limit:
        raise SheetError(too_large, path=str(path), limit=limit)
    return raw


def parse_document(raw: bytes, path: Path, *, json_only: bool = False) -> dict[str, Any]:
    """``raw`` read from ``path`` as an object of fields: TOML if the name ends in
    ``.toml`` (unless ``json_only``: an export is JSON whatever its name), JSON
    otherwise; ``path`` is named, as typed, in every error."""
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")  # an editor's byte order mark
    except UnicodeDecodeError:
        raise SheetError(N_("{path} is not UTF-8 text."), path=str(path)) from None
    toml = path.suffix.lower() == ".toml" and not json_only
    parse = _parse_toml if toml else _parse_json
    try:
        data = parse(text, path)
    except RecursionError:
        raise SheetError(N_("{path} nests its values too deeply."), path=str(path)) from None
    except ValueError:  # Python reads no integer of more than 4,300 digits (either format)
        raise SheetError(
            N_("{path} holds a number too long to read (thousands of digits)."), path=str(path)
        ) from None
    if not isinstance(data, dict):
        raise SheetError(
            N_("{path} must hold an object of fields, not a list or a value."), path=str(path)
        )
    return data


class NotANumber(ValueError):
    """``NaN`` or ``Infinity`` in JSON text (the word is the error's argument)."""


class TwiceGiven(ValueError):
    """A JSON object that gives one key twice (the key is the error's argument)."""


def strict_json(text: str) -> Any:
    """``text`` read as JSON, refusing ``NaN`` and ``Infinity``, typed or reached by a number
    too large (``1e400``) (:class:`NotANumber`):
    Python reads them, other programs refuse a file or an export that holds them; and
    refusing a key given twice in one object (:class:`TwiceGiven`): Python keeps the last
    silently (``"Force": 2, "Force": 50`` rolled 50), where TOML refuses it."""
    import json

    def not_a_number(word: str) -> Any:
        raise NotANumber(word)

    def finite(word: str) -> float:  # 1e400 reads as Infinity, and is written back so
        value = float(word)
        if value in (float("inf"), float("-inf")):
            raise NotANumber(word[:40])
        return value

    def once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise TwiceGiven(key)
            out[key] = value
        return out

    return json.loads(
        text, parse_constant=not_a_number, parse_float=finite, object_pairs_hook=once_each
    )


def _parse_json(text: str, path: Path) -> Any:
    import json

    try:
        return strict_json(text)
    except NotANumber as refused:
        raise SheetError(
            N_("{path} holds {word}, which JSON does not allow: give a number."),
            path=str(path),
            word=str(refused),
        ) from None
    except TwiceGiven as refused:
        raise SheetError(
            N_("{path} gives the field '{key}' twice in one object: keep one."),
            path=str(path),
            key=str(refused)[:80],
        ) from None
    except json.JSONDecodeError as error:
        raise SheetError(
            N_("{path} is not valid JSON (line {line}, column {column})."),
            path=str(path),
            line=error.lineno,
            column=error.colno,
        ) from None


def _parse_toml(text: str, path: Path) -> Any:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        import re

        # tomllib's reason is English; where it is, is not: say that, as for JSON
        place = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
        if place is None:
            raise SheetError(N_("{path} is not valid TOML."), path=str(path)) from None
        raise SheetError(
            N_("{path} is not valid TOML (line {line}, column {column})."),
            path=str(path),
            line=int(place.group(1)),
            column=int(place.group(2)),
        ) from None


def write_sheet(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as a sheet, atomically, in the format its name says (TOML for
    ``.toml``, JSON otherwise), as :func:`read_sheet` reads it."""
    if path.suffix.lower() == ".toml" and not isinstance(path, SheetElsewhere):
        text = _toml_text(path, data)
    else:
        import json

        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    write_text_atomically(path, text)


def _toml_text(path: Path, data: dict[str, Any]) -> str:
    """``data`` as TOML, written over what ``path`` holds now: the user's comments, key
    order, quoting and spacing are kept, and only what changed is rewritten (a value in
    place, a key gone removed, a new key added, through tables and inline tables alike).
    A file that is missing or no longer parses is written afresh, and so is one whose
    layout tomlkit cannot edit in place (it fails on some edits of dotted keys and of
    tables split in several places) or would write wrong: what is written always reads
    back as ``data``. tomlkit is imported here alone (reading needs only ``tomllib``)."""
    import tomllib
    from contextlib import suppress

    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    document = None
    with suppress(OSError, ValueError, TOMLKitError, RecursionError):
        if os.path.isfile(path) and os.path.getsize(path) <= MAX_SHEET_BYTES:
            document = tomlkit.parse(path.read_bytes().decode("utf-8").removeprefix("\ufeff"))
    if document is not None:
        with suppress(LookupError, ValueError, TOMLKitError):
            _match_table(document, data, top=True)
            text = document.as_string()
            if tomllib.loads(text) == data:
                return text
    fresh = tomlkit.document()
    _match_table(fresh, data, top=True)
    return fresh.as_string()


def _match_table(table: MutableMapping[str, Any], data: dict[str, Any], *, top: bool) -> None:
    """Make the TOML ``table`` hold ``data``, changing only what differs; ``top`` for the
    document itself, where a new table is a ``[section]`` (an inline table below it)."""
    for key in [key for key in table if key not in data]:
        del table[key]
    for key, value in data.items():
        if key not in table or not _matched(table[key], value):
            table[key] = _toml_item(value, section=top)


def _matched(old: Any, value: Any) -> bool:
    """Whether the TOML item ``old`` now holds ``value``: a table or a list of the same
    length is changed in place, item by item; an equal value is left as written
    (``'single quotes'``, ``1_000``). False: ``old`` is to be replaced."""
    from tomlkit.items import AoT, Item

    if isinstance(value, dict):
        if not isinstance(old, dict):
            return False
        _match_table(old, value, top=False)
        return True
    if isinstance(value, list):
        if not isinstance(old, list):
            return False
        if isinstance(old, AoT) and not (value and all(isinstance(one, dict) for one in value)):
            return False  # an empty list, or other values, is no [[array of tables]]
        for index, one in enumerate(value[: len(old)]):
            if not _matched(old[index], one):
                old[index] = _toml_item(one, section=False)
        while len(old) > len(value):
            del old[-1]
        for one in value[len(old) :]:
            old.append(_toml_item(one, section=isinstance(old, AoT)))
        return True
    plain = old.unwrap() if isinstance(old, Item) else old
    return type(plain) is type(value) and bool(plain == value)


def _toml_item(value: Any, *, section: bool) -> Any:
    """A new TOML item for ``value``: a table of the document is a ``[section]``, every
    table below it inline (``vie = { max = 12, current = 12 }``), as sheets are written."""
    import tomlkit

    if isinstance(value, dict):
        table = tomlkit.table() if section else tomlkit.inline_table()
        for key, one in value.items():
            table[key] = _toml_item(one, section=False)
        return table
    if isinstance(value, list):
        array = tomlkit.array()
        array.extend(_toml_item(one, section=False) for one in value)
        return array
    return tomlkit.item(value)


def check_writable(path: Path) -> None:
    """Refuse now a file that could not be written later: its folder missing or
    read-only, its name too long for the file system. A command that stores something and
    then writes a file (``character new --out``) or computes for a while before it
    (``--plot``) checks first, so that it never stores half of what was asked nor throws
    its work away. The temporary file :func:`write_text_atomically` will make is made
    and removed here; its name is the longer of the two."""
    if isinstance(path, SheetElsewhere):
        return
    try:
        target = _target(path)
        descriptor, temporary = _temporary_beside(target)
        os.close(descriptor)
        os.unlink(temporary)
    except OSError as error:
        raise cannot_write(str(path), error) from None


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file: the old file or the new, never half.

    A stored character's sheet (``--character``) is kept for the roll's log entry instead:
    both are written in one transaction.
    """
    if isinstance(path, SheetElsewhere):
        path.write_document(parse_document(text.encode("utf-8"), path))
        return
    try:
        target = _target(path)
        descriptor, temporary = _temporary_beside(target)
        try:
            os.fchmod(descriptor, _mode_for(target))
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise cannot_write(str(path), error) from None


def _target(path: Path) -> Path:
    """The file a write replaces: the one a link leads to (replacing the link itself left
    the user's real sheet without the change, or tried a rename across file systems),
    refused when it is a folder or not a file at all (a device, a pipe: the rename
    replaced ``/dev/null`` by a JSON file). ``~`` is a folder's name here, as for the
    check before (:func:`check_writable`): the shell expands it, not meneur."""
    import stat

    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    if stat.S_ISDIR(mode):  # ``--out ""`` is the current folder: the rename would fail
        raise SheetError(N_("{path} is a folder, not a file."), path=str(path))
    if not stat.S_ISREG(mode):
        raise SheetError(
            N_("{path} is not a file (a device or a pipe): give a file's name."),
            path=str(path),
        )
    return target


def _mode_for(path: Path) -> int:
    """The permissions the written file keeps: the old file's, or a new file's under the
    user's umask (``mkstemp`` makes its file 0600: every save left a shared 0644 sheet
    readable by its owner alone)."""
    import stat

    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


@cache
def _umask() -> int:
    """The process's umask, read without changing it where the system tells it
    (``os.umask`` sets it to read it: a thread of the web table creating a file in that
    instant would get the wrong permissions)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new temporary file in ``path``'s folder, named after it (``os.replace`` then
    moves it over ``path`` in one step)."""
    import tempfile

    directory = path.parent
    return tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)


def cannot_write(shown: str, error: OSError) -> SheetError:
    """The one error of a file that could not be written, with the system's reason."""
    return SheetError(N_("Cannot write {path}: {reason}."), path=shown, reason=os_reason(error))


_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EBUSY: N_("the device or resource is busy"),
    errno.EEXIST: N_("it already exists"),
    errno.EMFILE: N_("too many files are open"),
    errno.EXDEV: N_("it is on another file system"),
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("this computer has no such address"),
    errno.ECONNREFUSED: N_("the connection was refused"),
}
"""The reasons a user meets, in their words: ``strerror`` is the C library's English."""


def os_reason(error: OSError) -> Phrase | str:
    """Why the system refused, translated when shown; an errno not listed keeps the
    system's own words (bounded)."""
    import socket

    if isinstance(error, socket.gaierror):  # a host name looked up (meneur serve --host)
        if error.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)):
            return Phrase(N_("no computer answers to that name"))
        if error.errno == socket.EAI_AGAIN:
            return Phrase(N_("the name cannot be looked up now (is the network down?)"))
        return Phrase(N_("the name cannot be looked up"))
    message = _OS_REASONS.get(error.errno or 0)
    return Phrase(message) if message else (error.strerror or str(error))[:120]


def load_data(system: str, name: str) -> dict[str, Any]:
    """The rule data file ``<name>.toml`` of ``system``: the user's override, else ours."""
    override = user_data_dir() / system / f"{name}.toml"
    if override.is_file():
        return parse_document(override.read_bytes(), override)
    from importlib import resources

    shipped = resources.files(f"meneur.systems.{system}").joinpath("data", f"{name}.toml")
    return parse_document(shipped.read_bytes(), Path(f"{system}/data/{name}.toml"))
