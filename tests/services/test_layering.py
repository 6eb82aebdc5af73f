"""bot/db, bot/services and bot/ai never import discord (ARCHITECTURE.md §1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["bot/db", "bot/services", "bot/ai"])
def test_no_discord_imports(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] != "discord", f"{path}: imports {name}"


def test_ai_is_stdlib_and_engine_only() -> None:
    for path in sorted((ROOT / "bot/ai").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
                assert node.module.startswith(("bot.engine", "bot.ai")), f"{path}: {node.module}"
