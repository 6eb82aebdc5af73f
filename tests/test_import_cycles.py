"""No import circles in ``bot/`` and ``cogs/`` (design/ARCHITECTURE.md §5), checked with ``ast``.

A lower room never imports a higher one, *not even under* ``TYPE_CHECKING``: a circle that only
type checkers follow still ties the two modules' designs together, and is one runtime import
away from an ``ImportError`` on a partly initialised module. So every import statement counts,
wherever it is: module level, ``if TYPE_CHECKING:`` blocks, function bodies, ``try`` blocks.

The graph has one node per module of the checked packages and one edge per import of another
of them:

* ``import a.b.c`` depends on ``a.b.c`` (the longest prefix that is one of our modules);
* ``from a.b import c`` depends on the submodule ``a.b.c`` when there is one, else on ``a.b``
  (``c`` is then a name defined in ``a.b``); relative imports are resolved first;
* a package's ``__init__`` importing its own children is an edge like any other (a child that
  imports names from its package's ``__init__`` while that ``__init__`` imports the child is
  a circle). The implicit import of a module's parent packages is not an edge: every module
  of a package would otherwise depend on its ``__init__``.

Imports by string (``importlib.import_module``) are not seen. The strongly connected components
of more than one module are the circles; each is reported with one shortest import chain
through it and the lines of its imports.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")

#: module -> {imported module: line of the first such import}
Graph = dict[str, dict[str, int]]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module under ``root/<package>`` by dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(root, path)] = path
    return found


def _known_prefix(name: str, known: Mapping[str, Path]) -> str | None:
    """``name`` or its longest dotted prefix that is one of ``known``."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


#: The fields of a statement that hold nested statements (``if``/``else``, loops, ``with``,
#: ``try``/``except``/``finally``, ``match`` cases, function and class bodies).
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def import_statements(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, in source order, however deeply nested.

    Imports are statements, so only statement blocks are visited, never expressions: about a
    tenth of ``ast.walk``'s work, which keeps the whole check well under a second.
    """
    todo: list[Any] = list(reversed(tree.body))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        nested: list[Any] = []
        for field in _BLOCKS:
            nested += getattr(node, field, None) or ()
        todo.extend(reversed(nested))


def imports_of(
    tree: ast.Module, module: str, is_package: bool, known: Mapping[str, Path]
) -> dict[str, int]:
    """The modules of ``known`` that ``module``'s source imports, with the line of the first
    import of each (every import statement in the tree, nested ones included)."""
    out: dict[str, int] = {}

    def add(target: str | None, line: int) -> None:
        if target is not None and target != module and target not in out:
            out[target] = line

    # The package a relative import starts from: a package's own name, else its parent's.
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in import_statements(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(_known_prefix(alias.name, known), node.lineno)
        else:
            if node.level:
                base_parts = here[: len(here) - (node.level - 1)]
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            named_module = False
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if alias.name != "*" and sub in known:
                    add(sub, node.lineno)
                    named_module = True
            if not named_module:
                add(_known_prefix(base, known), node.lineno)
            elif any(f"{base}.{a.name}" not in known for a in node.names):
                # ``from pkg import submodule, name``: the name comes from ``pkg`` itself
                add(_known_prefix(base, known), node.lineno)
    return out


def import_graph(root: Path, packages: Iterable[str] = PACKAGES) -> tuple[Graph, dict[str, Path]]:
    modules = find_modules(root, packages)
    graph: Graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_bytes(), filename=str(path))
        graph[name] = imports_of(tree, name, path.name == "__init__.py", modules)
    return graph, modules


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one node, each sorted, iteratively
    (no recursion limit however long a chain of imports)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        # Each frame: a node and the iterator over its successors still to visit.
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(graph.get(start, ()))))]
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def example_chain(graph: Mapping[str, Iterable[str]], component: list[str]) -> list[str]:
    """A shortest import chain from the component's first module back to itself, inside it."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph.get(node, ())):
            if nxt not in members:
                continue
            if nxt == start:  # back at the start: the path to ``node``, then ``start``
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{component} is not a circle")


def describe(graph: Graph, modules: Mapping[str, Path], root: Path, cycles: list[list[str]]) -> str:
    lines = [f"{len(cycles)} import circle(s) (ARCHITECTURE §5; TYPE_CHECKING imports count):"]
    for component in cycles:
        chain = example_chain(graph, component)
        lines.append(f"- {len(component)} modules: {', '.join(component)}")
        lines.append(f"  e.g. {' -> '.join(chain)}")
        for a, b in pairwise(chain):
            lines.append(f"    {modules[a].relative_to(root)}:{graph[a][b]} imports {b}")
    return "\n".join(lines)


# ---- the project ---------------------------------------------------------------------------


def test_no_import_circles() -> None:
    graph, modules = import_graph(ROOT)
    assert len(modules) > 100, "bot/ and cogs/ not found"
    cycles = strongly_connected(graph)
    assert cycles == [], describe(graph, modules, ROOT, cycles)


# ---- the checker itself ----------------------------------------------------------------------


def test_finds_components_and_a_chain_in_a_graph() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["d", "e"]]
    assert example_chain(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert example_chain(graph, ["d", "e"]) == ["d", "e", "d"]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_a_long_chain_needs_no_recursion() -> None:
    n = 20_000  # far beyond Python's default recursion limit
    graph = {f"m{i}": {f"m{(i + 1) % n}"} for i in range(n)}
    (component,) = strongly_connected(graph)
    assert len(component) == n


def _tree(root: Path, files: Mapping[str, str]) -> None:
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def test_a_circle_closed_only_under_type_checking_is_found(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/rules.py": "from pkg import fast\n",  # a submodule, not a name of ``pkg``
            "pkg/fast.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from pkg.rules import Rules\n"
            ),
        },
    )
    graph, modules = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.rules"] == {"pkg.fast": 1}
    assert graph["pkg.fast"] == {"pkg.rules": 3}
    cycles = strongly_connected(graph)
    assert cycles == [["pkg.fast", "pkg.rules"]]
    message = describe(graph, modules, tmp_path, cycles)
    assert "pkg.fast -> pkg.rules -> pkg.fast" in message
    assert "pkg/fast.py:3 imports pkg.rules" in message


