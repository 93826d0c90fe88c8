"""The board (I.1, V2-Q1): shipped boards, the seeded generator, validation at load."""

from __future__ import annotations

import pytest

from realms.games.version2.board import (FORD, LAND, SEA, BoardError, default_board, hex_distance,
                                         parse_board)
from realms.games.version2.generate import generate


@pytest.mark.parametrize("players", range(2, 7))
def test_shipped_board_is_the_generators(players):
    """Each shipped board is what the generator makes for its player count (V2-Q1)."""
    shipped = default_board(players)
    made = generate(players, players, name=f"version2-{players}")
    assert (shipped.coords, shipped.terrain, shipped.index) == (made.coords, made.terrain, made.index)


@pytest.mark.parametrize("players", range(2, 7))
def test_generated_board_has_fords_continents_and_reach(players):
    """I.1: several continents joined by fords, every field reachable, indices 1–3 on land,
    the size growing with the players."""
    b = generate(players, 11)
    assert FORD in b.terrain and SEA in b.terrain
    land_only = {f: tuple(m for m in b.adj[f] if b.terrain[m] in LAND) for f in b.land}
    seen, parts = set(), 0
    for f in b.land:
        if f not in seen:
            parts += 1
            todo = [f]
            seen.add(f)
            while todo:
                for m in land_only[todo.pop()]:
                    if m not in seen:
                        seen.add(m)
                        todo.append(m)
    assert parts >= 2                                  # continents, joined only by fords
    assert all(1 <= b.index[f] <= 3 for f in b.land)
    assert all(b.index[f] == 0 for f in range(b.size) if b.terrain[f] in (SEA, FORD))
    assert len(b.land) >= 11 * players


def test_generator_is_seeded():
    a, b, c = generate(4, 5), generate(4, 5), generate(4, 6)
    assert a.terrain == b.terrain and a.index == b.index
    assert a.terrain != c.terrain
    assert len(generate(6, 1).coords) > len(generate(2, 1).coords)


def test_hex_distance_axial():
    assert hex_distance((0, 0), (2, -1)) == 2
    assert hex_distance((0, 0), (-3, 3)) == 3


def _text(*rows):
    return 'name = "t"\nfields = [\n' + "\n".join(rows) + "\n]\n"


def test_load_names_file_field_and_problem():
    with pytest.raises(BoardError, match=r"my.toml: field #1 \(q=1, r=0\): unknown terrain 'lava'"):
        parse_board(_text('{q = 0, r = 0, terrain = "woodland", index = 1},',
                          '{q = 1, r = 0, terrain = "lava", index = 1},'), "my.toml")
    with pytest.raises(BoardError, match=r"my.toml: field #0 \(q=0, r=0\): production index 4 of meadows must be 1..3"):
        parse_board(_text('{q = 0, r = 0, terrain = "meadows", index = 4},'), "my.toml")
    with pytest.raises(BoardError, match=r"field #1 \(q=1, r=0\): a ford field has production index 0, not 2"):
        parse_board(_text('{q = 0, r = 0, terrain = "meadows", index = 1},',
                          '{q = 1, r = 0, terrain = "ford", index = 2},'), "my.toml")


def test_load_refuses_unreachable_field():
    """I.1: "every hex-field will be reachable" — an island beyond the sea is refused."""
    text = _text('{q = 0, r = 0, terrain = "woodland", index = 1},',
                 '{q = 1, r = 0, terrain = "sea"},',
                 '{q = 2, r = 0, terrain = "mountains", index = 2},')
    with pytest.raises(BoardError, match=r"island.toml: field #2 \(q=2, r=0\) cannot be reached"):
        parse_board(text, "island.toml")
    ok = parse_board(text.replace('"sea"', '"ford"'), "bridged.toml")
    assert ok.adj[0] == (1,) and ok.land == (0, 2)


def test_load_refuses_duplicate_place_and_bad_toml():
    with pytest.raises(BoardError, match=r"field #1 \(q=0, r=0\): same place as field #0"):
        parse_board(_text('{q = 0, r = 0, terrain = "woodland", index = 1},',
                          '{q = 0, r = 0, terrain = "woodland", index = 1},'), "dup.toml")
    with pytest.raises(BoardError, match=r"bad.toml: not valid TOML"):
        parse_board("fields = [", "bad.toml")
