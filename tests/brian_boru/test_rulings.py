"""One test per ruling of src/realms/games/brian_boru/RULINGS.md (BB-Q1–29, BB-Q101–106)."""

from __future__ import annotations

import json

from realms.games.brian_boru import GAME
from realms.games.brian_boru.actions import action_frames
from realms.games.brian_boru.church import monastery_towns
from realms.games.brian_boru.tables import parse_cards


def _hands(s, bb, *hands):
    for p, labels in enumerate(hands):
        s.hands[p] = [bb.c(x) for x in labels]


def _fill(s, bb, colours=("R", "B", "Y"), player=0, keep=()):
    """Discs of ``player`` on every town of ``colours`` but ``keep``."""
    for town in bb.board.towns:
        if town.colour in colours and town.id not in keep and s.owner[town.index] == bb.NOBODY:
            s.owner[town.index] = player


# -- Actions ---------------------------------------------------------------------------------
def test_bb_q1_card_actions_from_data(bb):
    cards = bb.tables.cards
    assert cards[5].secondary[0] == (("coin", 0, 3), ("expand", 0, 1))        # 5R: 3 coins
    assert cards[5].secondary[0] == cards[4].secondary[0] == cards[6].secondary[0]
    assert cards[1].primary == (("town", 0, 1), ("marriage", 0, 2), ("coin", 0, 1))
    assert cards[13].secondary[1] == (("pay", 0, 1), ("unviking", 0, 1))
    assert all(c.primary[0] == ("town", 0, 1) for c in cards[1:])
    for v in (20, 21, 22):
        assert len(cards[v].secondary) == 1


def test_bb_q1_coin_after_steps_cannot_pay_for_them(bb):
    s = bb.game()
    s.active = bb.t(28)
    s.coins[0] = 1
    assert bb.run(s, *action_frames(0, bb.tables.cards[1].primary)) is None   # no spending offer
    assert s.track[0] == 3 and s.coins[0] == 2 and s.owner[bb.t(28)] == 0


def test_bb_q2_two_steps_one_offer(bb):
    s = bb.game()
    s.battle = 5
    s.coins[0] = 4
    d = bb.run(s, ("sym", 0, "raider", 0, 2))
    assert s.raiders[0] == 2 and d.kind == "bb.spend" and d.keys == ["0", "1", "2"]
    assert bb.answer(s, "1") is None                 # a single offer for both symbols
    assert s.raiders[0] == 3 and s.coins[0] == 2
    s.battle = 1
    assert bb.run(s, ("sym", 1, "raider", 0, 2)) is None   # the second symbol finds none
    assert s.raiders[1] == 1 and s.battle == 0


def test_bb_q3_quick_reference_symbols_only_on_marriage_cards(bb):
    for c in bb.tables.cards[1:]:
        for action in (c.primary, *c.secondary):
            assert not {g[0] for g in action} & {"points", "any-town", "region-town"}
    data = {"card": [{"value": v, "colour": "R", "primary": ["town", "points:1"],
                      "secondary": [["coin", "any-town"], ["pay", "renown", "church", "raider", "marriage",
                                                             "expand", "unviking"]]} for v in range(1, 26)]}
    cards, _ = parse_cards(data, bb.board)
    assert cards[1].primary[1] == ("points", 1, 1)
    s = bb.game()
    bb.run(s, ("sym", 2, "points", 3, 1))
    assert s.points[2] == 13


def test_bb_q4_pay_symbols_one_by_one(bb):
    s = bb.game()
    s.coins[0], s.points[0] = 1, 5
    bb.run(s, ("sym", 0, "pay", 0, 2))
    assert (s.coins[0], s.points[0]) == (0, 3)
    s.points[1], s.coins[1] = 1, 0
    bb.run(s, ("sym", 1, "pay", 0, 1))
    assert s.points[1] == 0


