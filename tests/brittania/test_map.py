"""The map (RULINGS BR-Q1…Q4): the rules post's facts about it, the loader's checks and
the drawing."""

import tomllib

import pytest

from realms.games.brittania.board import MAP_FILE, MapError, load_board, parse_board
from realms.games.brittania.draw import draw

B = load_board()

#: "NORFOLK, WESSEX, ESSEX, MERCIA, DEIRA, BERNICIA, LANCASTER, DEVON, GWENT, GWYNEDD,
#: STRATHCLYDE, FIFE, MOIREBH, ROSS, UI NEILL, CONNACHTA, MUMHAN, LAIGHIN"
TEXT_KINGDOMS = ["NORFOLK", "WESSEX", "ESSEX", "MERCIA", "DEIRA", "BERNICIA", "LANCASTER", "DEVON",
                 "GWENT", "GWYNEDD", "STRATHCLYDE", "FIFE", "MOIREBH", "ROSS", "UI NEILL", "CONNACHTA",
                 "MUMHAN", "LAIGHIN"]


def raw():
    with open(MAP_FILE, "rb") as f:
        return tomllib.load(f)


def by_name(name: str) -> int:
    return next(s.index for s in B.states if s.name.casefold() == name.casefold())


def test_81_states_five_regions_of_at_least_ten():
    """"The map is divided into 81 States"; every High Kingdom needs "10 Provinces" (BR-Q3)."""
    assert len(B.states) == 81
    assert set(B.regions) == {"england", "northumbria", "wales", "scotland", "ireland"}
    assert all(len(v) >= 10 for v in B.region_states.values())


def test_the_18_kingdom_states_are_the_texts():
    assert sorted(B.states[k].name.upper() for k in B.kingdoms) == sorted(TEXT_KINGDOMS)


def test_loncastre_is_lancaster():
    """BR-Q2: LONCASTRE (High Kingdom of Northumbria) is LANCASTER, one state."""
    lan = B.state("lancaster")
    assert "Loncastre" in lan.aliases and lan.kingdom and lan.region == "northumbria"


def test_high_kingdom_capitals_lie_in_their_regions():
    """The capitals each High Kingdom names are in its region (Devon is Welsh: "High
    Kingdom of Wales requires ... GWYNEDD, GWENT and DEVON")."""
    assert B.state("devon").region == "wales"
    assert B.state("mercia").region == "england"
    assert B.state("ross").region == "scotland"


def test_special_links():
    """The Isles–Ross and Galaibh–Moirebh count for Kingdom-making only; Glywysing and
    Somerset "are treated as if adjacent"."""
    isles, ross = B.index["the-isles"], B.index["ross"]
    assert ross in B.kingdom_adj[isles] and ross not in B.adj[isles]
    gal, moi = B.index["galaibh"], B.index["moirebh"]
    assert moi in B.kingdom_adj[gal] and moi not in B.adj[gal]
    gly, som = B.index["glywysing"], B.index["somerset"]
    assert som in B.adj[gly] and gly in B.adj[som]


def test_rules_example_places():
    """The text's examples need Ulaid and Ayr on one sea ("You own Ulaid ... attack Ayr"),
    and Oxford, Mide, Kent and Essex to exist."""
    assert B.across_mask[B.index["ulaid"]] >> B.index["ayr"] & 1
    for name in ("Oxford", "Mide", "Kent", "Essex"):
        by_name(name)


def test_adjacency_is_symmetric_and_seas_numbered():
    for s in B.states:
        for t in B.adj[s.index]:
            assert s.index in B.adj[t]
    assert [sea.number for sea in B.seas] == [1, 2, 3, 4, 5, 6, 7]


def test_every_kingdom_state_can_make_a_kingdom():
    for k in B.kingdoms:
        assert len(B.kingdom_adj[k]) >= 3, B.states[k].name


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["state"][0]["adjacent"].append("essex"), "map.toml: state 'kent': adjacent 'essex' does not list 'kent' back"),
    (lambda d: d["state"][0].update(region="francia"), "map.toml: state 'kent': region 'francia' is not one of"),
    (lambda d: d["state"].pop(), "map.toml: 80 states; the rules need 81"),
    (lambda d: d["state"][1]["adjacent"].append("narnia"), "map.toml: state 'sussex': adjacent 'narnia' is not a state"),
    (lambda d: d["sea"][0]["coasts"].append("atlantis"), "map.toml: sea 1: coast 'atlantis' is not a state"),
    (lambda d: d["state"][0].update(kingdom=True), "map.toml: 19 KINGDOM states; the rules name 18"),
    (lambda d: d["state"][1].update(name="Kent"), "map.toml: state 'sussex': name 'Kent' is also used by 'kent'"),
])
def test_bad_map_errors_name_file_state_and_problem(edit, message):
    data = raw()
    edit(data)
    with pytest.raises(MapError) as err:
        parse_board(data, "map.toml")
    assert message in str(err.value)
    assert err.value.file == "map.toml"


def test_drawing_has_every_state_the_seas_and_links():
    svg = draw()
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")
    for s in B.states:
        assert f'id="area-{s.id}"' in svg
    assert svg.count('stroke-dasharray="3,3"') == 2       # the two dotted Kingdom links
    for n in range(1, 8):
        assert f">{n}</text>" in svg


def rules_raw():
    from realms.games.brittania.board import DATA

    with open(DATA / "rules.toml", "rb") as f:
        return tomllib.load(f)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["colours"].pop("Grey"), "rules.toml: colours: 11 colours; the rules name 12"),
    (lambda d: d["numbers"].pop("max_order"), "rules.toml: numbers.max_order: missing"),
    (lambda d: d["trait"][0].update(effect="magic"), "rules.toml: trait[0].effect: 'magic' is not one of"),
    (lambda d: d["high_kingdom"][0]["states"].append("kent"), "rules.toml: high_kingdom[0].states: 'kent' is not a KINGDOM state"),
    (lambda d: d["high_kingdom"][1]["states"].append("essex"), "rules.toml: high_kingdom[1].states: 'essex' is not in region 'ireland'"),
    (lambda d: d["names"].pop("wales"), "rules.toml: names.wales: needs a list of king names"),
])
def test_bad_rules_errors_name_file_entry_and_problem(edit, message):
    from realms.games.brittania.tables import TableError, parse_tables

    data = rules_raw()
    edit(data)
    with pytest.raises(TableError) as err:
        parse_tables(data, "rules.toml")
    assert message in str(err.value)


def test_the_texts_traits_and_names():
    """"King's Traits (positive/negative, mutually exclusive listed in pairs)" and the five
    regions' name lists."""
    from realms.games.brittania.tables import load_tables

    t = load_tables()
    assert t.positive == ("Conqueror", "Defender", "Frugal", "Just", "Rich", "Sailor", "Shrewd", "Unifier", "Warrior")
    assert {t.traits[p].opposite for p in t.positive} - {""} == {"Weak", "Unprepared", "Hedonist", "Cruel", "Coward"}
    assert "Mael Sechnaill" in t.names["ireland"] and "Rhodri" in t.names["wales"]
