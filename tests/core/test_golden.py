"""Golden games: every game and bot plays a few whole seeded games, and each must end in
the state hash committed in ``tests/golden/state_hashes.json``. A change of any game's
behaviour shows here; when it is meant, ``python tools/state_hashes.py --bless`` writes the
file anew and its diff says which games moved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from realms.core.game import games
from realms.sim.runner import run_game

GOLDEN = json.loads((Path(__file__).parent.parent / "golden" / "state_hashes.json").read_text())


def test_every_game_and_bot_has_golden_games():
    covered = {(e["game"], e["bots"][0]) for e in GOLDEN}
    for game_id, game in games().items():
        for bot in ["random", *(game.bots or {})]:
            assert (game_id, bot) in covered, f"no golden game of {game_id} with {bot}: run tools/state_hashes.py --bless"


@pytest.mark.parametrize("entry", GOLDEN, ids=lambda e: f"{e['game']}-{e['bots'][0]}-{e['seed']}-{len(e['options'])}")
def test_golden_game_ends_in_its_committed_hash(entry):
    state = run_game(games()[entry["game"]], entry["options"], entry["seed"], entry["bots"])
    assert state.state_hash() == entry["hash"], (
        f"{entry['game']} with {entry['bots']} seed {entry['seed']} {entry['options']} plays differently; "
        "if the change is meant, run tools/state_hashes.py --bless")