def test_bb_q5_spending_limits_and_after_landing(bb):
    s = bb.game()
    s.battle, s.coins[0] = 2, 20
    d = bb.run(s, ("sym", 0, "raider", 0, 1))
    assert d.keys == ["0", "1"]                          # one raider left to buy
    s.track = [1, 7, 1, 1]
    s.coins[1] = 20
    d = bb.run(s, ("sym", 1, "marriage", 0, 1))
    assert s.track[1] == 8 and d.keys == ["0", "1"]      # one space to the top
    s.track = [1, 7, 5, 4]
    s.coins[3] = 2
    d = bb.run(s, ("sym", 3, "marriage", 0, 1), ("act_done", 3, bb.c("7Y")))
    assert s.track[3] == 5 and d.kind == "bb.spend"      # offered after landing on 2's space


def test_bb_q6_expand_never_into_the_active_town(bb):
    s = bb.game()
    bb.own(s, 0, 17)
    s.coins[0] = 9
    s.active = bb.t(22)
    d = bb.run(s, ("sym", 0, "expand", 0, 1))
    assert d.keys == ["none", "18"]


def test_bb_q6_not_from_a_viking_town(bb):
    s = bb.game()
    bb.own(s, 0, 17, vikings=True)
    s.coins[0] = 9
    assert bb.run(s, ("sym", 0, "expand", 0, 1)) is None
    assert s.coins[0] == 9


def test_bb_q7_leader_without_a_matching_card(bb):
    s = bb.game(players=3)
    _fill(s, bb, colours=("Y",), player=1)                 # no free yellow town
    _hands(s, bb, ["1Y", "4Y"], ["3B", "6B"], ["9B", "12B"])
    d = bb.run(s, ("trick",))
    assert d.kind == "bb.active-town"
    assert {bb.board.towns[bb.t(int(k))].colour for k in d.keys} == {"R", "B"}
    d = bb.answer(s, "26")                                  # red: nobody can follow
    assert d.kind == "bb.lead" and sorted(d.keys) == ["1Y", "4Y"]
    bb.answer(s, "1Y")
    bb.answer(s, "3B")
    d = bb.answer(s, "9B")
    assert s.winner == bb.NOBODY and d.kind == "bb.secondary"


def test_bb_q7_no_free_town(bb):
    s = bb.game(players=3)
    _fill(s, bb, player=2)
    _hands(s, bb, ["1Y", "4Y"], ["3B", "6B"], ["9B", "20W"])
    d = bb.run(s, ("trick",))
    assert d.kind == "bb.lead" and s.active == bb.NOBODY and sorted(d.keys) == ["1Y", "4Y"]
    bb.answer(s, "4Y")
    bb.answer(s, "3B")
    bb.answer(s, "20W")
    assert s.winner == bb.NOBODY                            # even the white cannot win
    assert "nobody can win" in bb.texts(s)


def test_bb_q8_marker_stays_with_leader_when_nobody_wins(bb):
    s = bb.game(players=3)
    s.marker = 1
    _fill(s, bb, colours=("Y",), player=0)
    _hands(s, bb, ["3B", "6B"], ["1Y", "4Y"], ["9B", "12B"])
    bb.run(s, ("trick",))
    bb.answer(s, "26")
    bb.answer(s, "1Y")
    bb.answer(s, "9B")
    d = bb.answer(s, "3B")
    while d is not None:
        d = bb.answer(s, d.keys[0])
    assert s.marker == 1 and s.owner[bb.t(26)] == bb.NOBODY


def test_bb_q8_viking_town_is_not_free(bb):
    s = bb.game(players=3)
    bb.own(s, 1, 26, vikings=True)
    assert bb.t(26) not in s.free_towns()
    _hands(s, bb, ["2R", "5R"], ["1Y", "4Y"], ["3B", "6B"])
    d = bb.run(s, ("trick",))
    assert "26" not in d.keys


# -- Draft and tricks ------------------------------------------------------------------------
def test_bb_q9_five_players_pick_four_and_one_forced(bb):
    s = bb.game(players=5)
    bb.run(s, ("deal",), ("pick", 0))
    picks = {p: 0 for p in range(5)}
    while s.pending():
        d = s.pending()[0]
        picks[d.player] += 1
        s.apply(d.player, d.keys[0])
    assert picks == {p: 4 for p in range(5)}
    assert all(len(h) == 5 for h in s.hands) and s.leftover == []


