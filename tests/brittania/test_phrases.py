"""Every phrasing of ``data/phrases.toml`` (rules post, TURN ORDER: "5 Grain to Defend
Essex."; RULINGS BR-Q27, BR-Q28): the grammar reads each as the data file says, or
refuses it with the reason and the closest reading."""

from __future__ import annotations

import dataclasses

import pytest

from realms.games.brittania import GAME
from realms.games.brittania.gm import names_of
from realms.games.brittania.orders import Order
from realms.games.brittania.phrases import REST, Unreadable, examples, fold, read_lines

PLAYERS = ["Ann", "Bob", "Carl", "Bjorn_Ironside", "Æthelflæd", "The Canadian kitten", "TheSaxonFox"]
EXAMPLES = examples()


@pytest.fixture(scope="module")
def names():
    s = GAME.new_game({"names": PLAYERS}, 1)
    return dataclasses.replace(names_of(s), kings=["Alfred", "Edmund", "Aed", "Brian", "Owain", "Niall", "Cynan"],
                               owner={"essex": 0, "dublin": 0, "mide": 0, "connachta": 0, "powys": 0},
                               capitals={0: "essex"})


def _order(text: str) -> Order:
    kind, *rest = text.split()
    if kind in ("trade", "cancel"):
        return Order(kind, str(PLAYERS.index(" ".join(rest))))
    if kind == "lead":
        return Order("lead", f"{rest[0]}:{rest[1]}")
    return Order(kind, rest[0], REST if rest[1] == "rest" else int(rest[1]))


def _read(line: str, names) -> list[Order]:
    """The orders of a bold text, its lines split at line breaks."""
    orders = []
    for _, _, got in read_lines(line.split("\n"), names, 0):
        if isinstance(got, Unreadable):
            raise got
        orders += got
    return orders


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["text"] for e in EXAMPLES])
def test_phrasing(names, example):
    if "read" in example:
        assert _read(example["text"], names) == [_order(x) for x in example["read"]]
    else:
        with pytest.raises(Unreadable) as err:
            _read(example["text"], names)
        assert str(err.value).startswith(example["unread"]), str(err.value)
        if "hint" in example:
            assert err.value.hint == example["hint"]


def test_names_without_diacritics_or_ligatures():
    assert fold("Æthelflæd") == fold("AETHELFLAED") == "aethelflaed"
    assert fold("Uí Néill") == "ui neill" and fold("Bjorn_Ironside") == "bjorn ironside"


def test_a_prefix_fits_only_one_player(names):
    assert names.player("bjorn") == 3 and names.player("kitten") == 5
    with pytest.raises(Unreadable):
        names.player("a")                  # Ann and Aethelflaed both begin so; too short anyway


def test_same_as_last_turn_is_listed_and_its_exceptions_read(names):
    """"Same as last turn except …" names no order of its own (TURN ORDER: orders are
    written out, "5 Grain to Defend Essex."): it is listed as unread, and the order after
    "except" is read."""
    got = read_lines(["Same as last turn except I also invest 4 in Essex"], names, 0)
    assert [x for _, _, x in got if not isinstance(x, Unreadable)] == [[Order("invest", "essex", 4)]]
    assert [str(x) for _, _, x in got if isinstance(x, Unreadable)] == [
        "'same as last turn' names no order: each turn's orders are written out, state and grain"]


def test_a_share_of_the_grain_needs_the_writers_grain(names):
    """"Half my grain" is an amount only where the writer's grain is known; nothing is
    guessed."""
    unknown = dataclasses.replace(names, stock={})
    with pytest.raises(Unreadable, match="the writer's grain is not known"):
        _read("Half my grain to defend Essex", unknown)
    assert _read("Half my grain to defend Essex", dataclasses.replace(names, stock={0: 16})) == \
        [Order("defend", "essex", 8)]
