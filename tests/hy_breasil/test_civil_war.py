"""§6.1 Civil war: which splits are best, found by a bounded search (RULINGS HB-Q13, HB-Q110).

§6.1: "The owner of the nation picks half (rounded down) of the areas that the current
nation occupies and forms a new nation from this. Both the new nation and the remaining
part of the old nation must be internally connected as described in section 6.4 if this is
at all possible. If it is not possible, each nation must consist of as few disconnected
groups as possible."

The reference below tries every split, as realms did while a nation had at most 14 areas;
the search must give the same answers there, and stay within its work bound beyond.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from realms.games.hy_breasil.civil_war import EXACT_AREAS, WORK_BOUND, SplitSearch, nation_links
from realms.games.hy_breasil.connect import components


def every_split(land: int, links: dict[int, int], k: int) -> tuple[int, list[int]]:
    """The fewest groups and every split that has them, by trying every split."""
    areas = [a for a in range(land.bit_length()) if land >> a & 1]
    best, found = -1, []
    for combo in combinations(areas, k):
        m = sum(1 << a for a in combo)
        groups = len(components(m, links)) + len(components(land & ~m, links))
        if best < 0 or groups < best:
            best, found = groups, [m]
        elif groups == best:
            found.append(m)
    return best, found


def random_links(rng: random.Random, n: int, p: float) -> dict[int, int]:
    links = {a: 0 for a in range(n)}
    for a, b in combinations(range(n), 2):
        if rng.random() < p:
            links[a] |= 1 << b
            links[b] |= 1 << a
    return links


def check_against_every_split(land: int, links: dict[int, int], rng: random.Random) -> None:
    """The search's fewest groups, and the areas it offers at each pick along a random
    sequence of picks, equal those of every split; one split left is taken."""
    k = bin(land).count("1") // 2
    best, splits = every_split(land, links, k)
    found = SplitSearch(land, links, k).best()
    assert not found.cut and found.work < WORK_BOUND
    assert found.groups == best and found.split in splits
    picked = 0
    while True:
        fits = [m for m in splits if m & picked == picked]
        offered = SplitSearch(land, links, k, picked).choices(best)
        assert not offered.cut
        union = 0
        for m in fits:
            union |= m
        assert offered.union == union
        assert (bin(offered.union).count("1") == k) == (len(fits) == 1)
        if len(fits) == 1:
            return
        picked |= 1 << rng.choice([a for a in range(land.bit_length()) if (union & ~picked) >> a & 1])


def test_search_equals_every_split_on_small_nations():
    """§6.1 on 150 random nations of 2 to 14 areas, linked sparsely to densely."""
    rng = random.Random(61)
    for _ in range(150):
        n = rng.randint(2, EXACT_AREAS)
        check_against_every_split((1 << n) - 1, random_links(rng, n, rng.choice([0.05, 0.1, 0.2, 0.35, 0.6])), rng)


def test_search_equals_every_split_on_the_map(hb):
    """§6.1 on nations of up to 14 areas of the bundled map, other nations around them so
    that some splits cannot be connected (links as §6.4 and RULINGS HB-Q23 make them)."""
    rng = random.Random(64)
    land = hb.land()
    for _ in range(60):
        s = hb.game(players=3)
        areas = rng.sample(land, rng.randint(2, EXACT_AREAS))
        others = rng.sample([a for a in land if a not in areas], rng.randint(0, 14))
        n = hb.nation(s, 0, {a: 1 for a in areas})
        if others:
            hb.nation(s, 1, {a: 1 for a in others})
        check_against_every_split(n.land, nation_links(s, n), rng)


def test_work_bound_covers_every_search_of_a_default_set():
    """A 15-token set holds at most 14 areas (RULINGS HB-Q14); a search over n areas, k for
    the new nation, visits at most comb(n + 2, k + 1) - 1 positions, below the bound, and
    searches held to that count finish on nations of every density."""
    assert all(comb(n + 2, n // 2 + 1) - 1 < WORK_BOUND for n in range(2, EXACT_AREAS + 1))
    rng = random.Random(14)
    n, k = EXACT_AREAS, EXACT_AREAS // 2
    for p in (0.0, 0.05, 0.1, 0.2, 0.4, 1.0):
        links = random_links(rng, n, p)
        best = SplitSearch((1 << n) - 1, links, k, bound=comb(n + 2, k + 1) - 1).best()
        assert not best.cut
        every = SplitSearch((1 << n) - 1, links, k, bound=comb(n + 2, k + 1) - 1).choices(best.groups)
        assert not every.cut and every.union == (1 << n) - 1


def test_work_bound_stops_a_hard_search_deterministically():
    """Beyond 14 areas a search that cannot finish takes the best split found within the
    bound (RULINGS HB-Q110): a valid split, the same one every time (the bound lowered to
    2,000 positions to keep the test short; the work is counted, never timed)."""
    rng = random.Random(40)
    cut = 0
    for n in (28, 32, 40):
        links = random_links(rng, n, 0.04)
        land, k = (1 << n) - 1, n // 2
        first = SplitSearch(land, links, k, bound=2000).best()
        again = SplitSearch(land, links, k, bound=2000).best()
        assert first.work <= 2000
        assert (first.groups, first.split, first.work) == (again.groups, again.split, again.work)
        assert bin(first.split).count("1") == k and first.split & ~land == 0
        assert first.groups == len(components(first.split, links)) + len(components(land & ~first.split, links))
        choices = SplitSearch(land, links, k, bound=2000).choices(first.groups)
        assert choices.work <= 2000 and choices.split
        cut += first.cut
    assert cut  # these sparse nations do hit the bound


@pytest.mark.parametrize("areas", [28, 32, 39])
def test_a_big_nation_splits_within_the_work_bound(hb, areas):
    """§6.1 with 40-token sets (the most the lobby allows): a nation of 28, 32 or 39 areas
    of the bundled map, hemmed in by another nation, splits with every search within the
    bound, and the owner is offered only areas of splits as good as the best found."""
    s = hb.game(players=2, set_size=40)
    start = hb.first(a for a in hb.land() if not hb.seas_of(a))
    land = hb.connected_land(start, areas)
    n = hb.nation(s, 0, {a: 1 for a in land})
    rest = [a for a in hb.land() if a not in land]
    if rest:
        hb.nation(s, 1, {a: 1 for a in rest})
    links, k = nation_links(s, n), areas // 2
    best = SplitSearch(n.land, links, k).best()
    assert best.work <= WORK_BOUND and best.groups >= 2
    s.dice.push(0)
    d = hb.run(s, ("civil_war", n.id))
    picked = 0
    while d is not None:
        assert d.kind == "hb.civil-war-area" and len(d.keys) >= 2
        offered = SplitSearch(n.land, links, k, picked).choices(best.groups)
        assert offered.work <= WORK_BOUND
        assert set(d.keys) == hb.ids(a for a in range(offered.union.bit_length()) if (offered.union & ~picked) >> a & 1)
        picked |= 1 << hb.a(d.keys[-1])
        d = hb.answer(s, d.keys[-1])
    assert picked
    rebel = s.nations[s.area_nation[picked.bit_length() - 1]]
    assert rebel is not n and rebel.land & picked == picked
    assert len(s.land_areas(rebel)) == k and len(s.land_areas(n)) == areas - k
    assert len(components(rebel.land, links)) + len(components(n.land, links)) == best.groups
