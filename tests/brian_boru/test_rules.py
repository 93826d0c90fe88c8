"""Rules tests: each names the rulebook heading it checks (../shared/rules/brian-boru.txt)."""

from __future__ import annotations

import pytest

from realms.games.brian_boru import GAME


# -- Setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, marriage_cards, rounds", [(3, 3, 3), (4, 4, 4), (5, 4, 4)])
def test_setup_supplies_decks_and_rounds(bb, players, marriage_cards, rounds):
    """Setup: 3 coins, 1 renown, 10 points, space 1; 2 (3p) or 3 (4-5p) marriage cards on
    top of the Princess of Denmark; the game lasts 3 rounds (3p) or 4 (4-5p)."""
    s = GAME.new_game({"players": players}, 11)
    assert s.coins == [3] * players and s.renown == [1] * players and s.points == [10] * players
    assert s.track == [1] * players
    assert len(s.marriage_deck) == marriage_cards
    assert s.marriage_deck[0] == bb.tables.princess          # bottom of the pile: revealed last
    assert bb.tables.princess not in s.marriage_deck[1:]
    assert s.rounds == rounds
    assert len(s.viking_deck) == 7
    assert s.marker == s.first_player
    assert s.pending()[0].player == s.first_player and s.pending()[0].kind == "bb.first-town"


def test_setup_first_placements_clockwise_one_region_each(bb):
    """Setup: clockwise, each player places a disc on a town, never in the same region as
    another player's disc."""
    s = GAME.new_game({"players": 4}, 5)
    first = s.first_player
    seen_regions = set()
    for i in range(4):
        d = s.pending()[0]
        assert d.player == (first + i) % 4
        for key in d.keys:
            assert bb.board.towns[bb.t(int(key))].region not in seen_regions
        key = d.keys[-1]
        seen_regions.add(bb.board.towns[bb.t(int(key))].region)
        s.apply(d.player, key)
    assert sum(1 for o in s.owner if o != bb.NOBODY) == 4
    assert s.pending()[0].kind == "bb.draft"


def test_game_plays_three_or_four_rounds(bb):
    """How to play: three rounds with three players, four with four or five."""
    from realms.core.agents import RandomBot
    from realms.core.match import play

    for players, rounds in ((3, 3), (4, 4), (5, 4)):
        s = play(GAME.new_game({"players": players}, 3), [RandomBot(i) for i in range(players)])
        assert s.over and s.result()["rounds"] == rounds and s.result()["turns"] == rounds
        assert not s.marriage_deck


# -- Preparation phase ---------------------------------------------------------------------------
def test_preparation_reveals_vikings_and_marriage_card(bb):
    """Preparation phase: the top Viking card's strength in raiders goes to the battle area
    (added to any left there); the top marriage card goes to the track; an empty marriage
    deck makes it the final round."""
    s = bb.game(players=3)
    s.marriage_deck = [bb.tables.princess]
    s.viking_deck = [9, 12]
    s.battle = 2
    bb.run(s, ("prepare",))
    assert s.battle == 14 and s.viking_deck == [9]
    assert s.marriage_card == bb.tables.princess and s.marriage_deck == []
    assert "final round" in bb.texts(s)


# -- Draft phase -------------------------------------------------------------------------------
@pytest.mark.parametrize("players, dealt, leftover", [(3, 8, 1), (4, 6, 1), (5, 5, 0)])
def test_draft_deal_and_hand_sizes(bb, players, dealt, leftover):
    """Draft phase: deal 8 / 6 / 5; with 3 or 4 players one card stays face down; all the
    players pick at the same time (several pending decisions); the hand ends with all the
    dealt cards."""
    s = bb.game(players=players)
    decisions = bb.run(s, ("deal",), ("pick", 0))
    assert decisions is not None
    assert all(len(p) == dealt for p in s.packets)
    assert len(s.leftover) == leftover
    pend = s.pending()
    assert sorted(d.player for d in pend) == list(range(players))
    assert all(d.kind == "bb.draft" for d in pend)
    while s.pending():
        d = s.pending()[0]
        s.apply(d.player, d.keys[0])
    assert all(len(h) == dealt for h in s.hands)
    assert all(not p for p in s.picks) and all(not p for p in s.packets)


