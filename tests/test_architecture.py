"""No import circle crosses a package (issue 14): the layers hold, imports inside functions too.

``lint-imports`` (contracts in pyproject.toml) checks who may import whom; this test checks
what the contracts cannot say, that no two packages import each other through any chain
of imports, TYPE_CHECKING imports aside. Within one system's package, a check's hooks and
its odds and numpy modules may import each other (the check delegates to them, they read
its types): those circles stay inside the package and are allowed.
"""

from __future__ import annotations

import sys

import grimp


def _circles() -> list[list[str]]:
    graph = grimp.build_graph("meneur", exclude_type_checking_imports=True)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_import_circle_crosses_a_package() -> None:
    crossing = [c for c in _circles() if len({m.rpartition(".")[0] for m in c}) > 1]
    assert crossing == [], crossing


def test_cli_and_lab_name_no_system() -> None:
    """Issue 14: the CLI and the lab reach systems through the registry and the hooks of
    ``System`` only; no line of theirs spells a system's name, title or alias (a fifth
    system adds nothing there). Imports of a system's modules are refused by
    ``lint-imports`` (contract ``interfaces-name-no-system``)."""
    from pathlib import Path

    import meneur
    from meneur.systems.registry import SYSTEMS
    from meneur.text import fold

    names = {fold(word) for s in SYSTEMS for word in (s.name, s.title, *s.aliases)}
    root = Path(meneur.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for package in ("cli", "lab")
        for path in sorted((root / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(name in fold(line) for name in names)
    ]
    assert found == [], found
