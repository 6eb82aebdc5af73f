"""Layering rules of design/ARCHITECTURE.md §1, checked on the source with ``ast``.

* ``bot/engine`` imports only the standard library and ``bot.engine`` itself; never asyncio,
  sqlite3, time or datetime; no module-level ``random`` functions (only ``random.Random(seed)``).
* ``bot/db``, ``bot/services`` and ``bot/ai`` never import discord.
* ``bot/ui``'s rooms (§6) import only the rooms below them, and never ``bot.client`` or a cog,
  not even under ``TYPE_CHECKING``; the games registry (``bot.ui.games`` itself) is below all.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bot" / "engine"
NO_DISCORD = [ROOT / "bot" / "db", ROOT / "bot" / "services", ROOT / "bot" / "ai"]
ENGINE_BANNED = {"asyncio", "sqlite3", "time", "datetime"}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import, relative imports resolved."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield node.lineno, name
            # "from bot import engine" style: the imported names may be modules
            for alias in node.names:
                yield node.lineno, f"{name}.{alias.name}"


def engine_violations(source: str, module: str = "bot.engine.x", is_package: bool = False):
    """Problems in one engine module's source (empty list when clean)."""
    tree = ast.parse(source)
    out: list[str] = []
    for line, name in _imports(tree, module, is_package):
        top = name.split(".")[0]
        if name == "bot" or name.startswith("bot."):
            if not (name == "bot.engine" or name.startswith("bot.engine.")) and name not in (
                "bot",
            ):
                out.append(f"line {line}: imports {name} (outside bot.engine)")
            continue
        if top in ENGINE_BANNED:
            out.append(f"line {line}: imports {top} (clock/IO/async are not allowed)")
        elif top not in STDLIB:
            out.append(f"line {line}: imports {name} (not the standard library)")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            for alias in node.names:
                if alias.name != "Random":
                    out.append(f"line {node.lineno}: from random import {alias.name}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "random"
        ):
            if node.func.attr != "Random":
                out.append(f"line {node.lineno}: random.{node.func.attr}() uses global state")
            elif not node.args and not node.keywords:
                out.append(f"line {node.lineno}: random.Random() without a seed")
    return out


def discord_violations(source: str) -> list[str]:
    tree = ast.parse(source)
    return [
        f"line {line}: imports {name}"
        for line, name in _imports(tree, "bot.x.y", False)
        if name == "discord" or name.startswith("discord.")
    ]


def _py_files(*dirs: Path) -> list[Path]:
    return sorted(p for d in dirs if d.is_dir() for p in d.rglob("*.py"))


def test_engine_files_exist() -> None:
    names = {p.name for p in _py_files(ENGINE)}
    assert {"match.py", "scenario.py", "la_morte.py"} <= names


@pytest.mark.parametrize("path", _py_files(ENGINE), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_is_pure(path: Path) -> None:
    problems = engine_violations(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )
    assert problems == [], f"{path.relative_to(ROOT)}: " + "; ".join(problems)


@pytest.mark.parametrize(
    "path", _py_files(*NO_DISCORD) or [None], ids=lambda p: str(p.relative_to(ROOT)) if p else "-"
)
def test_no_discord_below_ui(path: Path | None) -> None:
    if path is None:
        pytest.skip("no files yet")
    problems = discord_violations(path.read_text(encoding="utf-8"))
    assert problems == [], f"{path.relative_to(ROOT)}: " + "; ".join(problems)


# ---- bot/ui's rooms -------------------------------------------------------------------------

#: bot/ui's rooms, lowest first: each may import the rooms before it, never one after it.
UI_ROOMS = ("text", "pictures", "components", "games", "delivery", "handlers")
UI = ROOT / "bot" / "ui"


def ui_room(module: str) -> str | None:
    """The room of a ``bot.ui`` module (``registry``: the ``bot.ui.games`` package itself, which
    finds each game's module by name and imports none); None outside ``bot.ui``'s rooms."""
    parts = module.split(".")
    if parts[:3] == ["bot", "ui", "games"] and (
        len(parts) == 3 or parts[3] in ("renderer", "game_title")
    ):
        return "registry"
    if parts[:2] == ["bot", "ui"] and len(parts) > 2 and parts[2] in UI_ROOMS:
        return parts[2]
    return None


def ui_violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """Imports of one ``bot/ui`` module that reach up a room, or out to the bot or the cogs."""
    mine = ui_room(module)
    out: list[str] = []
    for line, name in _imports(ast.parse(source), module, is_package):
        if name == "bot.client" or name.startswith(("bot.client.", "cogs")):
            out.append(f"line {line}: imports {name} (handlers are handed the bot: a Protocol)")
            continue
        theirs = ui_room(name)
        if mine is None or theirs is None or theirs == "registry" or theirs == mine:
            continue
        if mine == "registry" or UI_ROOMS.index(theirs) > UI_ROOMS.index(mine):
            out.append(f"line {line}: imports {name} (room {theirs}, above {mine})")
    return out


@pytest.mark.parametrize("path", _py_files(UI), ids=lambda p: str(p.relative_to(ROOT)))
def test_ui_rooms_import_downwards(path: Path) -> None:
    problems = ui_violations(
        path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py"
    )
    assert problems == [], f"{path.relative_to(ROOT)}: " + "; ".join(problems)


def test_ui_room_checker() -> None:
    handlers = "from bot.ui.handlers.controller import TableController"
    assert ui_violations(handlers, "bot.ui.components.table") != []
    assert ui_violations("from bot.client import TrionfiBot", "bot.ui.handlers.desk") != []
    assert ui_violations("from bot.ui.games.la_morte import TITLE", "bot.ui.text.render") != []
    assert ui_violations("from bot.ui.games import renderer", "bot.ui.text.render") == []
    assert ui_violations("from bot.ui.text.cards import label", "bot.ui.games") != []
    assert ui_violations("from bot.ui.components.table import TableButton", "bot.ui.games.x") == []


# ---- the checker itself catches what it should --------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import asyncio",
        "import time",
        "from datetime import datetime",
        "import sqlite3",
        "import discord",
        "import aiosqlite",
        "from bot.db import database",
        "from bot import services",
        "from ...services import x",
        "import random\nrandom.shuffle(x)",
        "import random\nx = random.randint(1, 6)",
        "from random import shuffle",
        "import random\nr = random.Random()",
    ],
)
def test_checker_flags(source: str) -> None:
    assert engine_violations(source, "bot.engine.games.g") != []


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations",
        "import json, typing, dataclasses",
        "from collections.abc import Sequence",
        "from bot.engine import codec, match",
        "from bot.engine.games.la_morte import LaMorteRules",
        "from . import la_morte",
        "from ..rules import Rules",
        "import random\nrng = random.Random(seed)\nrng.shuffle(x)",
        "from random import Random",
    ],
)
def test_checker_allows(source: str) -> None:
    assert engine_violations(source, "bot.engine.games.g") == []


def test_discord_checker() -> None:
    assert discord_violations("import discord.ext.commands") != []
    assert discord_violations("from discord import Interaction") != []
    assert discord_violations("import aiosqlite") == []