def test_draft_pick_two_then_pass_left(bb):
    """Draft phase: select two cards, then pass the rest to the player on your left (the
    next seat clockwise); cards already selected are never offered again (no swapping)."""
    s = bb.game(players=4)
    bb.run(s, ("deal",), ("pick", 0))
    packets = [list(p) for p in s.packets]
    firsts = {}
    for d in list(s.pending()):
        firsts[d.player] = d.keys[0]
        s.apply(d.player, d.keys[0])
    # second pick of the same pass: the same packet minus the first card
    for d in s.pending():
        assert firsts[d.player] not in d.keys
        assert len(d.keys) == len(packets[d.player]) - 1
    for d in list(s.pending()):
        s.apply(d.player, d.keys[0])
    # after two picks, player p holds what player p-1 had left
    for p in range(4):
        left = [c for c in packets[(p - 1) % 4]]
        assert set(s.packets[p]) < set(left) and len(s.packets[p]) == 4
        assert len(s.picks[p]) == 2


def test_draft_one_or_two_cards_go_straight_to_the_pile(bb):
    """Draft phase: "When you are passed only one or two cards ... place them directly into
    your face-down pile" — no decision for them."""
    s = bb.game(players=5)
    bb.run(s, ("deal",), ("pick", 0))
    count = 0
    while s.pending():
        d = s.pending()[0]
        assert len(d.keys) >= 2
        s.apply(d.player, d.keys[0])
        count += 1
    assert count == 5 * 4     # 5 players × (2 picks from 5, 2 picks from 3); the last card is automatic
    assert all(len(h) == 5 for h in s.hands)


def test_draft_view_shows_own_picks(bb):
    """Draft phase: "You may look at the cards you have already selected"."""
    s = bb.game(players=3)
    bb.run(s, ("deal",), ("pick", 0))
    d = s.decision_for(1)
    s.apply(1, d.keys[2])
    assert s.view(1)["picks"] == [d.keys[2]]
    assert d.keys[2] not in s.view(1)["packet"]


# -- Tricks --------------------------------------------------------------------------------------
def _hands(s, bb, *hands):
    for p, labels in enumerate(hands):
        s.hands[p] = [bb.c(x) for x in labels]


def test_tricks_leader_must_match_colour_or_white(bb):
    """Tricks: the leader's card must match the active town's colour or be royal (white)."""
    s = bb.game(players=3)
    _hands(s, bb, ["2R", "3B", "20W", "7Y"], ["1Y", "4Y", "6B", "9B"], ["5R", "8R", "10Y", "12B"])
    d = bb.run(s, ("trick",))
    assert d.kind == "bb.active-town" and d.player == 0
    d = bb.answer(s, "26")              # Connaught, red
    assert d.kind == "bb.lead" and sorted(d.keys) == ["20W", "2R"]
    d = bb.answer(s, "2R")
    assert d.kind == "bb.play" and d.player == 1
    assert sorted(d.keys) == ["1Y", "4Y", "6B", "9B"]   # followers play any card


def test_tricks_leader_only_offered_towns_it_can_match(bb):
    """Tricks (RULINGS BB-Q7): the leader places the marker only where it can follow."""
    s = bb.game(players=3)
    _hands(s, bb, ["2R", "5R"], ["1Y", "4Y"], ["3B", "6B"])
    d = bb.run(s, ("trick",))
    assert {bb.board.towns[bb.t(int(k))].colour for k in d.keys} == {"R"}


def test_tricks_highest_in_colour_wins_whites_wild(bb):
    """Tricks: the highest card in the town's colour wins; royal cards count as that colour;
    a higher card of another colour does not win."""
    s = bb.game(players=4)
    _hands(s, bb, ["11R", "3B"], ["2R", "6B"], ["13W", "9B"], ["17Y", "12B"])
    bb.run(s, ("trick",))
    bb.answer(s, "26")
    bb.answer(s, "2R")
    bb.answer(s, "13W")
    d = bb.answer(s, "17Y")
    assert s.winner == 2
    assert d.player == 1          # lowest card (2R) acts first


