"""Find user-facing English left outside the catalogs (the lint of issue 19).

A string literal in ``bot/ui``, ``bot/services`` or ``cogs`` is *text* when it holds two words
("Your hand", "You must follow"), or one capitalised word ("Join", "Trumps", "Kn") — what users
read. Text must be a ``_()``/``n_()``/``N_()`` message (``bot.i18n``). Not text: docstrings,
log calls, strings compared or used as keys, ``getattr`` names, and lines marked
``# i18n: code`` (an identifier that looks like a word, e.g. a ``custom_id`` part).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot/ui", "bot/services", "cogs")
WRAPPERS = {"_", "n_", "N_", "p_"}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}
NOT_TEXT_CALLS = {"getattr", "hasattr", "setattr", "startswith", "endswith", "removeprefix"}
NOT_TEXT_CALLS |= {"removesuffix", "split", "get", "pop", "setdefault", "strftime", "strptime"}
NOT_TEXT_CALLS |= {"attempt"}  # bot.ui.delivery.failures.attempt(call, what): "what" is for logs
NOT_TEXT_CALLS |= {"_post_ping"}  # Hands._post_ping(table, seat, text, what): "what" too
NOT_TEXT_CALLS |= {"Retry"}  # bot.ui.delivery.failures.Retry(reason): logged, never shown
NOT_TEXT_CALLS |= {"open_in_dms"}  # bot.ui.handlers.in_dms: its "what" is for logs, as attempt's
# The slash commands' own strings: translated through the ``commands`` catalog area
# (``bot.i18n.commands``), which reads them from the command tree.
COMMAND_CALLS = {"Choice", "describe", "rename", "command", "Group", "choices"}
MARKER = "# i18n: code"
_WORD = r"[^\W\d_]{2,}"
_TWO_WORDS = re.compile(rf"{_WORD}[^\S\n]+(?:\W*){_WORD}")
_CAPITALISED = re.compile(r"^\W*[A-Z][a-z]+\b(?!\.\w)")  # "Join", "Kn"; not "Font.ttf"


def is_text(value: str) -> bool:
    return bool(_TWO_WORDS.search(value) or _CAPITALISED.match(value))


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _exempt(tree: ast.AST) -> set[int]:
    """Ids of nodes whose strings are not text: inside wrappers, log calls, comparisons,
    subscripts, dict keys, and the string arguments of ``NOT_TEXT_CALLS``."""
    out: set[int] = set()

    def cover(node: ast.AST) -> None:
        out.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _call_name(node)
            logged = name in LOGGING and isinstance(node.func, ast.Attribute)
            if name in WRAPPERS | NOT_TEXT_CALLS | COMMAND_CALLS or logged:
                cover(node)
        elif isinstance(node, ast.Compare):
            cover(node)
        elif isinstance(node, ast.Subscript):
            cover(node.slice)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    cover(key)
        elif isinstance(node, ast.ClassDef):  # group_name=…, group_description=…
            for keyword in node.keywords:
                cover(keyword.value)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                cover(case.pattern)
    return out


def findings(path: Path) -> Iterator[Finding]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    skip = _docstrings(tree) | _exempt(tree)
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.Constant):
            continue
        if not isinstance(node.value, str) or not is_text(node.value):
            continue
        if MARKER in lines[node.lineno - 1]:
            continue
        rel = str(path.relative_to(ROOT))
        yield Finding(rel, node.lineno, node.value)


def scan() -> list[Finding]:
    out: list[Finding] = []
    for root in SCANNED:
        for path in sorted((ROOT / root).rglob("*.py")):
            out.extend(findings(path))
    return out


if __name__ == "__main__":
    found = scan()
    for f in found:
        print(f)
    print(f"{len(found)} untranslated literals")
