"""The compiled modules (``setup.py``) and the plain-Python ones play the same games.

Where the install compiled them, these tests compare the two builds game by game; where
it could not (no C compiler, or ``REALMS_PURE=1`` at install), both sides run the ``.py``
files, and the tests still check that the fallback imports, plays and is what runs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import realms

#: for each compiled game: random bots for the rules, its rule bot for the bots' use of
#: the rules (advice, reach, the bot view), and a search in one seat for the clones and
#: determinizations it plays on (a bot per seat, or one for every seat)
GAMES = [
    ("hy-breasil", {}, "random", 1),
    ("hy-breasil", {"players": 5, "turns": 6}, "random", 2),
    ("hy-breasil", {"rules": ["races", "submission", "abilities"]}, "random", 3),
    ("hy-breasil", {"turns": 5}, "auto", 4),
    ("brian-boru", {}, "random", 5),
    ("brian-boru", {"players": 5}, "greedy", 6),
    ("brian-boru", {"players": 3}, ["ismcts:iters=3", "greedy", "greedy"], 7),
    ("version2", {}, "random", 8),
    ("version2", {"players": 3, "type": "resistance"}, "general", 9),
    ("version2", {"turn_limit": 4}, ["general", "ismcts:iters=2", "general", "general"], 10),
    ("brittania", {"players": 12}, "random", 11),
    ("brittania", {"players": 8}, "steward", 12),
    ("brittania", {"players": 4, "turns": 5}, ["steward", "steward", "ismcts:iters=3", "steward"], 13),
]

PLAY = """
import json, sys
import realms
import realms.core.engine
from realms.core.game import games
from realms.sim.runner import run_game

registry = games()
hashes = [run_game(registry[g], options, seed, bots if isinstance(bots, list) else [bots]).state_hash()
          for g, options, bots, seed in json.loads(sys.argv[1])]
print(json.dumps({"compiled": realms.compiled(), "engine": realms.core.engine.__file__,
                  "hashes": hashes}))
"""


def play(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "REALMS_PURE"}
    if pure:
        env["REALMS_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PLAY, json.dumps(GAMES)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_plain_python_modules_play_the_games_the_compiled_ones_play():
    pure, built = play(pure=True), play(pure=False)
    assert pure["compiled"] is False and pure["engine"].endswith(".py")
    assert built["compiled"] is (bool(realms._stamped_sources()) and not realms.stale())
    assert built["engine"].endswith(".py") is not built["compiled"]
    assert len(pure["hashes"]) == len(GAMES)
    assert built["hashes"] == pure["hashes"]


def test_a_build_counts_only_for_the_sources_it_was_built_from(tmp_path, monkeypatch):
    """The stamp records each compiled source's hash; an edit makes the build stale, even
    where a checkout gives the source an older time than the build."""
    (tmp_path / "core").mkdir()
    src = tmp_path / "core" / "rules.py"
    src.write_text("X = 1\n")
    stamp = tmp_path / "_compiled.json"
    monkeypatch.setattr(realms, "STAMP", stamp)
    assert realms._stamped_sources() == {} and realms.stale() == []  # no build
    stamp.write_text(json.dumps({"sources": {"core/rules.py": realms.source_hash(src)}}))
    assert realms.stale() == []
    src.write_text("X = 2\n")
    os.utime(src, (0, 0))
    assert realms.stale() == [str(src)]


def builder(tmp_path, monkeypatch):
    """tools/build_compiled.py, placing into ``tmp_path/src``."""
    spec = importlib.util.spec_from_file_location(
        "build_compiled", Path(__file__).parents[2] / "tools" / "build_compiled.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "SRC", tmp_path / "src")
    monkeypatch.setattr(tool, "STAMP", tmp_path / "src" / "realms" / "_compiled.json")
    return tool


def wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def test_a_build_is_placed_whole_its_stamp_last(tmp_path, monkeypatch):
    tool = builder(tmp_path, monkeypatch)
    so = EXTENSION_SUFFIXES[0]
    package = tmp_path / "src" / "realms"
    (package / "core").mkdir(parents=True)
    (package / "_compiled.json").write_text("old build")
    (package / "core" / f"dropped{so}").write_bytes(b"no longer compiled")
    (tmp_path / "src" / f"old__mypyc{so}").write_bytes(b"the old build's library")
    seen = []
    put = tool.put
    monkeypatch.setattr(tool, "put", lambda path, data: (
        seen.append((path.name, (package / "_compiled.json").exists())), put(path, data)))
    assert tool.place(wheel(tmp_path / "b.whl", {
        f"new__mypyc{so}": b"library", f"realms/core/engine{so}": b"engine",
        "realms/core/engine.py": b"", "realms/_compiled.json": b"new build"}))
    # no stamp while a module is written; the stamp the last thing written
    assert seen == [(f"new__mypyc{so}", False), (f"engine{so}", False),
                    ("_compiled.json", False)]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob(f"*{so}")) == [
        f"src/new__mypyc{so}", f"src/realms/core/engine{so}"]
    assert (package / "_compiled.json").read_text() == "new build"


def test_a_plain_python_build_places_nothing(tmp_path, monkeypatch):
    tool = builder(tmp_path, monkeypatch)
    (tmp_path / "src" / "realms").mkdir(parents=True)
    assert not tool.place(wheel(tmp_path / "b.whl", {"realms/core/engine.py": b""}))
    assert list((tmp_path / "src").rglob("*.*")) == []


def test_a_nations_copy_has_every_field_and_its_own_units():
    """``Nation.copy`` is written out field by field (a compiled class has no ``__slots__``
    to loop over): none may be left behind."""
    from realms.games.hy_breasil import GAME

    state = GAME.new_game({"players": 3}, 1)
    n = state.create_nation(owner=2)
    fields = [a for a in dir(n) if not a.startswith("__") and not callable(getattr(n, a))]
    assert len(fields) == 23
    copy = n.copy()
    assert [getattr(copy, a) for a in fields] == [getattr(n, a) for a in fields]
    assert copy.units is not n.units


def test_masked_keys_are_a_sequence_and_nothing_else_is_masked_keys():
    """``LazyKeys`` is registered as a ``Sequence`` rather than derived from it: compiled,
    a class derived from an abstract base class shares its registry, and a tuple passed
    for ``MaskedKeys`` (``bots.moves`` tells the two apart)."""
    from collections.abc import Sequence

    from realms.core.decision import MaskedKeys

    keys = MaskedKeys([(("a", "b", "c"), 0b101)], ("done",))
    assert isinstance(keys, Sequence) and not isinstance(("a", "c"), MaskedKeys)
    assert list(keys) == ["a", "c", "done"] == [keys[i] for i in range(len(keys))]
    assert keys[-1] == "done" and keys[:2] == ["a", "c"] and list(reversed(keys))[0] == "done"
    assert keys.index("c") == 1 and keys.count("a") == 1 and "b" not in keys


def test_popcount_counts_the_bits_of_any_mask():
    """``decision.popcount`` (compiled: bits summed on a native 64-bit integer up to 62
    bits, ``int.bit_count`` beyond and for negative numbers) agrees with ``int.bit_count``."""
    import random

    from realms.core.decision import popcount

    rng = random.Random(19)
    masks = [0, 1, 3, 2**61 + 5, 2**62 - 1, 2**62, 2**63 - 1, 2**70 + 3, -5]
    masks += [rng.getrandbits(rng.randint(1, 62)) for _ in range(5000)]
    assert [popcount(m) for m in masks] == [m.bit_count() for m in masks]