def test_tricks_actions_in_ascending_card_order_and_last_card_discarded(bb):
    """Tricks: players act from the lowest card up; Action phase: when every player has one
    card left, those cards are discarded and the action phase ends."""
    s = bb.game(players=3)
    _hands(s, bb, ["20W", "3B"], ["14Y", "6B"], ["15R", "9B"])
    bb.run(s, ("trick",))
    bb.answer(s, "26")                     # 20W is the only legal lead → played at once
    order = []
    d = bb.answer(s, "14Y")
    d = bb.answer(s, "15R")
    while d is not None:
        order.append(d.player)
        d = bb.answer(s, d.keys[0])
    acted = [e.data["player"] for e in s.events if e.kind in ("coins", "track", "raiders", "town", "church")]
    assert acted[0] == 1 and acted[-1] == 0     # 14Y first, the winner's 20W last
    assert all(not h for h in s.hands)
    assert sorted(s.discard) == sorted(bb.c(x) for x in ["20W", "3B", "14Y", "6B", "15R", "9B"])
    assert s.owner[bb.t(26)] == 0 and s.marker == 0


def test_action_phase_example(bb):
    """Action phase example: Deirdre leads red 11 in a red Connaught town; Kate plays red 2,
    Georgios white 13, Peer yellow 17.  Georgios wins.  Kate takes 3 coins and expands into
    the one Leinster town Georgios's disc leaves open; Deirdre takes two raiders and spends
    four coins for two more; Georgios claims the town, takes the marker and a coin; Peer
    climbs three spaces onto Kate's space and pays two coins for one more."""
    s = GAME.new_game({"names": ["Deirdre", "Kate", "Georgios", "Peer"]}, 0)
    s2 = bb.game(players=4)
    s2.names = s.names
    s = s2
    _hands(s, bb, ["11R", "3B"], ["2R", "6B"], ["13W", "9B"], ["17Y", "12B"])
    bb.own(s, 1, 38)          # Kate in Leinster: roads 38-39 and 38-41
    bb.own(s, 2, 39)          # Georgios blocks 39
    s.coins = [4, 2, 0, 2]
    s.battle = 8
    s.track = [1, 5, 4, 2]    # Kate on 5, Georgios just below, Peer on 2
    d = bb.run(s, ("trick",))
    assert d.kind == "bb.active-town"
    d = bb.answer(s, "26")                    # a red town in Connaught; 11R is her only red/white card
    assert d.kind == "bb.play" and d.player == 1
    d = bb.answer(s, "2R")
    d = bb.answer(s, "13W")
    d = bb.answer(s, "17Y")
    assert s.winner == 2
    # Kate (2R) acts first: secondary action 1 = three coins, then expand for five
    assert d.player == 1 and d.kind == "bb.secondary"
    d = bb.answer(s, "1")
    assert s.coins[1] == 5
    assert d.kind == "bb.expand" and d.keys == ["none", "41"]
    d = bb.answer(s, "41")
    assert s.owner[bb.t(41)] == 1 and s.coins[1] == 0
    # Deirdre (11R): secondary action 2 = two raiders, then four coins for two more
    assert d.player == 0 and d.kind == "bb.secondary"
    d = bb.answer(s, "2")
    assert s.raiders[0] == 2 and d.kind == "bb.spend" and d.keys == ["0", "1", "2"]
    d = bb.answer(s, "2")
    assert s.raiders[0] == 4 and s.coins[0] == 0 and s.battle == 4
    # Georgios (13W) wins: the town, the marker, a coin — no decision needed
    assert s.owner[bb.t(26)] == 2 and s.marker == 2 and s.coins[2] == 1
    # Peer (17Y): three spaces up, landing on Kate's space 5
    assert d.player == 3 and d.kind == "bb.secondary"
    d = bb.answer(s, "2")
    assert s.track[3] == 5 and d.kind == "bb.spend" and d.keys == ["0", "1"]
    other = s.clone()
    assert bb.answer(s, "1") is None
    assert s.track == [1, 5, 4, 6] and s.coins[3] == 0
    # had he not paid, he would move down past Georgios's space 4 to space 3
    bb.answer(other, "0")
    assert other.track == [1, 5, 4, 3]
    # one card each left: discarded, the action phase is over
    assert all(not h for h in s.hands) and len(s.discard) == 8


