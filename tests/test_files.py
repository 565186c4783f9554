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
