"""Layers point one way (docs/architecture.md): the core imports nothing above it, and
a generic bot reaches the core through the ``realms.bots`` entry point group, as games
do through ``realms.games``."""

from __future__ import annotations

import ast
from pathlib import Path

import realms.core
from realms.core.agents import GENERIC_BOTS, generic_bots

ABOVE = ("realms.search", "realms.sim", "realms.server", "realms.cli", "realms.games", "realms.adapters")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_the_core_imports_nothing_above_it():
    found = [f"{path.name}: {name}" for path in Path(realms.core.__file__).parent.glob("*.py")
             for name in _imports(path) if name.startswith(ABOVE)]
    assert found == []


def test_the_search_bot_is_registered_through_the_entry_point_group():
    bots = generic_bots()
    assert "ismcts" not in GENERIC_BOTS and "ismcts" in bots
    bot = bots["ismcts"](3, iters="5")
    assert type(bot).__module__ == "realms.search.ismcts" and bot.iters == 5
