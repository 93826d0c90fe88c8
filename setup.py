"""The build: the hot modules of the engine and of Hy Breasil compiled by mypyc (issue 19).

The compiled modules are the same ``.py`` files, turned into C extensions that run about
twice as fast; the ``.py`` files stay the source and stay installed beside them.  The
build falls back to plain Python, which plays identical games, where it cannot compile:
``REALMS_PURE=1`` in the environment, mypyc missing, or no C compiler or Python headers.
At run time ``REALMS_PURE=1`` makes an installed build use its ``.py`` files instead, and
so does a compiled module older than its source (``src/realms/__init__.py``).
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: where the time goes (``benchmarks/bench_engine.py --profile``): the step machine, the
#: decisions and the play loop, and the rules of every Hy Breasil phase a turn runs
COMPILED = [
    "src/realms/core/engine.py",
    "src/realms/core/events.py",
    "src/realms/core/match.py",
    "src/realms/core/agents.py",
    "src/realms/games/hy_breasil/state.py",
    "src/realms/games/hy_breasil/board.py",
    "src/realms/games/hy_breasil/connect.py",
    "src/realms/games/hy_breasil/movement.py",
    "src/realms/games/hy_breasil/support.py",
    "src/realms/games/hy_breasil/combat.py",
    "src/realms/games/hy_breasil/turn.py",
    "src/realms/games/hy_breasil/events.py",
    "src/realms/games/hy_breasil/population.py",
    "src/realms/games/hy_breasil/invasion.py",
    "src/realms/games/hy_breasil/civil_war.py",
    "src/realms/games/hy_breasil/continuous.py",
    "src/realms/games/hy_breasil/abilities.py",
    "src/realms/games/hy_breasil/races.py",
    "src/realms/games/hy_breasil/submission.py",
    "src/realms/games/hy_breasil/plague.py",
]


def say(text: str) -> None:
    print(f"realms: {text}", file=sys.stderr)


def compiled_modules() -> list:
    """mypyc's extensions for :data:`COMPILED`, or none (plain Python)."""
    if os.environ.get("REALMS_PURE") == "1":
        say("REALMS_PURE=1: plain-Python modules only")
        return []
    try:
        from mypyc.build import mypycify

        # the mypy settings are pyproject.toml's [tool.mypy]
        return mypycify(COMPILED, opt_level="3")
    except Exception as exc:  # mypyc missing, or a module it cannot compile
        say(f"not compiled ({type(exc).__name__}: {exc}); plain-Python modules only")
        return []


class OptionalBuildExt(build_ext):
    """Builds the extensions if the machine can; if it cannot (no C compiler, no Python
    headers), removes what it built and leaves the plain-Python modules in charge."""

    def finalize_options(self) -> None:
        super().finalize_options()
        # every build compiles anew: a module must never look older than its source
        # (``src/realms/__init__.py`` would take it for stale)
        self.force = True

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            say(f"compiling failed ({type(exc).__name__}: {exc}); plain-Python modules only")
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
