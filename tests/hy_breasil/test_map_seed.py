"""The option ``map_seed`` (Maps for Hy Breasil): a game on the island that
``realms map generate hy-breasil --seed N`` makes, chosen by its seed alone, so the lobby's
form (drawn from the schema) and ``simulate --option map_seed=N`` offer it; 0 is the map
the ``map`` option names.  The rulebook is written for any map."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from realms.cli import cli
from realms.core.game import OptionError, get_game
from realms.games.hy_breasil import mapgen
from realms.games.hy_breasil.board import load_board, map_name

GAME = get_game("hy-breasil")


def test_the_board_is_the_generators_island_of_that_seed():
    options = GAME.normalize_options({"players": 3, "map_seed": 3})
    state = GAME.new_game(options, seed=1)
    text, _ = mapgen.generate_text(mapgen.BASE_AREAS, len(mapgen.SEA_SECTORS), 3)
    names = sorted(line.split('"')[1] for line in text.splitlines() if line.startswith("name = "))
    assert sorted(state.board.names) == [n for n in names if n != "Hy Breasil (48 areas, seed 3)"]
    assert state.board is not load_board("hy-breasil") and state.board is load_board("seed:3")
    # whoever reads a view (the auto bot, the odds) loads the same board from it
    assert state.view(0)["options"]["map"] == "seed:3" == map_name(options)
    assert "Hy Breasil (48 areas, seed 3)" in GAME.draw(state, options)


def test_zero_is_the_map_option_and_a_map_and_a_seed_together_are_refused():
    assert GAME.new_game({"players": 3}, seed=1).view(None)["options"]["map"] == "hy-breasil"
    with pytest.raises(OptionError, match="'map' or 'map_seed'"):
        GAME.normalize_options({"players": 3, "map": "some-other-map", "map_seed": 3}, paths=True)
    with pytest.raises(OptionError, match="map_seed"):
        GAME.normalize_options({"players": 3, "map_seed": -1})


def test_a_record_replays_on_the_same_island():
    state = GAME.new_game({"players": 2, "turns": 1, "map_seed": 3}, seed=2)
    for _ in range(30):
        if state.is_over():
            break
        d = state.pending()[0]
        state.apply(d.player, d.keys[-1])
    assert GAME.replay(state.record()).state_hash() == state.state_hash()


def test_simulate_takes_the_option_and_the_auto_bots_play_on_the_island():
    r = CliRunner().invoke(cli, ["simulate", "hy-breasil", "--bots", "auto", "--players", "3", "--turns", "2",
                                 "--seed", "4", "--option", "map_seed=3", "--json"])
    assert r.exit_code == 0, r.output
    line = json.loads(r.output.strip().splitlines()[-1])
    assert line["over"] is True and line["options"]["map_seed"] == 3


def test_a_dropped_board_is_parsed_again_not_generated(monkeypatch, small_island):
    """A server holds more seeded games than ``load_board`` keeps boards; each reader of a
    view loads its board by name, so a dropped island's board is rebuilt from the kept
    text, not generated again (seconds, in the event loop or past the odds' budget)."""
    made = []

    def make(seed, shape=mapgen.Shape(), tries=200):
        made.append(seed)
        return small_island

    monkeypatch.setattr(mapgen, "make", make)
    monkeypatch.setattr(mapgen, "check", lambda text: None)  # the loader's checks: not what is counted
    kept = load_board.cache_info().maxsize
    seeds = [900_001 + k for k in range(kept + 2)]
    try:
        first = load_board(f"seed:{seeds[0]}")
        for seed in seeds[1:]:
            load_board(f"seed:{seed}")
        again = load_board(f"seed:{seeds[0]}")
        assert again is not first, "the first island's board was not dropped: the test shows nothing"
        assert made == seeds, f"islands generated: {made}"
        assert again.names == first.names
    finally:
        mapgen.generate_text.cache_clear()
