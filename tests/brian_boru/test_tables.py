"""The data files (RULINGS "Uncertain data") and their validation at load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from realms.games.brian_boru.tables import DATA, TableError, build_tables, load_tables

T = load_tables()


def test_card_colours_confirmed_by_two_sources():
    colours = {c.value: c.colour for c in T.cards[1:]}
    assert [v for v, c in colours.items() if c == "Y"] == [1, 4, 7, 10, 14, 17, 23]
    assert [v for v, c in colours.items() if c == "R"] == [2, 5, 8, 11, 15, 18, 24]
    assert [v for v, c in colours.items() if c == "B"] == [3, 6, 9, 12, 16, 19, 25]
    assert [v for v, c in colours.items() if c == "W"] == [13, 20, 21, 22]


def test_board_regions_towns_thresholds_points():
    b = T.board
    table = {r.id: (len(b.region_towns[r.index]), r.threshold, r.points) for r in b.regions}
    assert table == {
        "northern-ui-neill": (7, 4, 6), "ulaid": (5, 3, 4), "breifne": (4, 2, 3),
        "southern-ui-neill": (6, 3, 5), "dubhlinn": (3, 2, 2), "connaught": (9, 5, 7),
        "leinster": (9, 4, 6), "munster": (10, 5, 7),
    }
    assert sorted(t.id for t in b.towns) == list(range(1, 54))


def test_rules_numbers():
    r = T.rules
    assert (r.start_coins, r.start_renown, r.start_points) == (3, 1, 10)
    assert r.deal == {3: 8, 4: 6, 5: 5} and r.marriage_cards == {3: 2, 4: 3, 5: 3}
    assert (r.step_cost, r.expand_cost, r.pay_penalty, r.monastery_discs) == (2, 5, 2, 4)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA, d)
    return d


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("file, old, new, message", [
    ("cards.toml", '"coin", "coin", "coin", "expand"', '"coins", "expand"',
     "cards.toml: [[card]] #1 (value 1) secondary #1: unknown symbol 'coins'"),
    ("cards.toml", "value = 2\n", "value = 1\n", "cards.toml: [[card]] #2 (value 1): duplicate card value"),
    ("cards.toml", 'secondary = [["coin", "coin", "coin", "expand"], ["marriage", "marriage"]]',
     'secondary = [["town"]]', "primary actions only"),
    ("board.toml", 'region = "ulaid"', 'region = "ulster"', "board.toml: [[town]] 8: unknown region 'ulster'"),
    ("board.toml", "[1, 4], [2, 3]", "[1, 99], [2, 3]", "board.toml: [roads] source #1: unknown town 99"),
    ("board.toml", 'colour = "R"', 'colour = "G"', "board.toml: [[town]] 1: colour must be one of R, B, Y"),
    ("marriage.toml", "princess = true", "princess = false", "marriage.toml: no card has princess = true"),
    ("marriage.toml", 'language = "de"\n', "",
     "marriage.toml: [[marriage]] 'daenische-prinzessin': a second Princess of Denmark in language 'en'"),
    ("marriage.toml", '"region-town:munster"', '"region-town:kerry"', "names unknown region 'kerry'"),
    ("track.toml", 'space = 1\nreward = []', 'space = 1\nreward = ["coin"]', "the first space has no reward"),
    ("vikings.toml", "strength = 13", "strength = -1", "vikings.toml: [[viking]] #1 strength must be at least 0"),
    ("rules.toml", "coins = 3", "coins = \"three\"", "rules.toml: [setup.coins] must be a whole number"),
])
def test_bad_data_is_refused_with_file_entry_and_problem(data_dir, file, old, new, message):
    _edit(data_dir / file, old, new)
    with pytest.raises(TableError) as exc:
        build_tables(data_dir)
    assert message in str(exc.value)


def test_town_without_a_road_is_accepted(data_dir):
    """Board: "roads connect some towns" — a town no road reaches is legal (BB-Q28)."""
    _edit(data_dir / "board.toml", "[49, 51],", "")
    b = build_tables(data_dir).board
    assert b.adj[b.town_index[49]] == () and b.adj[b.town_index[51]] == ()
    assert len(b.roads) == 35


def test_roads_outside_the_source_list_are_refused(data_dir):
    _edit(data_dir / "board.toml", "[roads]\n", "[roads]\ndesigned = [[15, 16]]\n")
    with pytest.raises(TableError, match=r"board.toml: \[roads\] has unknown key\(s\) designed"):
        build_tables(data_dir)


def test_not_toml_is_refused(data_dir):
    (data_dir / "vikings.toml").write_text("[[viking]\n", encoding="utf-8")
    with pytest.raises(TableError, match="vikings.toml: not valid TOML"):
        build_tables(data_dir)


def test_card_data_missing_an_action_table_symbol_is_refused(data_dir):
    """Actions: every symbol of the rulebook's action table is on some card; data that
    drops one (here renown, RULINGS BB-Q107) is refused, naming the symbol."""
    path = data_dir / "cards.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('"coin", "renown", "expand"', '"coin", "coin", "expand"'),
                    encoding="utf-8")
    with pytest.raises(TableError, match=r"cards.toml: no card shows 'renown', a symbol of the rulebook's action table"):
        build_tables(data_dir)
