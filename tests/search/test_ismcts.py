"""The ismcts bot over every registered game: legal whole games, determinism for a seed
and an iteration budget, simultaneous decisions, parameters from ``--bots``."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import pytest

from realms.core.agents import RandomBot, SeatView, generic_bots, parse_bot, state_behind
from realms.core.game import OptionError, games, get_game
from realms.core.match import play
from realms.search.ismcts import ISMCTSBot, student
from realms.sim.runner import make_bots

#: short games, so that a search in every seat stays quick
SMALL = {"hy-breasil": {"players": 3, "turns": 2}, "brian-boru": {"players": 3},
         "version2": {"players": 3, "turn_limit": 4}}
GAME_IDS = list(games())


def small_game(game_id: str, seed: int):
    return get_game(game_id).new_game(SMALL.get(game_id, {}), seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_plays_whole_games_legally(game_id):
    state = small_game(game_id, 3)
    players = len(state.result()["players"])
    bots = [ISMCTSBot(seat, iters=3, horizon=4) for seat in range(players)]
    play(state, bots, max_decisions=5000)
    assert state.is_over()
    assert sum(state.returns()) in (0.0, pytest.approx(1.0))
    replayed = get_game(game_id).replay(state.record())
    assert replayed.state_hash() == state.state_hash()


def _answers(game_id: str, seed: int, n: int) -> list:
    state = small_game(game_id, seed)
    players = len(state.result()["players"])
    bots = [ISMCTSBot(100 + seat, iters=6, horizon=6) for seat in range(players)]
    for _ in range(n):
        d = state.first_pending()
        if d is None:
            break
        state.answer_index(d, bots[d.player].choose(d, SeatView(state, d.player)))
    return list(state.answers)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_and_iterations_give_the_same_answers(game_id):
    assert _answers(game_id, 5, 40) == _answers(game_id, 5, 40)


def test_another_seed_searches_differently():
    bot_a, bot_b = ISMCTSBot(1, iters=30), ISMCTSBot(2, iters=30)
    state = small_game("hy-breasil", 2)
    d = state.first_pending()
    bot_a.choose(d, SeatView(state, d.player))
    bot_b.choose(d, SeatView(state, d.player))
    assert bot_a.last["visits"] != bot_b.last["visits"]


def test_simultaneous_decisions_each_seat_searches_its_own():
    """Brian Boru's draft asks every seat at once; a search for the last of them answers
    its own decision (the tree takes the others after it)."""
    state = small_game("brian-boru", 1)
    while len(state.pending()) < 2:
        d = state.first_pending()
        state.answer_index(d, RandomBot(0).choose(d, lambda: {}))
    last = state.pending()[-1]
    bot = ISMCTSBot(4, iters=20, horizon=5)
    i = bot.choose(last, SeatView(state, last.player))
    assert 0 <= i < len(last.keys)
    assert set(bot.last["visits"]) <= set(last.keys)
    assert 1 <= bot.last["iterations"] <= 20
    assert sum(bot.last["visits"].values()) == bot.last["iterations"]
    state.answer_index(last, i)


def test_a_time_budget_stops_the_search(monkeypatch):
    """The search's clock, faked to move 10 ms each time it is read: with 30 ms the search
    stops at the read that finds the deadline passed, after three iterations at most (an
    iteration budget's default would go on far longer), whatever the machine's load."""
    from types import SimpleNamespace

    from realms.search import ismcts

    reads = iter(range(10**6))
    monkeypatch.setattr(ismcts, "time", SimpleNamespace(perf_counter=lambda: next(reads) / 100))
    state = small_game("hy-breasil", 4)
    d = state.first_pending()
    bot = ISMCTSBot(0, ms=30)
    bot.choose(d, SeatView(state, d.player))
    assert 1 <= bot.last["iterations"] <= 3
    assert bot.last["seconds"] <= 0.04 + 1e-9


def test_many_options_are_widened_progressively():
    """A node visited n times considers at most widen·√n of its answers."""
    state = get_game("hy-breasil").new_game({}, 6)
    d, rnd = state.first_pending(), RandomBot(1)
    while len(d.keys) < 30:
        state.answer_index(d, rnd.choose(d, lambda: {}))
        d = state.first_pending()
    bot = ISMCTSBot(0, iters=100, horizon=2, widen=2, prior=0, early=0)
    bot.choose(d, SeatView(state, d.player))
    assert len(bot.last["visits"]) <= 2 * 100 ** 0.5
    assert sum(bot.last["visits"].values()) == bot.last["iterations"] == 100


@pytest.mark.parametrize("game_id, seed", [("hy-breasil", 6), ("brian-boru", 2), ("version2", 2)])
def test_a_new_root_answer_waits_until_every_answer_tried_can_be_compared(game_id, seed):
    """Only the newest root answer may have fewer than three samples: iterations are not
    spread over answers tried once, which no comparison could ever weigh."""
    state, d = _decision_with_options(game_id, seed, 6)
    bot = ISMCTSBot(5, iters=24, horizon=4, early=0)
    bot.choose(d, SeatView(state, d.player))
    tried = sorted(bot.last["visits"].values())
    assert len(tried) >= 3 and all(v >= 3 for v in tried[1:])


def test_registered_as_a_generic_bot_with_parameters():
    game = get_game("brian-boru")
    assert "ismcts" in generic_bots()
    bots = make_bots(game, ["ismcts:iters=7:horizon=3:policy=greedy", "random", "ismcts"], 3, 0)
    assert (bots[0].iters, bots[0].horizon, bots[0].policy) == (7, 3, "greedy")
    assert bots[2].iters > 0 and bots[2].ms is None
    assert parse_bot("ismcts:ms=200") == ("ismcts", {"ms": "200"})


@pytest.mark.parametrize("spec, message", [
    ("ismcts:iters=abc", "iters must be an integer"),
    ("ismcts:iters=5:ms=20", "iters or ms, not both"),
    ("ismcts:iters=0", "iters must be between"),
    ("ismcts:policy=nobody", "unknown rollout policy 'nobody'"),
    ("ismcts:policy=ismcts", "cannot be ismcts"),
    ("ismcts:depth=3", "depth"),
    ("ismcts:opponents=nobody", "opponents must be one of policy, search"),
    ("ismcts:horizon=0", "horizon must be between 1"),
    ("ismcts:early=2", "early must be between 0 and 1"),
    ("ismcts:horizon=turn", "brian-boru names no turns"),
    ("ismcts:turns=2", "turns needs horizon=turn"),
    ("ismcts:iters", "'iters' is not KEY=VALUE"),
])
def test_bad_parameters_are_named(spec, message):
    game = get_game("brian-boru")
    with pytest.raises(OptionError, match=message):
        bots = make_bots(game, [spec], 3, 0)
        state = game.new_game({"players": 3}, 0)
        d = state.first_pending()
        bots[d.player].choose(d, SeatView(state, d.player))


def test_the_state_is_found_behind_the_play_loops_view_functions():
    state = small_game("brian-boru", 0)
    assert state_behind(SeatView(state, 1)) is state
    assert state_behind(partial(state.view, 1)) is state
    assert state_behind(lambda: state.view(1)) is state
    with pytest.raises(TypeError, match="SeatView"):
        state_behind(lambda: {})


def _decision_with_options(game_id: str, seed: int, at_least: int, options: dict | None = None):
    state = get_game(game_id).new_game(options or {"players": 4}, seed)
    d, rnd = state.first_pending(), RandomBot(seed)
    while len(d.keys) < at_least:
        state.answer_index(d, rnd.choose(d, lambda: {}))
        d = state.first_pending()
    return state, d


@pytest.mark.parametrize("game_id, bot", [("hy-breasil", "auto"), ("brian-boru", "greedy"),
                                          ("version2", "general"), ("brittania", "steward")])
def test_the_default_policy_is_the_games_first_bot(game_id, bot):
    game = get_game(game_id)
    assert ISMCTSBot(0)._factory(game) is game.bots[bot]
    assert ISMCTSBot(0, policy="random")._factory(game) is None
    assert ISMCTSBot(0)._factory(replace(game, bots={})) is None


def test_with_too_small_a_budget_the_policys_answer_is_played():
    """The prior is worth at least two visits: one or two iterations never overrule it."""
    state, d = _decision_with_options("hy-breasil", 6, 5)
    for iters in (1, 2):
        bot = ISMCTSBot(3, iters=iters)
        i = bot.choose(d, SeatView(state, d.player))
        assert d.keys[i] == bot.last["prior"]


@pytest.mark.parametrize("game_id, seed", [("brian-boru", 1), ("brian-boru", 2), ("hy-breasil", 6),
                                           ("version2", 2)])
def test_another_answer_is_played_only_when_it_beats_the_policys_on_the_same_samples(game_id, seed):
    state, d = _decision_with_options(game_id, seed, 4)
    bot = ISMCTSBot(9, iters=60, horizon=6)
    key = d.keys[bot.choose(d, SeatView(state, d.player))]
    if key != bot.last["prior"]:
        mean, se, samples = bot.last["advantage"][key]
        assert mean - student(bot.z, samples) * se > 0 and samples >= 3
    cautious = ISMCTSBot(9, iters=60, horizon=6, z=1e12)
    key = d.keys[cautious.choose(d, SeatView(state, d.player))]
    assert key == cautious.last["prior"]


def test_the_answers_are_compared_on_common_samples():
    """The t-th try of every root answer uses the t-th sample: as many determinizations are
    dealt as the most tried answer has tries, not one per iteration."""
    played, d = _decision_with_options("brian-boru", 2, 4)
    dealt = set()

    class Counted(type(played)):  # compiled, a state's methods cannot be replaced on it
        def determinize(self, player, rng):
            dealt.add(rng.getstate())
            return super().determinize(player, rng)

    state = Counted(played.options, played.seed)
    for seat, key in played.answers:
        state.apply(seat, key)
    assert state.state_hash() == played.state_hash()
    bot = ISMCTSBot(4, iters=40, horizon=6, early=0)
    bot.choose(d, SeatView(state, d.player))
    assert len(dealt) == max(bot.last["visits"].values()) < 40


def test_a_decision_that_does_not_matter_within_the_horizon_stops_early():
    """A Brian Boru draft pick changes no points in the next answer: every answer tried
    scores what the policy's does, so the search stops and plays the policy's."""
    state = get_game("brian-boru").new_game({"players": 4}, 5)
    d = state.first_pending()
    while d.kind != "bb.draft":
        state.answer_index(d, 0)
        d = state.first_pending()
    bot = ISMCTSBot(3, iters=40, horizon=1)
    i = bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] < 40 and d.keys[i] == bot.last["prior"]


def test_some_decisions_settle_early():
    state = small_game("brian-boru", 4)
    bot, spent = ISMCTSBot(5, iters=40, horizon=4), []
    while (d := state.first_pending()) is not None and len(spent) < 30:
        state.answer_index(d, bot.choose(d, SeatView(state, d.player)))
        spent.append(bot.last["iterations"])
    assert min(spent) < 40 and max(spent) <= 40


def test_a_position_asked_again_gets_the_policys_answer_without_search():
    """An answer that leads back to the same position (a cycle) is not searched again."""
    state, d = _decision_with_options("brian-boru", 3, 3)
    bot = ISMCTSBot(2, iters=20, horizon=4)
    bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] >= 1
    i = bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] == 0 and d.keys[i] == bot.last["prior"]


def _players_in(node) -> set:
    seen = set()
    for (player, _, _), child in node.children.items():
        seen |= {player} | _players_in(child)
    return seen


def test_other_seats_answer_as_the_policy_or_search_for_themselves():
    state, d = _decision_with_options("brian-boru", 5, 3)
    modelled = ISMCTSBot(1, iters=80, horizon=30)
    modelled.choose(d, SeatView(state, d.player))
    assert _players_in(modelled.last["tree"]) == {d.player}
    searching = ISMCTSBot(1, iters=80, horizon=30, opponents="search")
    searching.choose(d, SeatView(state, d.player))
    assert len(_players_in(searching.last["tree"])) > 1


def test_the_horizon_counts_answers_from_the_root():
    """With a horizon of one answer the search scores the position right after the root's
    answer: the tree never grows below the root."""
    state, d = _decision_with_options("brian-boru", 5, 3)
    bot = ISMCTSBot(1, iters=30, horizon=1, opponents="search", early=0)
    bot.choose(d, SeatView(state, d.player))
    assert all(not child.children for child in bot.last["tree"].children.values())


def _scored_turns(monkeypatch, decisions: int, game_id: str = "version2", **params) -> list[tuple]:
    """Over the first ``decisions`` of a small game (version²) searched in every seat: for
    each position the search scored (by the hand-written evaluation), the turn at its
    root and the turn of the position (``Game.turn_of``)."""
    from dataclasses import replace

    import realms.search.ismcts as ismcts

    game = get_game(game_id)
    seen: list[tuple] = []
    root: list = []

    def evaluate(det):
        seen.append((root[-1], game.turn_of(det)))
        return game.evaluation(det)

    monkeypatch.setattr(ismcts, "get_game", lambda game_id: replace(game, evaluate=evaluate))
    state = small_game(game_id, 2)
    bots = [ISMCTSBot(100 + seat, iters=6, **params) for seat in range(3)]
    for _ in range(decisions):
        d = state.first_pending()
        if d is None:
            break
        root.append(game.turn_of(state))
        state.answer_index(d, bots[d.player].choose(d, SeatView(state, d.player)))
    return seen


def test_a_turn_horizon_scores_where_the_turn_in_progress_at_the_root_ends(monkeypatch):
    """``horizon=turn`` rolls out until the turn of the root's decision ends (version²: a
    player's turn, 2.3) and scores there, however many answers that takes; a horizon of
    four answers scores part-way through the turn."""
    to_turn_end = _scored_turns(monkeypatch, 30, horizon="turn")
    assert to_turn_end and all(at != now for at, now in to_turn_end)
    four = _scored_turns(monkeypatch, 30, horizon=4)
    assert any(at == now for at, now in four), "every horizon of four answers crossed a turn's end"
    rounds = _scored_turns(monkeypatch, 30, horizon="turn", turns=3)
    assert rounds and all(now[0] > at[0] and now[1] == at[1] for at, now in rounds), \
        "three turns of three seats did not end as the searching seat's next turn began"


def test_hy_breasil_scores_where_a_nations_turn_ends(monkeypatch):
    """Hy Breasil's turns are the nations' (§6: one nation at a time, in cup order):
    ``horizon=turn`` scores once the nation acting at the root is done, or a later game
    turn has begun."""
    scored = _scored_turns(monkeypatch, 80, "hy-breasil", horizon="turn")
    assert any(at[1] >= 0 for at, _ in scored), "no nation's turn was searched"
    assert scored and all(now != at for at, now in scored)


def test_the_force_of_a_hy_breasil_attack_is_left_to_the_policy():
    """A move into a pending battle (its force, after the search chose the target with the
    first move) is the auto bot's answer, not searched (``Game.unsearched``); the first
    move of an attack is searched."""
    game = get_game("hy-breasil")
    state = game.new_game({"players": 3}, 6)
    agents = make_bots(game, ["auto"], 3, 6)
    firsts = 0
    while not game.unsearched(state.pending()[0]) or len(state.pending()[0].keys) < 2:
        d = state.pending()[0]
        firsts += d.kind == "hb.move" and state.battle is None
        state.apply_index(d.player, agents[d.player].choose(d, SeatView(state, d.player)))
    d = state.pending()[0]
    assert state.battle is not None and firsts > 0
    bot = ISMCTSBot(0, iters=20)
    answer = bot.choose(d, SeatView(state, d.player))
    assert bot.last["iterations"] == 0 and d.keys[answer] == bot.last["prior"]


def test_a_turn_horizon_is_deterministic_for_a_seed_and_budget():
    state = small_game("version2", 3)

    def answers() -> list:
        s = state.clone()
        bots = [ISMCTSBot(100 + seat, iters=6, horizon="turn") for seat in range(3)]
        for _ in range(25):
            d = s.first_pending()
            s.answer_index(d, bots[d.player].choose(d, SeatView(s, d.player)))
        return list(s.answers)

    assert answers() == answers()


#: every game's bots, each as the search's policy
GAME_BOTS = [(game_id, bot) for game_id in GAME_IDS for bot in get_game(game_id).bots if bot != "ismcts"]
#: the games the bots play in full (Brittania: six rounds)
BOT_GAME = {**SMALL, "brittania": {"players": 4, "turns": 6}}


@pytest.mark.parametrize("game_id, bot", GAME_BOTS)
def test_with_a_huge_z_the_search_plays_its_policys_answers_over_a_game(game_id, bot):
    """With ``z`` huge no answer overrules the policy's, so the search answers every
    decision of a whole game as a bot of its policy given the same seed would (asked the
    same decisions): the bot's memory (the auto bot's Tactical
    Ratings, Mortal Enemies and deadpiles) is carried from decision to decision, and
    the search's own calls on determinized copies do not disturb it."""
    game = get_game(game_id)
    state = game.new_game(BOT_GAME.get(game_id, {}), 7)
    players = len(state.result()["players"])
    agents = make_bots(game, [bot] * players, players, 7)
    search = ISMCTSBot(11, iters=8, horizon=4, policy=bot, z=1e12)
    twin = game.bots[bot](11)
    asked = []

    class Checked:
        name = "checked"

        def choose(self, decision, view):
            answer = search.choose(decision, view)
            asked.append((decision.kind, decision.keys[answer], decision.keys[twin.choose(decision, view)]))
            return answer

    agents[1] = Checked()
    play(state, agents, max_decisions=20000)
    assert state.is_over() and len(asked) >= 10
    assert [a for _, a, _ in asked] == [t for _, _, t in asked]


