"""The rules panel of the table: the entries of ``docs/rules.md``, shipped with the package.

``docs/rules.md`` is the reference every rule id (``T-5``, ``O-10``...) points to. The
table links each id it shows to that rule's entry in an in-page panel; an installed wheel
has no ``docs/`` folder, so the entries travel as ``static/rules.json``, made from the
Markdown by ``python -m meneur.web.rulesdoc`` (a test fails when the two differ).

The entries' Markdown is a small, known subset (paragraphs, ``code``, **strong**,
*emphasis*, [links](x)): :func:`entry_html` renders it after escaping every character, so
the panel holds no HTML but its own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

JSON_PATH = Path(__file__).parent / "static" / "rules.json"
RULE_ID = re.compile(r"(?<![\w-])([TOKL]-\d{1,3})(?![\w-])")
"""A rule id as the pages cite it: ``T-5``, not ``ISO-8601`` nor ``T-5-explosion``."""
HEADING = re.compile(r"^### ([TOKL]-\d+) (.+)$")
SECTION = re.compile(r"^## [A-Z] — (.+)$")
"""A system's section (``## X — Its title``): its entries belong to the system so titled."""
INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\([^)]*\)")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    title: str
    body: str
    """The entry's Markdown, paragraphs separated by blank lines."""
    system: str = ""
    """The title of the system whose section holds the entry."""


def parse(markdown: str) -> list[Rule]:
    """Every ``### X-n Title`` entry of the rules reference, in order."""
    rules: list[Rule] = []
    current: tuple[str, str] | None = None
    section = ""
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            rules.append(Rule(current[0], current[1], "\n".join(lines).strip(), section))

    for line in markdown.splitlines():
        found = HEADING.match(line)
        if found or line.startswith(("## ", "# ")):
            close()
            titled = SECTION.match(line)
            section = titled.group(1).strip() if titled else section
            current = (found.group(1), found.group(2).strip()) if found else None
            lines = []
        elif current is not None:
            lines.append(line)
    close()
    return rules


@cache
def rules() -> dict[str, Rule]:
    """The shipped entries by id (read once)."""
    data = json.loads(JSON_PATH.read_text(encoding="utf-8"))
    return {
        item["id"]: Rule(item["id"], item["title"], item["body"], item["system"]) for item in data
    }


def _inline(text: str) -> str:
    out: list[str] = []
    last = 0
    for found in INLINE.finditer(text):
        out.append(str(escape(text[last : found.start()])))
        code, strong, em, link = found.groups()
        if code is not None:
            out.append(f"<code>{escape(code)}</code>")
        elif strong is not None:
            out.append(f"<strong>{escape(strong)}</strong>")
        elif em is not None:
            out.append(f"<em>{escape(em)}</em>")
        else:
            out.append(str(escape(link)))  # the other guides are not on the table's site
        last = found.end()
    out.append(str(escape(text[last:])))
    return "".join(out)


def entry_html(rule: Rule) -> Markup:
    """The entry's body as HTML paragraphs (everything escaped first)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", rule.body) if p.strip()]
    return Markup("".join(f"<p>{_inline(' '.join(p.split()))}</p>" for p in paragraphs))


def link_rules(text: str) -> Markup:
    """``text`` escaped, each known rule id in it a link to its entry in the panel."""
    known = rules()
    out: list[str] = []
    last = 0
    for found in RULE_ID.finditer(text):
        out.append(str(escape(text[last : found.start()])))
        rule = found.group(1)
        if rule in known:
            out.append(f'<a class="rule-link" href="#rule-{rule}">{rule}</a>')
        else:
            out.append(str(escape(rule)))
        last = found.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))


def for_systems(titles: set[str]) -> list[tuple[Rule, Markup]]:
    """The entries of the systems so titled (all of them for none)."""
    return [
        (rule, entry_html(rule)) for rule in rules().values() if not titles or rule.system in titles
    ]


def build(source: Path) -> str:
    """``static/rules.json`` as made from ``source`` (``docs/rules.md``)."""
    entries = [
        {"id": r.id, "title": r.title, "system": r.system, "body": r.body}
        for r in parse(source.read_text(encoding="utf-8"))
    ]
    return json.dumps(entries, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    """Remake ``static/rules.json`` from the repository's ``docs/rules.md``."""
    source = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
    JSON_PATH.write_text(build(source), encoding="utf-8")


if __name__ == "__main__":
    main()
