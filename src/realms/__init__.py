"""realms: play, simulate and analyse historical conquest board games on one engine.

The hot modules can be compiled with mypyc (``setup.py``; ``./run`` compiles them in the
background, ``pip install .`` while installing); the compiled ones sit beside their
``.py`` files.  A build is used only whole and only while it is the build of the sources
beside it: the build's stamp (``_compiled.json``, written after every module is in place)
records each compiled source's hash, and this process imports the plain-Python modules
when the stamp is missing, when a source differs from its hash (an edited rule must never
be shadowed by the build of the code before the edit), or when ``REALMS_PURE=1`` is set
(to compare the two, or to debug).  It is all or nothing: compiled modules call each
other's classes directly, so they cannot mix with plain-Python copies of one another.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from pathlib import Path

#: the build's stamp: ``{"sources": {path in this package: sha256 of the source}}``
STAMP = Path(__file__).with_name("_compiled.json")


def source_hash(path: Path) -> str:
    """The hash a build's stamp records for a compiled module's source."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stamped_sources() -> dict[str, str]:
    """The compiled sources and their hashes, from the stamp; none if there is no build."""
    try:
        return json.loads(STAMP.read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def stale() -> list[str]:
    """The compiled modules' sources that differ from the build (edited since)."""
    here = STAMP.parent
    out = []
    for name, digest in _stamped_sources().items():
        path = here / name
        try:
            same = source_hash(path) == digest
        except OSError:
            same = False
        if not same:
            out.append(str(path))
    return out


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


_compiled = (os.environ.get("REALMS_PURE") != "1" and bool(_stamped_sources())
             and not stale())
if not _compiled:
    sys.meta_path.insert(0, _PlainPython)


def compiled() -> bool:
    """Whether this process runs the compiled modules (``setup.py``), not the ``.py`` files."""
    return _compiled