def test_bb_q9_passed_cards_leave_the_view(bb):
    s = bb.game(players=3)
    bb.run(s, ("deal",), ("pick", 0))
    for _ in range(2):
        for d in list(s.pending()):
            s.apply(d.player, d.keys[0])
    passed = s.packets[1]                      # what player 0 passed to player 1
    text = json.dumps(s.view(0))
    for c in passed:
        assert json.dumps(bb.tables.card_label(c)) not in text
        assert bb.tables.card_label(c) in GAME.hidden(s, 0)


def test_bb_q9_leftover_never_seen(bb):
    s = bb.game(players=4)
    bb.run(s, ("deal",), ("pick", 0))
    (left,) = s.leftover
    label = json.dumps(bb.tables.card_label(left))
    for viewer in (None, 0, 1, 2, 3):
        assert label not in json.dumps(s.view(viewer))
        assert bb.tables.card_label(left) in GAME.hidden(s, viewer)
    assert s.view(0)["leftover"] == 1


def test_bb_q10_trick_public_discard_pile_hidden(bb):
    s = bb.game(players=3)
    _hands(s, bb, ["20W", "3B"], ["14Y", "6B"], ["15R", "9B"])
    bb.run(s, ("trick",))
    bb.answer(s, "26")
    bb.answer(s, "14Y")
    d = bb.answer(s, "15R")                  # 14Y acts first
    assert d.player == 1
    view = s.view(2)
    assert [e["card"] for e in view["trick"]["played"]] == ["20W", "14Y", "15R"]
    bb.answer(s, d.keys[0])
    d = s.pending()[0] if s.pending() else None
    view = s.view(2)
    assert [e["resolved"] for e in view["trick"]["played"]] == [False, True, False]
    while d is not None:
        d = bb.answer(s, d.keys[0])
    view = s.view(2)
    assert view["discard_pile"] == 6 and view["trick"]["played"] == []
    text = json.dumps(view)
    for label in ("20W", "14Y", "15R", "3B", "6B"):
        assert json.dumps(label) not in text
    assert "3B" not in bb.texts(s) and "6B" not in bb.texts(s)   # discarded unseen


# -- Marriage ----------------------------------------------------------------------------------
def test_bb_q11_track_positions_persist(bb):
    s = bb.game(players=3)
    s.marriage_card = bb.tables.marriage_index["points"]
    s.track = [5, 3, 1]
    bb.run(s, ("marriage",))
    assert s.track == [1, 3, 1]
    s.marriage_deck = [bb.tables.princess]
    bb.run(s, ("round",))                    # a new round does not reset the track
    assert s.track == [1, 3, 1]
    assert len(bb.tables.track) == 9


def test_bb_q12_track_town_reward_without_a_free_town(bb):
    s = bb.game(players=3)
    _fill(s, bb, player=2)
    s.marriage_card = bb.tables.marriage_index["points"]
    s.track = [9, 8, 1]
    assert bb.run(s, ("marriage",)) is None
    assert sum(1 for o in s.owner if o == 1) == 0
    assert "finds no town without a disc" in bb.texts(s)


def test_bb_q13_nine_marriage_cards_are_seven_and_two_princesses(bb):
    """Components, "9 marriage cards": 7 ordinary cards, the Princess of Denmark, and the
    Dänische Prinzessin, "only used if you're playing in German"; no eighth ordinary card."""
    t = bb.tables
    assert len(t.marriages) == 9
    assert [(m.name, m.language) for m in t.marriages if m.princess] == [
        ("The Princess of Denmark", "en"), ("Dänische Prinzessin", "de")]
    assert t.marriages[t.princess].language == "en"
    ordinary = [t.marriages[i] for i in t.ordinary]
    assert len(ordinary) == 7 and not any(m.princess or m.language != "en" for m in ordinary)
    assert "ulaid" not in t.marriage_index
    regional = sorted(bb.board.regions[g[1]].id for m in ordinary for g in m.benefits if g[0] == "region-town")
    assert regional == ["connaught", "leinster", "munster", "northern-ui-neill", "southern-ui-neill"]
    assert all(m.benefits[0] == ("points", 2, 1) for m in ordinary if len(m.benefits) == 2)


