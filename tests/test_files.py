"""Sheets: JSON or TOML, clear errors naming the file, atomic writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meneur.errors import SheetError
from meneur.files import read_sheet, write_sheet


def test_json_and_toml_sheets(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"name": "Aldo"}', encoding="utf-8")
    (tmp_path / "b.toml").write_text('name = "Aldo"\n', encoding="utf-8")
    assert read_sheet(tmp_path / "a.json") == {"name": "Aldo"}
    assert read_sheet(tmp_path / "b.toml") == {"name": "Aldo"}


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("bad.json", "{oops", "JSON"),
        ("bad.toml", "= 3", "TOML"),
        ("bad2.toml", "name = \n", r"n'est pas du TOML valide \(ligne 1, colonne 8\)\.$"),
        ("nan.json", '{"points": NaN}', "contient NaN, que JSON n'admet pas"),
        ("inf.json", '{"points": -Infinity}', "contient -Infinity"),
        ("list.json", "[1, 2]", "objet"),
        ("latin.json", b"\xff\xfe", "UTF-8"),
    ],
)
def test_malformed_sheets_name_the_problem(
    tmp_path: Path, name: str, content: str | bytes, fragment: str
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(SheetError, match=fragment):
        read_sheet(path)


def test_missing_sheet(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match="Aucune fiche"):
        read_sheet(tmp_path / "absent.json")


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "hero.json"
    write_sheet(path, {"name": "Lyssia", "vécu": 3})
    write_sheet(path, {"name": "Lyssia", "vécu": 4})
    assert read_sheet(path) == {"name": "Lyssia", "vécu": 4}
    assert [p.name for p in tmp_path.iterdir()] == ["hero.json"]


def test_failed_write_keeps_the_old_sheet(tmp_path: Path) -> None:
    path = tmp_path / "hero.json"
    write_sheet(path, {"name": "Lyssia"})
    with pytest.raises(TypeError):
        write_sheet(path, {"name": object()})
    assert read_sheet(path) == {"name": "Lyssia"}


def test_a_file_past_the_limit_is_refused_at_the_limit(tmp_path: Path) -> None:
    """One byte past the limit is read, never the whole file."""
    from meneur.campaign.transfer import read_document

    sheet, log = tmp_path / "big.json", tmp_path / "big-log.json"
    with sheet.open("wb") as handle:
        handle.truncate(1_000_001)
    with log.open("wb") as handle:
        handle.truncate(50_000_001)
    with pytest.raises(SheetError, match="1000000"):
        read_sheet(sheet)
    with pytest.raises(SheetError, match="50000000"):
        read_document(log)


def test_a_named_pipe_never_blocks_and_a_device_is_refused(tmp_path: Path) -> None:
    """A named pipe nobody writes blocked the command for good at its opening: it now
    reads as empty at once (one error). A pipe with a writer (``<(command)``) is read;
    ``/dev/zero`` never ends and is refused as a device; a folder is a folder."""
    import os

    from meneur.campaign.transfer import read_document

    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    for read in (read_sheet, read_document):
        with pytest.raises(SheetError) as empty:
            read(pipe)
        assert "not valid JSON" in empty.value.message
        with pytest.raises(SheetError) as device:
            read(Path("/dev/zero"))
        assert "is a device" in device.value.message
    reading, writing = os.pipe()
    os.write(writing, b'{"name": "Pip"}')
    os.close(writing)
    try:
        assert read_sheet(Path(f"/dev/fd/{reading}")) == {"name": "Pip"}
    finally:
        os.close(reading)
    with pytest.raises(SheetError) as folder:
        read_sheet(tmp_path)
    assert "is a folder" in folder.value.message


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("deep.json", '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"),
        ("deep.toml", "a = " + "[" * 5_000 + "]" * 5_000 + "\n"),
    ],
)
def test_a_sheet_nested_too_deeply_is_one_error(tmp_path: Path, name: str, content: str) -> None:
    (tmp_path / name).write_text(content, encoding="utf-8")
    with pytest.raises(SheetError, match=name):  # not a RecursionError
        read_sheet(tmp_path / name)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("big.json", '{"system": "tunnels", "characteristics": {"Force": ' + "9" * 5000 + "}}"),
        ("big.toml", "vecu = " + "9" * 5000 + "\n"),
    ],
)
def test_a_number_of_thousands_of_digits_is_one_error(
    tmp_path: Path, name: str, content: str
) -> None:
    """Python refuses to read an integer of more than 4,300 digits with a ValueError that
    neither parser wraps: every reader of a sheet, an export or a log crashed on it."""
    (tmp_path / name).write_text(content, encoding="utf-8")
    with pytest.raises(SheetError, match=name) as caught:
        read_sheet(tmp_path / name)
    assert "trop long" in str(caught.value)  # French by default


def test_a_field_given_twice_in_a_json_sheet_is_refused(tmp_path: Path) -> None:
    """``"Force": 2, "Force": 50``: Python's JSON reader keeps the last silently, so the
    sheet rolled Force 50 where its reader sees 2 first; TOML refuses it, JSON now too,
    at any depth."""
    for content in (
        '{"system": "tunnels", "characteristics": {"Force": 2, "Force": 50}}',
        '{"name": "a", "name": "b"}',
    ):
        path = tmp_path / "twice.json"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(SheetError, match=r"twice\.json") as caught:
            read_sheet(path)
        assert "deux fois" in str(caught.value)  # French by default
    path.write_text('{"a": {"x": 1}, "b": {"x": 2}}', encoding="utf-8")
    assert read_sheet(path) == {"a": {"x": 1}, "b": {"x": 2}}  # one key in two objects


def test_an_export_is_named_as_typed(tmp_path: Path) -> None:
    """``verify <(cmd)`` named ``/dev/fd/63.json`` in its errors: an export is read as
    JSON whatever its name, and named as the user typed it."""
    from meneur.campaign.transfer import read_document

    path = tmp_path / "log.toml"
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(SheetError) as caught:
        read_document(path)
    assert f"{path} n'est pas du JSON valide" in str(caught.value)


def test_a_written_sheet_keeps_its_permissions(tmp_path: Path) -> None:
    """Every save went through a temporary file of mode 0600 (``mkstemp``), so a sheet
    shared as 0644 became readable by its owner alone; a new file follows the umask."""
    from meneur.files import write_text_atomically

    path = tmp_path / "shared.json"
    path.write_text("{}", encoding="utf-8")
    for mode in (0o644, 0o640):
        os.chmod(path, mode)
        write_text_atomically(path, '{"a": 1}')
        assert os.stat(path).st_mode & 0o777 == mode
    fresh = tmp_path / "fresh.json"
    mask = os.umask(0o022)
    os.umask(mask)
    write_text_atomically(fresh, "{}")
    assert os.stat(fresh).st_mode & 0o777 == 0o666 & ~mask


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    """A sheet saved by an editor that writes a byte order mark was « not valid JSON
    (line 1, column 1) », with nothing to say why."""
    for name, body in (("bom.json", b'{"a": 1}'), ("bom.toml", b"a = 1\n")):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + body)
        assert read_sheet(path) == {"a": 1}


def test_the_users_data_folder_is_the_config_folder_unless_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Overrides of the shipped rule data live in ``MENEUR_DATA_DIR``, else in the
    platform's config folder for meneur, under ``data``."""
    from platformdirs import user_config_dir

    from meneur.files import user_data_dir

    monkeypatch.setenv("MENEUR_DATA_DIR", str(tmp_path))
    assert user_data_dir() == tmp_path
    monkeypatch.delenv("MENEUR_DATA_DIR")
    assert user_data_dir() == Path(user_config_dir("meneur")) / "data"


