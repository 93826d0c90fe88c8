"""The layers of realms, checked on every import in the source (docs/architecture.md,
"Layers"): games → core; core → nothing above it; no game imports another; sim, server,
search and adapters → core (the registry of games is ``realms.core.game``), not one
another and no game by name.  The command line (``realms.cli*``, ``realms.tty``) sits on
top and may import anything.

Every ``import`` statement counts, those inside functions too (a lazy import is still a
dependency), and relative imports are resolved against the importing module.  A generic
bot reaches the core through the ``realms.bots`` entry point group, as games do through
``realms.games``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import realms
from realms.core.agents import GENERIC_BOTS, generic_bots

SRC = Path(realms.__file__).parent

#: layer of a module's top package under ``realms`` -> the layers it may import
SERVICES = ("sim", "server", "search", "adapters")
ALLOWED = {"core": {"core"}, **{s: {"core", s} for s in SERVICES}}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every realms module ``path`` imports, relative ones resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from realms.games import hy_breasil``: each name may be a module
            out += [(node.lineno, f"{target}.{a.name}") for a in node.names] if not node.module or \
                target.count(".") < 2 else [(node.lineno, target)]
    return [(line, m) for line, m in out if m == "realms" or m.startswith("realms.")]


def layer(module: str) -> tuple[str, str | None]:
    """``("games", "hy_breasil")``, ``("core", None)``, ``("cli", None)``…"""
    parts = module.split(".")
    if len(parts) < 2:
        return ("top", None)
    if parts[1] == "games":
        return ("games", parts[2] if len(parts) > 2 else None)
    if parts[1] in ALLOWED:
        return (parts[1], None)
    return ("top", None)


def violation(importer: str, imported: str) -> str | None:
    """Why ``importer`` may not import ``imported``, or ``None``."""
    (src, src_game), (dst, dst_game) = layer(importer), layer(imported)
    if src == "top":
        return None
    if src == "games":
        if dst == "games" and dst_game in (src_game, None):
            return None if dst_game == src_game else "a game imports the games package"
        if dst == "games":
            return f"a game imports another game ({dst_game})"
        return None if dst == "core" else f"a game imports {dst}"
    if dst == "games":
        return f"{src} imports a game by name"
    return None if dst in ALLOWED[src] else f"{src} imports {dst}"


def all_violations() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        importer = module_name(path)
        for line, imported in imports(path):
            why = violation(importer, imported)
            if why:
                found.append(f"{path.relative_to(SRC.parent)}:{line}: {importer} -> {imported}: {why}")
    return found


def test_no_import_runs_against_the_layers():
    problems = all_violations()
    assert not problems, "imports against the layers:\n" + "\n".join(problems)


@pytest.mark.parametrize("importer, imported, allowed", [
    ("realms.games.hy_breasil.report", "realms.core.report", True),
    ("realms.games.hy_breasil.report", "realms.sim.report", False),
    ("realms.games.hy_breasil.stats", "realms.games.brittania.board", False),
    ("realms.games.hy_breasil.stats", "realms.games.hy_breasil.tables", True),
    ("realms.core.agents", "realms.search.ismcts", False),
    ("realms.core.game", "realms.games.version2", False),
    ("realms.sim.batch", "realms.core.game", True),
    ("realms.sim.batch", "realms.server.app", False),
    ("realms.adapters.gymnasium", "realms.sim.runner", False),
    ("realms.server.app", "realms.games.brittania", False),
    ("realms.cli", "realms.sim.batch", True),
])
def test_the_rule_itself(importer, imported, allowed):
    """The checker would catch each kind of wrong import (so the clean run above means something)."""
    assert (violation(importer, imported) is None) == allowed


def test_imports_are_read_from_functions_and_relative_forms(tmp_path, monkeypatch):
    """A lazy import inside a function and ``from ..x import y`` are both seen."""
    pkg = tmp_path / "realms" / "games" / "g"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "m.py").write_text("def f():\n    from ...sim.stats import x\n    import realms.server.app\n")
    monkeypatch.setattr(__import__(__name__), "SRC", tmp_path / "realms")
    got = [m for _, m in imports(pkg / "m.py")]
    assert got == ["realms.sim.stats", "realms.server.app"]


def test_the_search_bot_is_registered_through_the_entry_point_group():
    bots = generic_bots()
    assert "ismcts" not in GENERIC_BOTS and "ismcts" in bots
    bot = bots["ismcts"](3, iters="5")
    assert type(bot).__module__ == "realms.search.ismcts" and bot.iters == 5