def test_bb_q13_setup_removes_the_dänische_prinzessin(bb):
    """Setup: "Remove the Dänische Prinzessin card from the game", then 2 (3p) or 3 (4-5p)
    of the other cards go on top of the Princess of Denmark."""
    t = bb.tables
    german = t.marriage_index["daenische-prinzessin"]
    seen = set()
    for players in (3, 4, 5):
        for seed in range(40):
            deck = GAME.new_game({"players": players}, seed).marriage_deck
            assert german not in deck
            assert deck[0] == t.princess and len(deck) == 1 + t.rules.marriage_cards[players]
            assert len(set(deck)) == len(deck) and set(deck[1:]) <= set(t.ordinary)
            seen.update(deck[1:])
    assert seen == set(t.ordinary)


def test_bb_q13_points_count_when_the_region_is_full(bb):
    """Marriage step: a full region makes only the town symbol void ("this symbol has no
    effect"); the card's 2 points still count."""
    s = bb.game(players=3)
    s.marriage_card = bb.tables.marriage_index["munster"]
    bb.own(s, 1, *bb.towns_of("munster"))
    s.track = [3, 1, 1]
    bb.run(s, ("marriage",))
    assert s.points[0] == 12 and s.marriages[0] == [bb.tables.marriage_index["munster"]]
    assert sum(1 for o in s.owner if o == 0) == 0


def test_bb_q14_removed_card_rewards_still_paid(bb):
    s = bb.game(players=3)
    bb.run(s, ("marriage",))
    assert s.marriage_card == bb.NOBODY
    assert s.coins == [3, 3, 3] and s.renown == [1, 1, 1]
    assert "removed from the game" in bb.texts(s)


def test_bb_q15_military_support_merges_the_vikings(bb):
    s = bb.game(players=3)
    r = bb.region("dubhlinn")
    s.claim_up[r] = True
    bb.own(s, 0, 23)
    bb.own(s, 1, 24, vikings=True, monastery=True)
    per, vikings = s.weights(r)
    assert vikings == 2 and per == [1, 0, 0]
    s.princess_holder, s.princess_side = 2, "military"
    per, vikings = s.weights(r)
    assert vikings == 0 and per == [1, 0, 2]
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == 2
    assert monastery_towns(s, 2) == []           # no monastery on a Viking town


def test_bb_q16_kept_princess_counts_in_tie_break(bb):
    s = bb.game(players=3)
    s.over = True
    s.points = [20, 20, 5]
    s.marriages[0] = [bb.tables.princess]
    assert s.result()["winner"] == "P1"
    s2 = bb.game(players=3)
    s2.marriage_card = bb.tables.princess
    s2.track = [3, 1, 1]
    bb.run(s2, ("marriage",))
    bb.answer(s2, "spurn")
    assert s2.marriages[0] == []


# -- Battle ------------------------------------------------------------------------------------
def test_bb_q17_raiders_not_limited(bb):
    s = bb.game(players=3)
    s.battle = 25
    s.viking_deck = [14]
    bb.run(s, ("prepare",))
    assert s.battle == 39
    assert sorted(bb.tables.vikings) == [9, 10, 11, 12, 13, 13, 14]