# -- Actions -----------------------------------------------------------------------------------
def test_actions_pay_coin_then_points(bb):
    """Actions, pay a coin: "If you have no coins, instead lose two points. If you have no
    points either, this symbol has no effect"."""
    s = bb.game()
    s.coins[0], s.points[0] = 1, 5
    bb.run(s, ("sym", 0, "pay", 0, 2))
    assert s.coins[0] == 0 and s.points[0] == 3
    s.points[0] = 0
    bb.run(s, ("sym", 0, "pay", 0, 1))
    assert s.points[0] == 0 and s.coins[0] == 0


def test_actions_raider_none_left_no_effect(bb):
    """Actions, Viking raider: "If there are no Viking raiders in the battle area, this
    symbol has no effect" — and no spending is offered."""
    s = bb.game()
    s.battle = 0
    s.coins[0] = 10
    assert bb.run(s, ("sym", 0, "raider", 0, 2)) is None
    assert s.raiders[0] == 0 and s.coins[0] == 10


def test_actions_raider_spending_limited_by_battle_area(bb):
    """Actions, Viking raider: two coins per extra raider, never more than are left."""
    s = bb.game()
    s.battle = 3
    s.coins[0] = 10
    d = bb.run(s, ("sym", 0, "raider", 0, 1))
    assert d.kind == "bb.spend" and d.keys == ["0", "1", "2"]
    bb.answer(s, "2")
    assert s.raiders[0] == 3 and s.battle == 0 and s.coins[0] == 6


def test_actions_church_spending(bb):
    """Actions, church: a disc, then any number more at two coins each."""
    s = bb.game()
    s.coins[0] = 5
    d = bb.run(s, ("sym", 0, "church", 0, 2))
    assert s.church[0] == 2 and d.keys == ["0", "1", "2"]
    bb.answer(s, "2")
    assert s.church[0] == 4 and s.coins[0] == 1


def test_actions_marriage_top_space_no_effect(bb):
    """Actions, marriage track: "If your disc is on the top space of the marriage track,
    this symbol has no effect"; steps never pass the top."""
    s = bb.game()
    top = bb.tables.top
    s.track[0] = top
    s.coins[0] = 10
    assert bb.run(s, ("sym", 0, "marriage", 0, 3)) is None
    assert s.track[0] == top
    s.track[1] = top - 2
    s.coins[1] = 10
    assert bb.run(s, ("sym", 1, "marriage", 0, 3)) is None
    assert s.track[1] == top and s.coins[1] == 10


def test_actions_marriage_collision_moves_down(bb):
    """Actions, marriage track: after the action, a disc sharing a space moves down to a free
    space or to the first space."""
    s = bb.game()
    s.track = [2, 3, 2, 1]
    s.coins[0] = 0
    bb.run(s, ("sym", 0, "marriage", 0, 1), ("act_done", 0, bb.c("7Y")))
    assert s.track[0] == 1                # 3 taken, 2 taken → down to the first space
    s.track = [1, 3, 2, 1]
    bb.run(s, ("sym", 3, "marriage", 0, 3), ("act_done", 3, bb.c("17Y")))
    assert s.track[3] == 4                # 4 is free: no collision


def test_actions_expand_along_a_road_for_five(bb):
    """Actions, expand: you may spend five coins to place a disc in an empty town joined by
    a road to a town you control."""
    s = bb.game()
    bb.own(s, 0, 17)              # roads 17-18 and 17-22
    bb.own(s, 1, 18)
    s.coins[0] = 4
    assert bb.run(s, ("sym", 0, "expand", 0, 1)) is None      # too poor
    s.coins[0] = 6
    d = bb.run(s, ("sym", 0, "expand", 0, 1))
    assert d.kind == "bb.expand" and d.keys == ["none", "22"]
    bb.answer(s, "none")
    assert s.coins[0] == 6 and s.owner[bb.t(22)] == bb.NOBODY
    bb.run(s, ("sym", 0, "expand", 0, 1))
    bb.answer(s, "22")
    assert s.coins[0] == 1 and s.owner[bb.t(22)] == 0


