"""Compile the hot modules (``setup.py``) into the source tree, all at once.

``./run`` installs realms as plain Python, which starts at once, and then runs this: in
the foreground for the tests and benchmarks, in the background at the lowest priority for
every other command (logging to ``.venv/compile.log``), so that the next start runs
compiled.  It does nothing while the build in place is the build of the current sources.

The build is the one ``pip install .`` makes (a wheel, built by pip in a throwaway
environment with mypyc), from which the compiled modules are moved into ``src/`` one at a
time, each in one step, between removing the old build's stamp and writing the new one:
a process starting meanwhile finds no stamp and imports the ``.py`` files
(``src/realms/__init__.py``).  Where the machine cannot compile, the wheel is plain
Python; that is remembered (``.venv/.realms-not-compiled``) until the sources change.

    python tools/build_compiled.py [--background]
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "realms"
STAMP = PACKAGE / "_compiled.json"  # realms.STAMP, which this must not import to find
VENV = ROOT / ".venv"
NOT_COMPILED = VENV / ".realms-not-compiled"


def say(text: str) -> None:
    print(f"realms: {text}", file=sys.stderr, flush=True)


def wanted() -> dict[str, str]:
    """The stamp's sources a build of the current tree has (``setup.py``'s ``stamp``)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        modules = tomllib.load(f)["tool"]["realms"]["compiled"]
    return {m.split("/", 1)[1]: hashlib.sha256((SRC / m).read_bytes()).hexdigest()
            for m in modules}


def in_place() -> dict[str, str]:
    try:
        return json.loads(STAMP.read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def key(sources: dict[str, str]) -> str:
    """What a build depends on: the compiled sources and the build's own files."""
    digest = hashlib.sha256(json.dumps(sources, sort_keys=True).encode())
    for name in ("setup.py", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def build_wheel(out: Path) -> Path:
    """``pip wheel .``: the compiled build, or a plain-Python one where it cannot compile."""
    env = {k: v for k, v in os.environ.items() if k != "REALMS_PURE"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--wheel-dir", str(out), str(ROOT)], env=env, check=True)
    (wheel,) = out.glob("realms-*.whl")
    return wheel


def put(path: Path, data: bytes) -> None:
    """Writes ``path`` in one step (never rewrites a library a process has loaded)."""
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)


def place(wheel: Path) -> bool:
    """Moves the wheel's compiled modules into ``src/`` and stamps them; False if the
    wheel is plain Python (nothing compiled)."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        stamp_name = "realms/_compiled.json"
        if stamp_name not in names:
            return False
        modules = [n for n in names if n.endswith(tuple(EXTENSION_SUFFIXES))]
        STAMP.unlink(missing_ok=True)  # from here until the new stamp, no build counts
        for name in modules:
            put(SRC / name, zf.read(name))
        for old in SRC.rglob("*"):  # a module no longer compiled, an older shared library
            if old.name.endswith(tuple(EXTENSION_SUFFIXES)) and \
                    old.relative_to(SRC).as_posix() not in modules:
                old.unlink()
        put(STAMP, zf.read(stamp_name))
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--background", action="store_true",
                    help="give way: exit at once if another compile is running")
    args = ap.parse_args()
    if os.environ.get("REALMS_PURE") == "1":
        return
    VENV.mkdir(exist_ok=True)
    with open(VENV / ".realms-compile.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (fcntl.LOCK_NB if args.background else 0))
        except BlockingIOError:
            return
        sources = wanted()
        if in_place() == sources:
            return
        if NOT_COMPILED.exists() and NOT_COMPILED.read_text() == key(sources):
            return
        say("compiling the engine's hot modules with mypyc (a few minutes, once per edit)")
        out = Path(tempfile.mkdtemp(prefix="realms-build-"))
        try:
            try:
                wheel = build_wheel(out)
            except subprocess.CalledProcessError as exc:  # e.g. mypy not to be had
                say(f"the build failed ({exc}); realms runs the plain-Python modules")
                NOT_COMPILED.write_text(key(sources))
                return
            if place(wheel):
                NOT_COMPILED.unlink(missing_ok=True)
                say("compiled: realms runs the compiled modules from the next start")
            else:
                NOT_COMPILED.write_text(key(sources))
                say("not compiled (see above); realms runs the plain-Python modules")
        finally:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