def test_bb_q18_all_tied_all_lose_and_choose(bb):
    s = bb.game(players=3)
    s.battle = 3
    s.marker = 1
    bb.own(s, 0, 1, 2)
    bb.own(s, 1, 8, 9)
    d = bb.run(s, ("battle",))
    assert (d.player, d.kind) == (1, "bb.lose-town") and set(d.keys) == {"8", "9"}
    d = bb.answer(s, "8")
    assert (d.player, set(d.keys)) == (0, {"1", "2"})
    assert bb.answer(s, "2") is None               # player 2 has no town: nothing to lose
    assert s.viking[bb.t(8)] and s.viking[bb.t(2)]
    assert "P3 controls no town to lose" in bb.texts(s)


def test_bb_q19_monastery_town_lost_counts_double_for_vikings(bb):
    s = bb.game(players=4)
    s.battle = 2
    s.raiders = [3, 0, 3, 0]
    s.marker = 2
    bb.own(s, 1, 23, monastery=True)
    bb.own(s, 1, 24)
    bb.own(s, 3, 1, 2)
    d = bb.run(s, ("battle",))
    assert d.player == 3                             # tied losers: clockwise from the marker (2)
    d = bb.answer(s, "1")
    assert d.player == 1
    bb.answer(s, "23")
    per, vikings = s.weights(bb.region("dubhlinn"))
    assert vikings == 2 and per[1] == 1


def test_bb_q20_actor_chooses_owner_regains(bb):
    s = bb.game(players=3)
    bb.own(s, 1, 1, vikings=True)
    bb.own(s, 2, 8, vikings=True)
    d = bb.run(s, ("sym", 0, "unviking", 0, 1))
    assert d.player == 0
    bb.answer(s, "8")
    assert s.controlled(2) == [bb.t(8)] and s.controlled(0) == []


def test_bb_q21_no_spoils_without_raiders(bb):
    s = bb.game(players=3)
    s.raiders = [0, 0, 0]
    s.renown = [3, 3, 3]
    bb.run(s, ("spoils",))
    assert s.points == [10, 10, 10] and s.renown == [3, 3, 3]
    s.raiders = [0, 0, 1]
    bb.run(s, ("spoils",))
    assert s.renown[2] == 4 and s.points == [10, 10, 14] and s.raiders == [0, 0, 0]


# -- Church ------------------------------------------------------------------------------------
def test_bb_q22_leader_without_town_still_takes_marker_and_discs(bb):
    s = bb.game(players=3)
    s.marker = 1
    s.church = [3, 1, 0]
    assert bb.run(s, ("church",)) is None
    assert s.marker == 0 and s.church == [0, 1, 0] and not any(s.monastery)


def test_bb_q23_no_church_points_without_discs(bb):
    s = bb.game(players=3)
    bb.run(s, ("church",), ("church_points",), ("church_monasteries",))
    assert s.points == [10, 10, 10]


def test_bb_q24_cannot_place_keeps_discs(bb):
    s = bb.game(players=3)
    s.church = [5, 5, 0]
    bb.own(s, 1, 30)
    bb.own(s, 0, 31, vikings=True)               # a Viking town cannot take a monastery
    bb.run(s, ("church",), ("church_points",), ("church_monasteries",))
    assert s.points == [11, 11, 10]
    assert s.church == [4, 0, 0]
    assert s.monastery[bb.t(30)] and not s.monastery[bb.t(31)]


# -- Claims and scoring ------------------------------------------------------------------------
def test_bb_q25_ties_leave_the_token(bb):
    s = bb.game(players=3)
    r = bb.region("dubhlinn")
    s.claim_up[r] = True
    bb.own(s, 0, 23)
    bb.own(s, 1, 24, vikings=True)
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == bb.BOARD         # a player ties the Vikings: stays on the board
    s.claim_holder[r] = 2
    s.owner[bb.t(24)] = 1
    s.viking[bb.t(24)] = False                   # now 0 and 1 tie, 2 holds the token
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == 2


def _end(s, bb):
    """Nothing but board tokens and regions to score: no renown, no marker, coins tied."""
    s.points = [0] * s.n
    s.renown = [0] * s.n
    s.coins = [1] * s.n
    s.marker = bb.NOBODY
    s.marriage_deck = []