def _root(base: list[float], other: list[float]):
    from realms.search.ismcts import Node

    root, a, b = Node(0), Node(0), Node(0)
    a.rewards, b.rewards = base, other
    root.children = {(0, "k", "policy"): a, (0, "k", "other"): b}
    return root


@pytest.mark.parametrize("samples, played", [(3, "policy"), (5, "policy"), (6, "other")])
def test_an_answer_better_by_the_same_on_every_sample_needs_more_than_z_samples(samples, played):
    """A spread of nought is no proof: the policy's answer counts as one more sample of no
    difference (the advantage is then ``samples`` standard errors), so ``z=3`` (4.9 standard
    errors on six samples, 5.5 on five) needs six samples alike to overrule it, and a huge
    ``z`` never does."""
    root = _root([0.5] * samples, [0.6] * samples)
    d = replace(_decision_with_options("brian-boru", 1, 2)[1], keys=("policy", "other"), kind="k")
    for z, expected in ((3, played), (1e12, "policy")):
        bot = ISMCTSBot(0, z=z)
        advantage = bot._advantages(root, (0, "k", "policy"))
        assert advantage[(0, "k", "other")][2] == samples
        assert d.keys[bot._answer(root, d, (0, "k", "policy"), advantage)] == expected


def test_a_forced_decision_is_not_searched_but_the_policy_bot_still_sees_it():
    """No game asks a question of one option yet (the engines settle them), but one would be
    answered at once, the seat's policy bot still asked it (its memory sees every view)."""
    state, d = _decision_with_options("brian-boru", 1, 2)
    forced = replace(d, keys=d.keys[:1])
    bot, seen = ISMCTSBot(1, iters=20), []
    real = get_game("brian-boru").bots["greedy"]

    class Shadow:  # compiled, a bot's methods cannot be replaced on it
        def __init__(self, seed):
            self.bot = real(seed)
            self.name = self.bot.name

        def choose(self, decision, view):
            seen.append(decision.keys)
            return self.bot.choose(decision, view)

    factory = Shadow

    bot._factory = lambda game: factory
    assert bot.choose(forced, SeatView(state, d.player)) == 0
    assert bot.last["iterations"] == 0 and seen == [forced.keys]