def test_actions_remove_viking_token_returns_town_to_its_disc(bb):
    """Actions (13W): remove a Viking control token; the town is controlled by the player
    whose disc is revealed — whoever takes the action."""
    s = bb.game()
    bb.own(s, 2, 5, vikings=True)
    bb.own(s, 1, 6, vikings=True)
    d = bb.run(s, ("sym", 0, "unviking", 0, 1))
    assert d.kind == "bb.unviking" and set(d.keys) == {"5", "6"}
    bb.answer(s, "5")
    assert not s.viking[bb.t(5)] and s.owner[bb.t(5)] == 2
    assert bb.t(5) in s.controlled(2)


def test_actions_every_symbol_of_the_action_table_is_on_a_card(bb):
    """Actions: "Each primary and secondary action shows one or more symbols"; the table
    lists nine, renown among them ("Take a renown token from the supply"), and each
    appears on at least one of the 25 cards (RULINGS BB-Q107)."""
    shown = {g[0] for c in bb.tables.cards[1:] for action in (c.primary, *c.secondary) for g in action}
    assert {"town", "coin", "pay", "renown", "church", "raider", "marriage", "expand", "unviking"} <= shown


def test_actions_renown_symbol_when_a_white_card_loses(bb):
    """Tricks and Actions: 20W loses to the red 24 on a red town; its one secondary action
    ("Some cards have only one secondary action") takes a coin, then a renown token from
    the supply, then offers to expand for five coins (RULINGS BB-Q107)."""
    s = bb.game(players=3)
    _hands(s, bb, ["24R", "1Y"], ["20W", "4Y"], ["3B", "7Y"])
    bb.own(s, 1, 38)                           # roads 38-39 and 38-41
    s.coins = [3, 4, 0]
    bb.run(s, ("trick",))
    d = bb.answer(s, "1")                      # a red town: 24R is the only legal lead
    d = bb.answer(s, "20W")
    d = bb.answer(s, "3B")
    assert s.winner == 0
    assert d.player == 2 and d.kind == "bb.secondary"
    d = bb.answer(s, "2")                      # 3B: two church discs
    assert d.player == 1 and d.kind == "bb.expand" and d.keys == ["none", "39", "41"]
    assert s.renown == [1, 2, 1] and s.coins[1] == 5
    assert "P2 takes 1 renown token." in bb.texts(s)
    bb.answer(s, "none")
    assert s.owner[bb.t(1)] == 0 and s.renown == [1, 2, 1]


# -- Marriage step -------------------------------------------------------------------------------
def test_marriage_step_highest_wins_rewards_for_others(bb):
    """Marriage step: the highest disc takes the card and its benefits, then returns to the
    first space; every other player gains its space's reward."""
    s = bb.game(players=4)
    s.marriage_card = bb.tables.marriage_index["points"]          # 4 points
    s.track = [6, 2, 7, 1]
    bb.run(s, ("marriage",))
    assert s.marriages[2] == [bb.tables.marriage_index["points"]]
    assert s.points == [10, 10, 14, 10]
    assert s.track == [6, 2, 1, 1]
    assert s.coins == [5, 4, 3, 3]       # space 6: two coins; space 2: a coin; space 1: nothing
    assert s.marriage_card == bb.NOBODY


def test_marriage_step_region_town_benefit(bb):
    """Marriage step: a disc on any town without a disc in the indicated region; no effect
    when the region is full (the points still count, RULINGS BB-Q13)."""
    s = bb.game(players=3)
    s.marriage_card = bb.tables.marriage_index["leinster"]
    rid = bb.tables.marriages[s.marriage_card].benefits[1][1]
    towns = [bb.board.towns[i].id for i in bb.board.region_towns[rid]]
    bb.own(s, 1, *towns[:-1])
    s.track = [3, 1, 1]
    bb.run(s, ("marriage",))
    assert s.owner[bb.t(towns[-1])] == 0 and s.points[0] == 12
    s2 = bb.game(players=3)
    s2.marriage_card = s.marriages[0][0]
    bb.own(s2, 1, *towns)
    s2.track = [3, 1, 1]
    bb.run(s2, ("marriage",))
    assert s2.points[0] == 12 and sum(1 for o in s2.owner if o == 0) == 0