def test_a_sheet_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    from meneur.files import MAX_SHEET_BYTES

    sheet = tmp_path / "full.json"
    body = '{"name": "Lyssia"}'
    sheet.write_text(body + " " * (MAX_SHEET_BYTES - len(body)), encoding="utf-8")
    assert sheet.stat().st_size == MAX_SHEET_BYTES
    assert read_sheet(sheet) == {"name": "Lyssia"}


def test_an_infinite_number_is_refused_and_echoed_short() -> None:
    """1e400 reads as Infinity in Python, which no other program reads back: refused,
    the number quoted back to 40 characters at most."""
    from meneur.files import NotANumber, strict_json

    assert strict_json("[1e300, -2.5]") == [1e300, -2.5]
    for text in ("1e400", "-1e400", "1" * 100 + "e400"):
        with pytest.raises(NotANumber) as caught:
            strict_json(f"[{text}]")
        assert str(caught.value) == text[:40]


def test_a_sheet_is_written_as_readable_utf8_json(tmp_path: Path) -> None:
    """Accents as they are (never ``\\u00c9``), two spaces of indent, a final newline: a
    sheet is a file people read and edit."""
    path = tmp_path / "elodie.json"
    write_sheet(path, {"nom": "Élodie", "a": {"b": 1}})
    assert path.read_text(encoding="utf-8") == (
        '{\n  "nom": "Élodie",\n  "a": {\n    "b": 1\n  }\n}\n'
    )