def test_bb_q26_two_players_tied_below_the_vikings_score_half(bb):
    """Scoring: "For every face-up claim token on the board, all players tied for the most
    towns in that region score half the number of points shown on that token, rounded
    down."  Leinster (6 points): the Vikings on 3 towns, P1 and P2 on 2 each — the most
    among the players is 2, so both score 3."""
    s = bb.game(players=3)
    _end(s, bb)
    lei = bb.region("leinster")
    s.claim_up[lei] = True
    towns = bb.towns_of("leinster")
    bb.own(s, 2, *towns[:3], vikings=True)
    bb.own(s, 0, *towns[3:5])
    bb.own(s, 1, *towns[5:7])
    assert s.weights(lei) == ([2, 2, 0], 3)
    bb.run(s, ("round_end",))
    assert s.final["P1"] == s.final["P2"] == {"half the claim token of Leinster": 3}
    assert s.final["P3"] == {} and s.points == [3, 3, 0]


def test_bb_q26_one_player_below_the_vikings_and_nobody_without_a_town(bb):
    """Scoring, board tokens: Dubhlinn (2 points), the Vikings on 23 and 24, P3 alone on
    25 — the most among the players: half, 1 point.  Ulaid (4 points), the Vikings alone
    on 8 — no player has a town there: nobody scores."""
    s = bb.game(players=3)
    _end(s, bb)
    dub, ul = bb.region("dubhlinn"), bb.region("ulaid")
    s.claim_up[dub] = s.claim_up[ul] = True
    bb.own(s, 1, 23, 24, 8, vikings=True)
    bb.own(s, 2, 25)
    bb.run(s, ("round_end",))
    assert s.final["P3"] == {"half the claim token of Dubhlinn": 1}
    assert s.final["P1"] == s.final["P2"] == {} and s.points == [0, 0, 1]


def test_bb_q27_coins_and_claim_tie_break(bb):
    s = bb.game(players=3)
    s.coins = [0, 0, 0]
    s.renown = [0, 0, 0]
    s.marker = bb.NOBODY
    s.marriage_deck = []
    bb.run(s, ("round_end",))
    assert s.points == [10, 10, 10]
    s2 = bb.game(players=3)
    s2.over = True
    s2.points = [20, 20, 1]
    s2.claim_up[0] = True                        # face up on the board: nobody's
    s2.claim_holder[1] = 1
    s2.claim_up[1] = True
    assert s2.result()["winner"] == "P2"


#: The roads of shared/brian-boru-data.md, the only source: "no road is to be invented".
SOURCE_ROADS = """1-4 2-3 3-5 4-13 5-7 6-15 7-10 8-9 11-12 13-14 14-27 17-18 17-22 18-19 19-20 20-21 21-22
24-35 25-39 27-53 28-29 29-33 31-43 32-33 34-35 36-37 37-40 38-39 38-41 39-41 40-42 41-42 44-45 46-48
48-50 49-51"""


def test_bb_q28_only_the_source_roads_some_towns_have_none(bb):
    """Board: "roads connect some towns" — the board has the source's 36 roads and no
    other; six towns have none."""
    b = bb.board
    source = {frozenset(int(x) for x in pair.split("-")) for pair in SOURCE_ROADS.split()}
    assert {frozenset((b.towns[i].id, b.towns[j].id)) for i, j in b.roads} == source and len(b.roads) == 36
    assert sorted(t.id for t in b.towns if not b.adj[t.index]) == [16, 23, 26, 30, 47, 52]
    assert b.towns[bb.t(53)].region == bb.region("connaught")
    assert len(b.towns) == 53


def test_bb_q28_no_expansion_into_or_from_a_roadless_town(bb):
    """Actions, expand: "only ... into a town that is connected by a road to a town you
    already control".  From 15 (road 6-15) the roadless 16 next to it in Breifne is no
    target; a player whose only town is the roadless 26 has nowhere to expand."""
    s = bb.game(players=3)
    bb.own(s, 0, 15)
    bb.own(s, 1, 26)
    s.coins = [9, 9, 9]
    d = bb.run(s, ("sym", 0, "expand", 0, 1))
    assert d.kind == "bb.expand" and d.keys == ["none", "6"]
    bb.answer(s, "6")
    assert bb.run(s, ("sym", 1, "expand", 0, 1)) is None
    assert s.coins == [4, 9, 9] and s.owner[bb.t(16)] == bb.NOBODY
    assert sorted(bb.board.towns[t].id for t in s.controlled(1)) == [26]


