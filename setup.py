"""The build: the hot modules of the engine and of Hy Breasil compiled by mypyc.

The compiled modules (``[tool.realms] compiled`` in pyproject.toml) are the same ``.py``
files, turned into C extensions that run about twice as fast; the ``.py`` files stay the
source and stay installed beside them.  The build falls back to plain Python, which plays
identical games, where it cannot compile: ``REALMS_PURE=1`` in the environment, mypyc
missing, or no C compiler or Python headers.

A build counts only once it is whole: its stamp (``realms/_compiled.json``, the hash of
every compiled source) is written after the last module is in place, and removed before
an in-place build (``pip install -e .``) touches the first; each module is moved into
place in one step, never rewritten where a running process has it loaded.  Without the
stamp, or with a source edited since, realms imports the ``.py`` files
(``src/realms/__init__.py``).  ``./run`` installs plain Python and compiles separately
(``tools/build_compiled.py``), in the background for every command but tests and
benchmarks.
"""

import hashlib
import json
import os
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES

from setuptools import setup
from setuptools.command.build_ext import build_ext

SRC = "src"
with open("pyproject.toml", "rb") as f:
    COMPILED = tomllib.load(f)["tool"]["realms"]["compiled"]


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
        return mypycify([os.path.join(SRC, m) for m in COMPILED], opt_level="3")
    except Exception as exc:  # mypyc missing, or a module it cannot compile
        say(f"not compiled ({type(exc).__name__}: {exc}); plain-Python modules only")
        return []


def stamp() -> str:
    """The build's stamp: each compiled source's hash (as ``realms.source_hash`` takes it),
    keyed by its path inside the package."""
    sources = {}
    for module in COMPILED:
        with open(os.path.join(SRC, module), "rb") as f:
            sources[module.split("/", 1)[1]] = hashlib.sha256(f.read()).hexdigest()
    return json.dumps({"sources": sources}, indent=1, sort_keys=True)


def put(path: str, data: bytes) -> None:
    """Writes ``path`` in one step: a process sees the old file or the new, never half."""
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)


def remove(path: str) -> None:
    if os.path.exists(path):
        os.remove(path)


class OptionalBuildExt(build_ext):
    """Builds the extensions if the machine can, then stamps the build; if it cannot (no
    C compiler, no Python headers), removes what it built and leaves the plain-Python
    modules in charge."""

    def finalize_options(self) -> None:
        super().finalize_options()
        # every build compiles anew: mypyc's modules of one build share one library
        self.force = True

    def stamp_paths(self) -> list:
        out = [os.path.join(self.build_lib, "realms", "_compiled.json")]
        if self.inplace:
            out.append(os.path.join(SRC, "realms", "_compiled.json"))
        return out

    def run(self) -> None:
        for path in self.stamp_paths():
            remove(path)  # no build counts until this one is whole
        if not self.extensions:
            return
        self.remove_other_builds()
        try:
            super().run()
        except Exception as exc:
            say(f"compiling failed ({type(exc).__name__}: {exc}); plain-Python modules only")
            for ext in self.extensions:
                remove(self.get_ext_fullpath(ext.name))
            return
        for path in self.stamp_paths():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            put(path, STAMP.encode())

    def remove_other_builds(self) -> None:
        """Removes compiled modules an earlier build left in the build folder: a wheel
        packs the whole folder, and a module no longer compiled must not ship."""
        ours = {os.path.join(self.build_lib, self.get_ext_filename(e.name))
                for e in self.extensions}
        for folder, _, files in os.walk(self.build_lib):
            for name in files:
                path = os.path.join(folder, name)
                if name.endswith(tuple(EXTENSION_SUFFIXES)) and path not in ours:
                    os.remove(path)

    def copy_extensions_to_source(self) -> None:
        """The in-place copy (``pip install -e .``), each module moved into place in one
        step: rewriting a loaded library in place can crash the process using it."""
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            *package, _ = ext.name.split(".")
            name = os.path.basename(self.get_ext_filename(ext.name))
            target = os.path.join(build_py.get_package_dir(".".join(package)), name)
            with open(os.path.join(self.build_lib, self.get_ext_filename(ext.name)), "rb") as f:
                put(target, f.read())


#: read before mypyc reads the sources: a source edited during the build is then stale
STAMP = stamp()
setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