def test_a_new_sheet_takes_the_users_umask(tmp_path: Path) -> None:
    """A new file is 0666 under the umask (mkstemp's 0600 left a shared sheet unreadable
    to the group); the umask is read from the process, not set."""
    import stat

    mask = os.umask(0o022)
    os.umask(mask)
    path = tmp_path / "new.json"
    write_sheet(path, {"name": "Lyssia"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


def test_a_system_error_is_said_in_the_users_words(english: None) -> None:
    """os_reason: a host name that does not resolve, a lookup that cannot be made now,
    another lookup failure; an errno not listed keeps the system's words, cut to 120."""
    import errno
    import socket

    from meneur.files import os_reason

    assert str(os_reason(socket.gaierror(socket.EAI_NONAME, "x"))) == (
        "no computer answers to that name"
    )
    assert "network down" in str(os_reason(socket.gaierror(socket.EAI_AGAIN, "x")))
    assert str(os_reason(socket.gaierror(socket.EAI_FAIL, "x"))) == ("the name cannot be looked up")
    assert str(os_reason(OSError(errno.EACCES, "Permission denied"))) == "permission denied"
    assert os_reason(OSError(errno.ELOOP, "w" * 300)) == "w" * 120
    assert os_reason(OSError("no errno at all")) == "no errno at all"


TOML_SHEET = """\
# A hand-written sheet.
name = 'Aldo'  # a literal string
old = 1

[gear]
# what Aldo carries
rope = { length = 10, knots = [1, 2] }  # kept inline
torch = 2
"""


def test_a_toml_sheet_is_edited_in_place_keeping_what_the_user_wrote(tmp_path: Path) -> None:
    """Written back, a TOML sheet keeps its comments, bare keys, literal strings and
    inline tables: a value changes where it is, a key gone is removed, a new one added
    (a new table below the document inline, as sheets write them)."""
    path = tmp_path / "aldo.toml"
    path.write_text(TOML_SHEET, encoding="utf-8")
    data = read_sheet(path)
    del data["old"]
    data["gear"]["rope"]["length"] = 8
    data["gear"]["rope"]["knots"].append(3)
    data["gear"]["lamp"] = {"oil": 1}
    write_sheet(path, data)
    assert read_sheet(path) == data
    assert path.read_text(encoding="utf-8") == (
        "# A hand-written sheet.\n"
        "name = 'Aldo'  # a literal string\n"
        "\n"
        "[gear]\n"
        "# what Aldo carries\n"
        "rope = { length = 8, knots = [1, 2, 3] }  # kept inline\n"
        "torch = 2\n"
        "lamp = {oil = 1}\n"
    )


@pytest.mark.parametrize(
    ("before", "data"),
    [
        (None, {"name": "Aldo", "gear": {"rope": {"length": 10}}, "tags": [{"a": 1}]}),
        ("name = \n", {"name": "Aldo"}),  # no longer parses
        (b"\xff\xfe", {"name": "Aldo"}),  # not UTF-8
        # tomlkit fails to edit these dotted keys in place (IndexError in tomlkit 0.13-0.15)
        ("a.b = 1\na.c.d = 2\n[s]\ne.f = 3\n", {"a": {"n": 1, "m": {"o": [1]}}, "s": {}}),
        ("[u.v]\nz = 3\n", {"u": {}}),  # a table holding only tables, emptied
    ],
)
def test_a_toml_sheet_that_cannot_be_kept_is_written_afresh(
    tmp_path: Path, before: str | bytes | None, data: dict[str, object]
) -> None:
    """A TOML sheet missing, broken, or laid out so that it cannot be edited in place is
    written afresh by tomlkit: what is written always reads back as the data."""
    path = tmp_path / "aldo.toml"
    if isinstance(before, str):
        path.write_text(before, encoding="utf-8")
    elif isinstance(before, bytes):
        path.write_bytes(before)
    write_sheet(path, data)
    assert read_sheet(path) == data


@pytest.mark.parametrize(
    "value",
    ['a "quoted" word', "two\nlines", "«Élodie» 🗡", "'''\"\"\"\\", "bell \x07 escape \x1b", ""],
)
def test_a_string_written_to_a_toml_sheet_reads_back_as_it_was(tmp_path: Path, value: str) -> None:
    path = tmp_path / "aldo.toml"
    path.write_text(TOML_SHEET, encoding="utf-8")
    data = read_sheet(path)
    data["name"] = value
    data["gear"]["rope"]["note"] = value
    write_sheet(path, data)
    assert read_sheet(path) == data
    assert "# what Aldo carries" in path.read_text(encoding="utf-8")