def test_relative_and_function_level_imports_close_circles(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "def late():\n    from pkg.sub import worker\n",
            "pkg/sub/worker.py": "from .. import base\nfrom . import late\n",  # a name of sub
            "pkg/base.py": "import json\nfrom pkg.sub.worker import *\n",
            "pkg/leaf.py": "import pkg.base as b\nfrom .base import thing\n",
        },
    )
    graph, _ = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.sub.worker"] == {"pkg.base": 1, "pkg.sub": 2}
    assert graph["pkg.sub"] == {"pkg.sub.worker": 2}  # a package importing its own child
    assert graph["pkg.base"] == {"pkg.sub.worker": 2}  # stdlib imports are no edges
    assert graph["pkg.leaf"] == {"pkg.base": 1}
    assert strongly_connected(graph) == [["pkg.base", "pkg.sub", "pkg.sub.worker"]]


def test_imports_in_every_kind_of_block_are_seen() -> None:
    source = """
import m0
if TYPE_CHECKING:
    import m1
else:
    import m2
for x in y:
    import m3
else:
    import m4
while z:
    import m5
with w:
    import m6
try:
    import m7
except ImportError:
    import m8
else:
    import m9
finally:
    import m10
try:
    pass
except* ValueError:
    import m11
match v:
    case 1:
        import m12
class C:
    import m13
    def f(self):
        async def g():
            async with a:
                import m14
            async for b in c:
                import m15
        return lambda: __import__("not_seen")
"""
    tree = ast.parse(source)
    seen = [n.names[0].name for n in import_statements(tree) if isinstance(n, ast.Import)]
    assert seen == [f"m{i}" for i in range(16)]
    every = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert len(every) == len(seen)


def test_one_way_imports_pass(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/state.py": "import dataclasses\n",
            "pkg/fast.py": "from pkg.state import State\n",
            "pkg/rules.py": "from pkg import fast, state\nfrom pkg.fast import apply\n",
        },
    )
    graph, _ = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.rules"] == {"pkg.fast": 1, "pkg.state": 1}
    assert strongly_connected(graph) == []
