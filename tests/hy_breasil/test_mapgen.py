"""``realms map generate hy-breasil`` (Maps for Hy Breasil): a new island valid by
the game's own map loader, one island per seed, played through with --option map=FILE;
the command built from the arguments the game's generator declares (Game.map_generator)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from realms.cli import cli
from realms.core.game import get_game
from realms.core.mapgraph import load_map
from realms.games.hy_breasil import mapgen
from realms.games.hy_breasil.board import MAPS
from realms.games.hy_breasil.tables import TERRAINS


def generate(tmp_path: Path, *args: str):
    out = tmp_path / "my-map.toml"
    r = CliRunner().invoke(cli, ["map", "generate", "hy-breasil", *args, "-o", str(out)])
    return r, out


@pytest.fixture(scope="module")
def island(tmp_path_factory):
    """The README's example: 50 areas, 8 seas, seed 3."""
    r, out = generate(tmp_path_factory.mktemp("map"), "--areas", "50", "--seas", "8", "--seed", "3")
    assert r.exit_code == 0, r.output
    return out


def test_the_readme_example_makes_a_valid_island(island):
    """The loader's own checks pass (adjacency both ways, terrains, polygons); 50 land areas
    of the three terrains, 8 seas round it and two inland seas; every sea touches land."""
    assert f"wrote {island}: 50 land areas" in CliRunner().invoke(
        cli, ["map", "generate", "hy-breasil", "--areas", "50", "--seed", "3", "-o", str(island)]).output
    graph = load_map(island, TERRAINS)
    land = [a for a in graph.areas if a.kind == "land"]
    seas = [a for a in graph.areas if a.kind == "sea"]
    assert len(land) == 50 and {a.terrain for a in land} == {"plains", "forest", "hills"}
    assert sum(not a.inland for a in seas) == 8 and sum(a.inland for a in seas) == 2
    assert all(any(not graph.areas[n].is_sea for n in a.neighbours) for a in seas)
    assert tomllib.loads(island.read_text())["map"]["id"] == "hy-breasil-50-8-3"


def test_a_game_plays_on_it(island):
    """§5: nations arrive from the new seas and the game plays through (random bots), and the
    board draws."""
    game = get_game("hy-breasil")
    options = game.normalize_options({"players": 3, "turns": 3, "map": str(island)})
    state = game.new_game(options, seed=5)
    rng = random.Random(5)
    while not state.is_over():
        d = state.pending()[0]
        state.apply(d.player, d.keys[rng.randrange(len(d.keys))])
    assert state.turn == 3 and any(n.land for n in state.nations.values())
    assert "Hy Breasil (50 areas, seed 3)" in game.draw(state, options)


@pytest.mark.slow
def test_one_seed_one_island(tmp_path):
    """One seed, one island; another seed, another (three islands made: slow tier)."""
    a = mapgen.generate_text(24, 6, 11)[0]
    assert a == mapgen.generate_text(24, 6, 11)[0]
    assert a != mapgen.generate_text(24, 6, 12)[0]
    graph = load_map(_write(tmp_path / "a.toml", a), TERRAINS)
    assert sum(x.kind == "land" for x in graph.areas) == 24 and sum(x.kind == "sea" and not x.inland
                                                                  for x in graph.areas) == 6


def test_the_bundled_map_is_the_generators_island_of_seed_23():
    """tools/make_hy_breasil_map.py writes the bundled map from this generator: the same
    areas, names, terrain, neighbours, labels and outlines (each outline as a ring of points)."""
    m, seed = mapgen.make(23)
    ours = tomllib.loads(mapgen.to_toml(m, "hy-breasil", "Hy Breasil", ["x"]))
    bundled = tomllib.loads((MAPS / "hy-breasil.toml").read_text())
    assert seed == 23 and ours["map"] == bundled["map"]

    def ring(points):
        k = points.index(min(points))
        return points[k:] + points[:k]

    for a, b in zip(ours["area"], bundled["area"], strict=True):
        assert {**a, "polygon": ring(a["polygon"])} == {**b, "polygon": ring(b["polygon"])}


@pytest.mark.parametrize("args, message", [
    (("--areas", "5"), "--areas must be 16 to 120, not 5"),
    (("--seas", "30"), "--seas must be 4 to 12, not 30"),
    (("--areas", "many"), "'many' is not a valid integer"),
    (("--seed", "-1"), "--seed must be 0 or more, not -1"),
    (("--areas", "16", "--seas", "12"), "--seas must be 4 to 8 for 16 areas, not 12"),
])
def test_bad_arguments_are_one_line(tmp_path, args, message):
    r, out = generate(tmp_path, *args)
    assert r.exit_code == 2 and message in r.output and not out.exists()


def test_only_games_with_a_generator(tmp_path):
    r = CliRunner().invoke(cli, ["map", "generate", "brian-boru", "-o", str(tmp_path / "x.toml")])
    assert r.exit_code == 2 and "'brian-boru' has no map generator (games with one: hy-breasil, version2)" in r.output
    assert "--areas" in CliRunner().invoke(cli, ["map", "generate", "hy-breasil", "--help"]).output


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_the_auto_bots_play_on_it(island):
    """The auto bots read the board of the game's own map (its view's options), not the
    bundled one: simulate --option map=FILE plays through."""
    r = CliRunner().invoke(cli, ["simulate", "hy-breasil", "--bots", "auto", "--players", "3", "--turns", "2",
                                 "--seed", "4", "--option", f"map={island}", "--json"])
    assert r.exit_code == 0, r.output
    assert '"over": true' in r.output


def test_the_smallest_island_passes_the_loaders_checks(small_island):
    """16 areas (the least ``--areas`` takes) and 4 seas: an island the game loads, with no
    inland sea (the rulebook's §5.1 and §5.2 name inland seas but need none, and a small
    island has no room round one)."""
    m, used = small_island
    text = mapgen.to_toml(m, "small", "Small", ["x"])
    mapgen.check(text)
    areas = tomllib.loads(text)["area"]
    assert sum(a["kind"] == "land" for a in areas) == 16 and sum(a["kind"] == "sea" for a in areas) == 4
    assert not any(a.get("inland") for a in areas) and used >= 1


@pytest.mark.slow
@pytest.mark.parametrize("areas, seas, seed", [(16, 8, 2), (17, 6, 1), (120, 4, 1), (120, 12, 3)])
def test_the_edges_of_the_range_make_islands(areas, seas, seed):
    """The sizes that failed (no lake site at 16-18 areas; a repeated name at 120) make
    an island, checked by the loader (inside generate_text)."""
    text, summary = mapgen.generate_text(areas, seas, seed)
    assert summary.startswith(f"{areas} land areas") and f", {seas} seas," in summary


def test_made_up_names_never_repeat_a_listed_one():
    """A big island takes made-up names (prefix + epithet) once a terrain's list runs out;
    "Sliabh" + "Dubh" is also the listed "Sliabh Dubh", so such names are left out."""
    import numpy as np

    land = list(range(120))
    terrain = {r: "hills" if r < 30 else "forest" if r < 65 else "plains" for r in land}
    cent = {r: np.array([r % 11 * 90.0, r // 11 * 70.0]) for r in land}
    for seed in range(5):
        names = mapgen.assign_names(np.random.default_rng(seed), land, terrain, cent)
        assert len({mapgen.slug(n) for n in names.values()}) == 120