def test_marriage_step_track_town_reward(bb):
    """Marriage track space 8: place a disc in any town without a disc."""
    s = bb.game(players=3)
    s.marriage_card = bb.tables.marriage_index["renown"]
    s.track = [9, 8, 1]
    d = bb.run(s, ("marriage",))
    assert s.renown[0] == 2
    assert d.kind == "bb.place-town" and d.player == 1 and len(d.keys) == len(bb.board.towns)
    bb.answer(s, "53")
    assert s.owner[bb.t(53)] == 1


def test_marriage_step_all_on_first_space_removes_card(bb):
    """Marriage step: "In the rare scenario that all players are on the first space of the
    marriage track, remove the marriage card from the game"."""
    s = bb.game(players=3)
    card = s.marriage_card
    bb.run(s, ("marriage",))
    assert s.marriage_card == bb.NOBODY and all(card not in m for m in s.marriages)
    assert s.points == [10, 10, 10] and s.coins == [3, 3, 3]


@pytest.mark.parametrize("choice", ["military", "trade", "spurn"])
def test_princess_of_denmark_three_choices(bb, choice):
    """Princess of Denmark: military support, establish trade, or spurn her for 4 points."""
    s = bb.game(players=3)
    s.marriage_card = bb.tables.princess
    s.track = [1, 4, 2]
    d = bb.run(s, ("marriage",))
    assert d.kind == "bb.princess" and d.player == 1 and list(d.keys) == ["military", "trade", "spurn"]
    bb.answer(s, choice)
    assert s.track[1] == 1 and s.coins[2] == 4    # the others still gain their rewards
    if choice == "spurn":
        assert s.points[1] == 14 and s.marriages[1] == [] and s.princess_holder == bb.NOBODY
    else:
        assert s.points[1] == 10 and s.marriages[1] == [bb.tables.princess]
        assert s.princess_holder == 1 and s.princess_side == choice


# -- Battle step and spoils of battle -----------------------------------------------------------------
def test_battle_step_fewest_lose_most_chooses(bb):
    """Battle step: the player with the fewest raiders loses a town; the player with the most
    chooses which; the town is then controlled by the Vikings."""
    s = bb.game(players=3)
    s.battle = 4
    s.raiders = [5, 0, 2]
    bb.own(s, 1, 1, 2)
    d = bb.run(s, ("battle",))
    assert d.kind == "bb.lose-town" and d.player == 0 and set(d.keys) == {"1", "2"}
    bb.answer(s, "2")
    assert s.viking[bb.t(2)] and s.owner[bb.t(2)] == 1 and s.controlled(1) == [bb.t(1)]
    assert s.battle == 0


def test_battle_step_tied_fewest_each_lose_tied_most_choose_own(bb):
    """Battle step: tied for fewest, each loses a town; tied for most, the losers pick their
    own towns."""
    s = bb.game(players=4)
    s.battle = 1
    s.raiders = [3, 3, 0, 0]
    bb.own(s, 2, 1, 2)
    bb.own(s, 3, 8, 9)
    d = bb.run(s, ("battle",))
    assert d.player == 2 and d.kind == "bb.lose-town"
    d = bb.answer(s, "1")
    assert d.player == 3
    bb.answer(s, "9")
    assert s.viking[bb.t(1)] and s.viking[bb.t(9)] and not s.viking[bb.t(2)]


def test_battle_step_repelled_without_raiders(bb):
    """Battle step: no raiders in the battle area — the Vikings are repelled, nobody loses."""
    s = bb.game(players=3)
    s.battle = 0
    bb.own(s, 1, 1)
    assert bb.run(s, ("battle",)) is None
    assert not any(s.viking)
    assert "repelled" in bb.texts(s)


def test_spoils_of_battle_sole_leader(bb):
    """Spoils of battle: the most raiders gains a renown token, a point per renown token,
    returns all raiders; then the players who now have most score a point and return one."""
    s = bb.game(players=4)
    s.raiders = [6, 3, 3, 0]
    s.renown = [2, 1, 1, 1]
    bb.run(s, ("spoils",))
    assert s.renown[0] == 3 and s.points[0] == 13 and s.raiders[0] == 0
    assert s.points[1:] == [11, 11, 10] and s.raiders == [0, 2, 2, 0]


