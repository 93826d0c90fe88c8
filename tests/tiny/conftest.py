"""Registers the tiny test game through the ``realms.games`` entry point, as an installed
package would: a ``.dist-info`` folder with an ``entry_points.txt`` on ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import realms.core.game as registry

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    info = site / "realms_pebbles-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: realms-pebbles\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[realms.games]\npebbles = tiny_realm:GAME\n")
    sys.path[:0] = [str(site), str(HERE)]
    registry._GAMES = None
    try:
        yield registry.get_game("pebbles")
    finally:
        sys.path.remove(str(site))
        sys.path.remove(str(HERE))
        registry._GAMES = None
