"""The rules reference lives in the project: every cited rule id resolves in docs/rules.md.

Code, tests, guides and the web cite rules by id (``T-5``, ``O-10``, ``L-13``, or ``T5`` in a
test's name). These checks read the repository's own text: an id cited anywhere in ``src/``,
``tests/``, ``docs/`` or the README must have its heading in ``docs/rules.md``, and every
rule there should be cited by at least one test (DESIGN: "a check lists rule ids without a
test").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
SCANNED = (ROOT / "src", ROOT / "tests", ROOT / "docs", ROOT / "README.md")
TEXT_SUFFIXES = {".py", ".md", ".html", ".toml", ".po", ".js", ".css", ".txt", ".json", ".cfg"}
EXPECTED = {"T": 13, "O": 42, "K": 7, "L": 14}
"""How many rules each system has (T-1..T-13, O-1..O-42, K-1..K-7, L-1..L-14)."""

CITATION = re.compile(r"(?<![\w-])([TOKL])-(\d{1,3})(?![\w-])")
"""``T-5``, ``O-10``: not ``ISO-8601``, ``x-T-5`` or ``T-5-explosion`` (an anchor)."""
TEST_NAME = re.compile(r"\bdef (test_(?:[TOKL]\d{1,3}_)+)")
"""``def test_L4_L5_crowd...`` cites L-4 and L-5."""
HEADING = re.compile(r"^### ([TOKL]-\d+) \S", re.MULTILINE)
ANCHOR_LINK = re.compile(r"rules\.md#([^\s)`\"'>]+)")

KNOWN_UNTESTED: frozenset[str] = frozenset()
"""Rule ids no test cites yet. Empty today: a new rule must come with its test."""


def documented() -> list[str]:
    return HEADING.findall(RULES.read_text(encoding="utf-8"))


def text_files(*roots: Path) -> Iterator[Path]:
    for root in roots:
        if root.is_file():
            yield root
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in TEXT_SUFFIXES and ".venv" not in path.parts:
                yield path


def citations(text: str) -> set[str]:
    """The rule ids a text cites, by ``X-n`` or by a test's name ``test_Xn_``."""
    found = {f"{letter}-{int(number)}" for letter, number in CITATION.findall(text)}
    for name in TEST_NAME.findall(text):
        found.update(f"{part[0]}-{int(part[1:])}" for part in name.split("_")[1:] if part)
    return found


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def test_every_rule_id_has_exactly_one_heading() -> None:
    """docs/rules.md holds T-1..T-13, O-1..O-42, K-1..K-7, L-1..L-14, each once, in order."""
    ids = documented()
    expected = [f"{letter}-{n}" for letter, count in EXPECTED.items() for n in range(1, count + 1)]
    assert ids == expected


def test_every_cited_rule_id_resolves_in_docs_rules() -> None:
    """Every id cited in src/, tests/, docs/ and the README has its entry in docs/rules.md."""
    known = set(documented())
    missing: dict[str, set[str]] = {}
    for path in text_files(*SCANNED):
        for rule in citations(path.read_text(encoding="utf-8", errors="replace")) - known:
            missing.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_links_into_docs_rules_point_at_a_heading() -> None:
    """``rules.md#t-5-explosion`` style links name a heading that exists."""
    headings = re.findall(r"^#{1,6} (.+)$", RULES.read_text(encoding="utf-8"), re.MULTILINE)
    anchors = {slug(h) for h in headings}
    assert "t-5-explosion" in anchors
    broken = {
        (str(path.relative_to(ROOT)), anchor)
        for path in text_files(*SCANNED)
        for anchor in ANCHOR_LINK.findall(path.read_text(encoding="utf-8", errors="replace"))
        if anchor not in anchors and "{" not in anchor
    }
    assert not broken


def test_rule_ids_without_a_test() -> None:
    """The rules no test cites (printed); the list may only shrink."""
    cited: set[str] = set()
    for path in text_files(ROOT / "tests"):
        if path.suffix == ".py":
            cited |= citations(path.read_text(encoding="utf-8"))
    untested = [rule for rule in documented() if rule not in cited]
    print("rule ids without a test:", ", ".join(untested) or "none")
    assert set(untested) <= KNOWN_UNTESTED, f"rules without a test: {untested}"


def test_the_citation_pattern_skips_look_alikes() -> None:
    """The scanner's own reading: ids and test names count, anchors and ISO numbers do not."""
    assert citations("T-5, O-10 (L-13); def test_O24_L4_coma():") == {
        "T-5",
        "O-10",
        "L-13",
        "O-24",
        "L-4",
    }
    assert citations("ISO-8601 rules.md#t-5-explosion x-T-5 T-5-explosion") == set()
    assert slug("O-4 Potentiel d'Action (PA)") == "o-4-potentiel-daction-pa"
