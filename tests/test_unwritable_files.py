"""A file that cannot be written is said in one line before anything is stored or computed.

``character new --out FILE`` stores the character, then writes the sheet: a folder that
does not exist or a name too long for the file system used to leave the character stored
while the command failed (run again, it was « already stored »). ``--plot FILE`` used to
compute everything and then end in a traceback. Both now check the file first
(:func:`meneur.files.check_writable`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import Result, invoke
from meneur.errors import SheetError
from meneur.files import check_writable
from meneur.locale import set_language

Capsys = pytest.CaptureFixture[str]
TOO_LONG = "x" * 300 + ".json"  # over the 255 bytes a file name may take


@pytest.fixture(autouse=True)
def _database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MENEUR_DB_URL", f"sqlite:///{tmp_path / 'files.db'}")


def one_line(result: Result, *said: str) -> None:
    assert result.status == 2, result.err
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1
    for words in said:
        assert words in result.err, result.err


def unwritable(tmp_path: Path) -> list[tuple[Path, str]]:
    return [
        # the system's reason in the user's words (strerror is English: files.os_reason)
        (tmp_path / "missing" / "sheet.json", "no such file or folder"),
        (tmp_path / TOO_LONG, "the name is too long"),
    ]


def test_check_writable_leaves_nothing_behind(tmp_path: Path) -> None:
    check_writable(tmp_path / "sheet.json")
    assert list(tmp_path.iterdir()) == []
    french = ["fichier ou dossier introuvable", "le nom est trop long"]
    for (path, reason), translated in zip(unwritable(tmp_path), french, strict=True):
        with pytest.raises(SheetError) as caught:
            check_writable(path)
        assert translated in str(caught.value)  # the tests' language is French
        set_language("en")
        assert reason in str(caught.value)  # translated when shown, not when raised
        set_language("fr")


@pytest.mark.parametrize("system", ["tunnels", "krasses"])
def test_character_new_stores_nothing_when_its_file_cannot_be_written(
    capsys: Capsys, tmp_path: Path, system: str
) -> None:
    for path, reason in unwritable(tmp_path):
        name = ["Pip"] if system == "tunnels" else ["--name", "Pip"]
        made = invoke(capsys, "--lang", "en", "character", "new", system, *name, "--out", str(path))
        one_line(made, "Cannot write", reason)
    listed = invoke(capsys, "--lang", "en", "character", "list", "--json")
    assert listed.status == 0 and listed.json() == []  # nothing was stored
    made = invoke(capsys, "character", "new", system, *name, "--out", str(tmp_path / "p.json"))
    assert made.status == 0, made.err  # and the name is still free
    assert (tmp_path / "p.json").exists()


def test_a_plot_that_cannot_be_written_is_refused_before_the_work(
    capsys: Capsys, tmp_path: Path
) -> None:
    target = tmp_path / ("x" * 300 + ".png")
    drawn = invoke(
        capsys, "--lang", "en", "odds", "tunnels", "--dice", "3", "--threshold", "2",
        "--plot", str(target),
    )  # fmt: skip
    one_line(drawn, "Cannot write", "the name is too long")
    from meneur.lab.plot import check_path

    with pytest.raises(SheetError, match="the name is too long"):  # checked before the work
        check_path(target)
    assert not [path for path in tmp_path.iterdir() if ".png" in path.name]


@pytest.mark.parametrize("system", ["tunnels", "krasses"])
def test_character_new_out_a_folder_stores_nothing(
    capsys: Capsys, tmp_path: Path, system: str
) -> None:
    """The temporary file beside a folder can be made; the rename onto it cannot: the
    character used to be stored while the command failed."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    name = ["Pip"] if system == "tunnels" else ["--name", "Pip"]
    made = invoke(capsys, "--lang", "en", "character", "new", system, *name, "--out", str(folder))
    one_line(made, "is a folder")
    listed = invoke(capsys, "--lang", "en", "character", "list", "--json")
    assert "Pip" not in listed.out
    assert list(folder.iterdir()) == []


def test_out_empty_is_the_current_folder_and_stores_nothing(capsys: Capsys) -> None:
    """``--out ""`` is the current folder: « Impossible d'écrire . : Device or resource
    busy » became a clear line, in French, and the export wrote nothing."""
    made = invoke(capsys, "character", "new", "tunnels", "Zed", "--seed", "3")
    assert made.status == 0, made.err
    one_line(invoke(capsys, "character", "export", "Zed", "--out", ""), "est un dossier")


def test_a_write_through_a_link_changes_the_file_it_leads_to(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet reached by a link is written where the link leads, the link kept: the
    rename replaced the link by a file, so the user's real sheet never took the damage
    (and a link to another file system could not be renamed over)."""
    monkeypatch.chdir(tmp_path)
    real = tmp_path / "real"
    real.mkdir()
    source = Path(__file__).parents[1] / "examples" / "obscur" / "isaure.json"
    (real / "isaure.json").write_text(source.read_text("utf-8"), "utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real / "isaure.json")
    hurt = invoke(capsys, "hurt", "obscur", "--sheet", str(link), "--fall", "6", "--seed", "3")
    assert hurt.status == 0, hurt.err
    assert link.is_symlink()
    assert (real / "isaure.json").read_text("utf-8") != source.read_text("utf-8")
    assert [p.name for p in real.iterdir()] == ["isaure.json"]  # no temporary left


def test_a_device_or_a_pipe_is_refused_not_replaced(capsys: Capsys, tmp_path: Path) -> None:
    """``--out /dev/null`` replaced the device by a JSON file (as root, the system's own);
    a pipe became a plain file. Both are refused, and stay what they were. (A pipe stands
    for both here: were the refusal broken, this test must not replace a real device.)"""
    import os
    import stat

    assert invoke(capsys, "character", "new", "tunnels", "Pip", "--seed", "1").status == 0
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    exported = invoke(capsys, "--lang", "en", "character", "export", "--out", str(pipe))
    one_line(exported, "is not a file (a device or a pipe)")
    with pytest.raises(SheetError):
        check_writable(pipe)
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_a_tilde_is_a_folder_name_for_the_check_as_for_the_write(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--out '~/q.json'`` (quoted: no shell expanded it) passed the check, which read
    ``~`` as the home folder, then failed the write: the character was stored, without
    its log entry, and its name taken. Both read the path as typed now."""
    monkeypatch.chdir(tmp_path)
    made = invoke(capsys, "--lang", "en", "character", "new", "tunnels", "T4", "--out", "~/q.json")
    one_line(made, "Cannot write", "no such file or folder")
    listed = invoke(capsys, "character", "list", "--json")
    assert listed.status == 0 and listed.json() == []


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_long_path_is_shown_by_its_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    """A message keeps the end of a long path (its file's name): these refusals cut the
    path to its first 200 characters before the message bounded it by its end, so a
    deep file's name was lost from the line."""
    import os

    deep = tmp_path.joinpath(*["dossier-assez-long"] * 14)
    deep.mkdir(parents=True)
    target = deep / "fiche-de-zed.json"
    if kind == "folder":
        target.mkdir()
    else:
        os.mkfifo(target)
    assert len(str(target)) > 200
    made = invoke(
        capsys, "--lang", "en", "character", "new", "tunnels", "Zed", "--out", str(target)
    )
    one_line(made, "fiche-de-zed.json")
