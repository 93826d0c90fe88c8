"""realms: play, simulate and analyse historical conquest board games on one engine.

The install compiles the hot modules with mypyc where it can (``setup.py``); the compiled
ones sit beside their ``.py`` files and Python imports them first.  This process imports
the plain-Python modules instead when ``REALMS_PURE=1`` is set (to compare the two, or to
debug), or when a compiled module is older than its source: an edited rule must never be
shadowed by the build of the code before the edit (``./run`` rebuilds; until then realms
runs, slower, on the ``.py`` files).  It is all or nothing: compiled modules call each
other's classes directly, so they cannot mix with plain-Python copies of one another.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from pathlib import Path

#: a build's modules are older than their sources by well under this when installed
#: from a wheel (its files are written in no set order)
_STALE_AFTER_S = 2.0


def _compiled_sources() -> list[tuple[Path, Path]]:
    """Each compiled module in this package, with its ``.py`` source."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    out = []
    for folder, _, files in os.walk(os.path.dirname(__file__)):
        for name in files:
            if name.endswith(suffixes):
                ext = Path(folder, name)
                out.append((ext, ext.with_name(name.split(".", 1)[0] + ".py")))
    return out


def stale() -> list[str]:
    """The sources edited since their module was compiled (``./run`` compiles anew)."""
    return [
        str(src) for ext, src in _pairs
        if src.exists() and src.stat().st_mtime > ext.stat().st_mtime + _STALE_AFTER_S
    ]


class _PlainPython:
    """An import finder that finds realms' modules as ``.py`` files only."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if not name.startswith("realms.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None


_pairs = _compiled_sources()
_pure = os.environ.get("REALMS_PURE") == "1" or bool(stale())
if _pairs and _pure:
    sys.meta_path.insert(0, _PlainPython)


def compiled() -> bool:
    """Whether this process runs the compiled modules (``setup.py``), not the ``.py`` files."""
    return bool(_pairs) and not _pure
