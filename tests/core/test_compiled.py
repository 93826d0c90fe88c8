"""The compiled modules (``setup.py``, issue 19) and the plain-Python ones play the same games.

Where the install compiled them, these tests compare the two builds game by game; where
it could not (no C compiler, or ``REALMS_PURE=1`` at install), both sides run the ``.py``
files, and the tests still check that the fallback imports, plays and is what runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import realms

#: random bots for the rules, auto bots for the bots' use of the rules (advice, reach),
#: Brian Boru for the engine under another game
GAMES = [
    ("hy-breasil", {}, "random", 1),
    ("hy-breasil", {"players": 5, "turns": 6}, "random", 2),
    ("hy-breasil", {"rules": ["races", "submission", "abilities"]}, "random", 3),
    ("hy-breasil", {"turns": 5}, "auto", 4),
    ("brian-boru", {}, "random", 5),
]

PLAY = """
import json, sys
import realms
import realms.core.engine
from realms.core.game import games
from realms.sim.runner import run_game

registry = games()
hashes = [run_game(registry[g], options, seed, [bot]).state_hash()
          for g, options, bot, seed in json.loads(sys.argv[1])]
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
    assert built["compiled"] is (bool(realms._pairs) and not realms.stale())
    assert built["engine"].endswith(".py") is not built["compiled"]
    assert len(pure["hashes"]) == len(GAMES)
    assert built["hashes"] == pure["hashes"]


def test_a_compiled_module_older_than_its_source_is_stale(tmp_path, monkeypatch):
    ext, src = tmp_path / "rules.cpython-311-x86_64-linux-gnu.so", tmp_path / "rules.py"
    ext.write_bytes(b"")
    src.write_text("")
    now = time.time()
    os.utime(ext, (now, now))
    os.utime(src, (now + 0.5, now + 0.5))  # written in the same install as the module
    monkeypatch.setattr(realms, "_pairs", [(ext, src)])
    assert realms.stale() == []
    os.utime(src, (now + 60, now + 60))  # edited after the build
    assert realms.stale() == [str(src)]


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