def test_bb_q29_ban_only_for_first_placement(bb):
    s = bb.game(players=3)
    bb.own(s, 0, 17)
    bb.own(s, 1, 21)
    s.coins[0] = 5
    d = bb.run(s, ("sym", 0, "expand", 0, 1))
    assert d.keys == ["none", "18", "22"]        # Southern Uí Néill also holds 1's disc


# -- Our own questions ---------------------------------------------------------------------------
def test_bb_q101_top_space_always_wins(bb):
    assert bb.tables.track[-1] == ()
    s = bb.game(players=3)
    s.marriage_card = bb.tables.marriage_index["renown"]
    s.track = [2, 9, 8]
    d = bb.run(s, ("marriage",))
    assert s.marriages[1] and s.track[1] == 1
    assert d.kind == "bb.place-town" and d.player == 2   # space 8 pays, the winner does not


def test_bb_q102_two_simultaneous_single_picks(bb):
    s = bb.game(players=3)
    bb.run(s, ("deal",), ("pick", 0))
    assert len(s.pending()) == 3
    s.apply(0, s.decision_for(0).keys[0])
    assert sorted(d.player for d in s.pending()) == [1, 2]     # 0 waits for the others
    s.apply(2, s.decision_for(2).keys[0])
    s.apply(1, s.decision_for(1).keys[0])
    assert len(s.pending()) == 3 and all(len(d.keys) == 7 for d in s.pending())


def test_bb_q103_monastery_counts_in_board_token_scoring(bb):
    s = bb.game(players=3)
    s.points = [0, 0, 0]
    s.renown = [0, 0, 0]
    s.coins = [1, 1, 1]
    s.marker = bb.NOBODY
    dub = bb.region("dubhlinn")
    s.claim_up[dub] = True
    bb.own(s, 0, 23, monastery=True)
    bb.own(s, 1, 24, 25)
    s.marriage_deck = []
    bb.run(s, ("round_end",))
    assert s.final["P1"]["half the claim token of Dubhlinn"] == 1
    assert s.final["P2"]["half the claim token of Dubhlinn"] == 1


def test_bb_q104_upkeep_order_clockwise_from_marker(bb):
    s = bb.game(players=4)
    s.battle = 1
    s.raiders = [2, 0, 0, 0]
    s.marker = 3
    for p, towns in ((1, (1, 2)), (2, (8, 9)), (3, (13, 14))):
        bb.own(s, p, *towns)
    owners = []
    d = bb.run(s, ("battle",))
    while d is not None:
        owners.append(s.owner[bb.t(int(d.keys[0]))])
        d = bb.answer(s, d.keys[0])
    assert owners == [3, 1, 2]


def test_bb_q105_forced_choices_are_automatic(bb):
    s = bb.game(players=3)
    _hands(s, bb, ["2R", "3B"], ["1Y", "4Y"], ["6B", "9B"])
    bb.run(s, ("trick",))
    d = bb.answer(s, "26")
    assert d.kind == "bb.play" and s.table[0][1] == bb.c("2R")   # the only legal lead
    s2 = bb.game(players=3)
    s2.church = [2, 0, 0]
    bb.own(s2, 0, 30)
    assert bb.run(s2, ("church",)) is None and s2.monastery[bb.t(30)]


def test_bb_q106_expansion_targets(bb):
    s = bb.game(players=3)
    bb.own(s, 0, 17, 20)
    s.coins[0] = 5
    d = bb.run(s, ("sym", 0, "expand", 0, 1))
    assert d.keys == ["none", "18", "19", "21", "22"]