@pytest.mark.parametrize("z, df, quantile", [(1.959964, 5, 2.571), (1.959964, 10, 2.228),
                                             (2.575829, 4, 4.604), (2.326348, 20, 2.528)])
def test_z_is_read_as_the_student_t_quantile_of_its_level(z, df, quantile):
    """The t table's two-sided 5% and 1% and one-sided 1% points (any statistics text)."""
    assert student(z, df) == pytest.approx(quantile, rel=0.01)


def _searched(game_id: str, seed: int, n: int, **params) -> list:
    """The first ``n`` answers of a small game searched in every seat, each with what the
    search saw of every other answer (its advantage over the policy's)."""
    state = small_game(game_id, seed)
    players = len(state.result()["players"])
    bots = [ISMCTSBot(100 + seat, **params) for seat in range(players)]
    out = []
    for _ in range(n):
        d = state.first_pending()
        if d is None:
            break
        i = bots[d.player].choose(d, SeatView(state, d.player))
        out.append((d.keys[i], bots[d.player].last["advantage"]))
        state.answer_index(d, i)
    return out


@pytest.mark.parametrize("value", ["hand", "learned"])
@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if get_game(g).bot_view is not None])
def test_the_games_bot_view_changes_no_search(monkeypatch, game_id, value):
    """A game's ``bot_view`` (version²'s shares the state's unit lists where its view
    copies them; Brittania's shares the kings' traits and counts the map once): the
    search's rollout bots and its learned value read it, and every answer and every
    advantage the search weighed are those it finds through the view itself."""
    import realms.search.ismcts as ismcts

    game = get_game(game_id)
    shared = _searched(game_id, 4, 40, iters=8, horizon=8, value=value)
    monkeypatch.setattr(ismcts, "get_game", lambda game_id: replace(game, bot_view=None))
    assert _searched(game_id, 4, 40, iters=8, horizon=8, value=value) == shared
    assert any(adv for _, adv in shared), "nothing was searched: the test compares nothing"