def test_spoils_of_battle_tie_skips_first_reward(bb):
    """Spoils of battle: tied for most — no renown, no points, no raiders returned; the tied
    players then take the second reward.  Raiders left carry over."""
    s = bb.game(players=3)
    s.raiders = [4, 4, 1]
    bb.run(s, ("spoils",))
    assert s.renown == [1, 1, 1]
    assert s.points == [11, 11, 10] and s.raiders == [3, 3, 1]


def test_spoils_of_battle_nothing_with_no_raiders(bb):
    """Spoils of battle: "You do not receive any rewards if you have no Viking raider tokens"."""
    s = bb.game(players=3)
    s.raiders = [0, 0, 0]
    bb.run(s, ("spoils",))
    assert s.points == [10, 10, 10] and s.renown == [1, 1, 1]


# -- Church step -------------------------------------------------------------------------------------
def test_church_step_sole_leader_monastery_marker_discs(bb):
    """Church step: the most discs places a monastery, takes the active town marker and
    retrieves all its discs; the next most score a point and retrieve one."""
    s = bb.game(players=3)
    s.marker = 0
    s.church = [1, 3, 2]
    bb.own(s, 1, 20, 21)
    d = bb.run(s, ("church",), ("church_points",), ("church_monasteries",))
    assert d.kind == "bb.monastery" and d.player == 1
    bb.answer(s, "21")
    assert s.monastery[bb.t(21)] and s.marker == 1
    assert s.church == [1, 0, 1] and s.points == [10, 10, 11]


def test_church_step_tie_skips_first_reward(bb):
    """Church step: tied for most — no monastery, no marker; the tied players score a point
    and retrieve one disc."""
    s = bb.game(players=3)
    s.church = [2, 2, 1]
    bb.own(s, 0, 1)
    bb.run(s, ("church",), ("church_points",), ("church_monasteries",))
    assert not any(s.monastery) and s.marker == 0
    assert s.points == [11, 11, 10] and s.church == [1, 1, 1]


def test_church_step_four_discs_monasteries_clockwise_from_marker(bb):
    """Church step: clockwise from the marker holder, each player with four or more discs
    places a monastery (one per town) and retrieves all its discs."""
    s = bb.game(players=4)
    s.church = [4, 6, 6, 5]       # tie for most: the first reward is skipped
    s.marker = 3
    bb.own(s, 0, 30)
    bb.own(s, 1, 31)
    bb.own(s, 2, 32)
    bb.own(s, 3, 33)
    assert bb.run(s, ("church",), ("church_points",), ("church_monasteries",)) is None
    # after step 2: [4, 5, 5, 5] → everyone has four or more
    placed = [e.data["player"] for e in s.events if e.kind == "monastery"]
    assert placed == [3, 0, 1, 2]
    assert s.church == [0, 0, 0, 0]
    assert all(s.monastery[bb.t(x)] for x in (30, 31, 32, 33))


# -- Claim regions step --------------------------------------------------------------------------------
def test_claim_regions_flip_at_threshold_counting_vikings_and_monasteries(bb):
    """Claim regions step: a face-down token turns face up when the towns controlled there —
    the Vikings' included, monasteries counting two — reach the threshold."""
    s = bb.game(players=3)
    r = bb.region("connaught")                 # threshold 5
    bb.own(s, 0, 26, 27)
    bb.own(s, 1, 28, vikings=True)
    bb.run(s, ("claims",))
    assert not s.claim_up[r]
    bb.own(s, 2, 29, monastery=True)
    bb.run(s, ("claims",))
    assert s.claim_up[r]
    # 0 and 2 are tied at two towns each (the monastery counts twice): the token stays
    assert s.claim_holder[r] == bb.BOARD


def test_claim_regions_most_takes_tie_stays_in_hand(bb):
    """Claim regions step: the most towns takes the face-up token; a tie leaves it where it
    is — even in front of a player who is no longer ahead."""
    s = bb.game(players=3)
    r = bb.region("dubhlinn")
    s.claim_up[r] = True
    bb.own(s, 0, 23, 24)
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == 0
    bb.own(s, 1, 25, monastery=True)     # 1 now ties 0 at two
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == 0


def test_claim_regions_vikings_most_return_token_to_board(bb):
    """Vikings and the Princess of Denmark: if the Vikings control the most towns in a
    region, the claim token returns to the board."""
    s = bb.game(players=3)
    r = bb.region("dubhlinn")
    s.claim_up[r] = True
    s.claim_holder[r] = 0
    bb.own(s, 0, 23)
    bb.own(s, 1, 24, 25, vikings=True)
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == bb.BOARD


def test_claim_regions_military_support_counts_viking_towns(bb):
    """Princess of Denmark, military support: in the claim regions step all towns controlled
    by the Vikings count as controlled by her holder."""
    s = bb.game(players=3)
    r = bb.region("dubhlinn")
    s.claim_up[r] = True
    bb.own(s, 0, 23)
    bb.own(s, 1, 24, 25, vikings=True)
    s.princess_holder, s.princess_side = 2, "military"
    bb.run(s, ("claims",))
    assert s.claim_holder[r] == 2


# -- Scoring -------------------------------------------------------------------------------------------
def test_scoring_all_parts(bb):
    """Scoring: most coins (sole) 1, the marker 1, a point per renown, claim tokens in front
    of you, half of a face-up token on the board for the players tied there, the regions
    table."""
    s = bb.game(players=3)
    s.points = [0, 0, 0]
    s.coins = [5, 2, 2]
    s.renown = [2, 0, 1]
    s.marker = 1
    ul, dub = bb.region("ulaid"), bb.region("dubhlinn")
    s.claim_up[ul] = True
    s.claim_holder[ul] = 2
    s.claim_up[dub] = True                        # tied on the board: 2 points → 1 each
    bb.own(s, 0, 23, 1, 13, 17, 26)               # five regions → 3 points
    bb.own(s, 1, 24)
    bb.own(s, 2, 8, 9, 10)
    s.marriage_deck = []
    bb.run(s, ("round_end",))
    assert s.over
    # P1: coins 1 + renown 2 + half Dubhlinn 1 + 5 regions 3 = 7
    # P2: marker 1 + half Dubhlinn 1 + 1 region 0 = 2
    # P3: renown 1 + Ulaid 4 + 1 region 0 = 5
    assert s.points == [7, 2, 5]
    assert s.final["P1"]["most coins"] == 1 and s.final["P3"]["claim token of Ulaid"] == 4
    assert s.result()["winner"] == "P1"


def test_scoring_regions_table(bb):
    """Scoring: 1-2 regions 0, 3-4 1, 5 3, 6 5, 7 7, 8 10."""
    assert bb.board.regions_points == (0, 0, 0, 1, 1, 3, 5, 7, 10)
    from realms.games.brian_boru.scoring import regions_controlled

    s = bb.game(players=3)
    firsts = [bb.towns_of(r.id)[0] for r in bb.board.regions]
    bb.own(s, 0, *firsts)
    assert regions_controlled(s, 0) == 8
    bb.own(s, 0, firsts[0], vikings=True)
    assert regions_controlled(s, 0) == 7


def test_scoring_establish_trade_counts_viking_regions(bb):
    """Princess of Denmark, establish trade: Viking towns count as yours for the number of
    regions — not for claim tokens."""
    from realms.games.brian_boru.scoring import regions_controlled

    s = bb.game(players=3)
    bb.own(s, 0, 1)
    bb.own(s, 1, 8, 13, vikings=True)
    s.princess_holder, s.princess_side = 0, "trade"
    assert regions_controlled(s, 0) == 3
    per, vikings = s.weights(bb.region("ulaid"))
    assert per[0] == 0 and vikings == 1


def test_scoring_tie_breaks(bb):
    """Scoring: a tie for points goes to the most claim tokens, then the most marriage cards,
    then the tied players share the victory."""
    s = bb.game(players=3)
    s.over = True
    s.points = [20, 20, 20]
    s.claim_up[0] = s.claim_up[1] = True
    s.claim_holder[0] = 1
    s.claim_holder[1] = 2
    s.marriages[2] = [0]
    assert s.result()["winner"] == "P3"
    s.marriages[1] = [1]
    assert s.result()["winners"] == ["P2", "P3"] and s.result()["winner"] is None
