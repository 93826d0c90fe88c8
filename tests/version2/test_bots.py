"""The ``general`` bot: it plays legal games through the contract and wins at
least 90% of 4-player Capitol games against three random bots (20 whole games, the
seat rotating: the slow tier)."""

from __future__ import annotations

import json
from functools import partial

import pytest

from realms.core.agents import RandomBot, SeatView, bot_seed
from realms.core.match import play
from realms.games.version2 import GAME
from realms.games.version2.bots import GeneralBot


def _games(kind: str, n: int) -> int:
    wins = 0
    for g in range(n):
        seat = g % 4
        bots = [GeneralBot(bot_seed(g, i)) if i == seat else RandomBot(bot_seed(g, i)) for i in range(4)]
        s = play(GAME.new_game({"players": 4, "type": kind}, g), bots)
        wins += s.winners == [seat]
    return wins


@pytest.mark.slow
def test_general_beats_three_random_bots():
    assert _games("capitol", 20) >= 18


def test_general_plays_every_game_type_and_count():
    for players in (2, 3, 5, 6):
        for kind in ("capitol", "resistance", "abundance"):
            s = play(GAME.new_game({"players": players, "type": kind, "turn_limit": 12}, players),
                     [GeneralBot(i) for i in range(players)])
            assert s.over and s.winners


def test_general_is_registered():
    assert GAME.bots["general"] is GeneralBot


def _plain(view: dict) -> dict:
    """A view with its tuples and sequences read as lists, as JSON reads them."""
    return json.loads(json.dumps(view, default=list))


def test_the_bot_view_shows_what_the_view_shows_and_the_general_answers_alike():
    """``Game.bot_view`` shares the state's unit lists instead of copying them and counts
    each player's row when read: at every
    decision of whole games with battles it shows each seat what ``view`` shows, and a
    ``general`` bot given it answers as one given the view (its plans and memory kept)."""
    battles = 0
    for seed in (1, 2):
        s = GAME.new_game({"players": 3, "turn_limit": 6}, seed)
        bots = {p: (GeneralBot(p), GeneralBot(p)) for p in range(3)}
        while (d := s.first_pending()) is not None:
            battles += s.battle is not None
            for p in range(3):
                assert _plain(GAME.bot_view(s, p)) == s.view(p)
            plain, shared = bots[d.player]
            answer = plain.choose(d, partial(s.view, d.player))
            assert shared.choose(d, partial(GAME.bot_view, s, d.player)) == answer
            s.answer_index(d, answer)
    assert battles, "no battle was fought: the battle's view went unchecked"


def test_the_general_picks_units_for_an_attack_it_did_not_choose():
    """An attack chosen for it (by a search overruling it, 2.3.4.2: the target first, then
    the units) gets the units the general would pick for that target, not a call-off:
    a fresh general, and one whose plan is for another target, add units at once."""
    s = GAME.new_game({"players": 4}, 7)
    bots = [GeneralBot(p) for p in range(4)]
    checked = 0
    while checked < 3 and (d := s.first_pending()) is not None:
        attacks = [k for k in d.keys if k.startswith("attack:")] if d.kind == "v2.action" else []
        for k in attacks[:2]:
            c = s.clone()
            c.answer_index(d, d.keys.index(k))
            pick = c.first_pending()
            assert pick.kind == "v2.attack-units" and pick.info["target"] == int(k[7:])
            for bot in (GeneralBot(99), bots[d.player]):
                answer = pick.keys[GeneralBot.choose(_copy(bot), pick, partial(c.view, pick.player))]
                assert answer.startswith(("add:", "all:")), f"{k}: the general answered {answer}"
            checked += 1
        s.answer_index(d, bots[d.player].choose(d, partial(s.view, d.player)))
    assert checked >= 3, "too few attacks were offered to check"


def _copy(bot: GeneralBot) -> GeneralBot:
    import copy

    return copy.deepcopy(bot)


def test_an_attack_the_general_proposed_and_was_not_played_stays_open_to_it():
    """A search may play another answer than the general's attack: asked the same question
    again, the general proposes the same attack (a field is closed to it for the turn once
    it picks the units, launched or called off, 2.3.4.2), and no longer after picking."""
    s = GAME.new_game({"players": 4}, 7)
    bots = [GeneralBot(p) for p in range(4)]
    checked = 0
    while checked < 3 and (d := s.first_pending()) is not None:
        bot = bots[d.player]
        answer = d.keys[bot.choose(d, partial(s.view, d.player))]
        if answer.startswith("attack:"):
            assert d.keys[bot.choose(d, partial(s.view, d.player))] == answer
            c = s.clone()
            c.answer_index(d, d.keys.index(answer))
            pick = c.first_pending()
            probe = _copy(bot)
            probe.choose(pick, partial(c.view, pick.player))
            assert d.keys[probe.choose(d, partial(s.view, d.player))] != answer
            checked += 1
        s.answer_index(d, d.keys.index(answer))
    assert checked == 3


def test_the_lobby_s_hard_searches_to_the_seat_s_next_turn_with_the_shipped_value():
    """The lobby's ``search (hard)`` (benchmarks/RESULTS.md, measured against ``general``
    with four players) plays each answer out until the seat's next turn begins (2.3: the
    others' turns seen) and scores it there with the model shipped in the package."""
    from realms.search.ismcts import ISMCTSBot
    from realms.search.value import shipped
    from realms.sim.runner import make_bots

    hard = [spec for spec, label in GAME.bot_variants.items() if label.endswith("(hard)")]
    assert len(hard) == 1
    s = GAME.new_game({"players": 4}, 1)
    d = s.first_pending()
    bot = make_bots(GAME, [hard[0]], 4, 1)[d.player]
    assert isinstance(bot, ISMCTSBot) and bot.to_turn_end and bot.turns == 4 and bot.value == "learned"
    answer = bot.choose(d, SeatView(s, d.player))
    assert bot.last["iterations"] > 0 and bot._model is shipped(GAME.id) and 0 <= answer < len(d.keys)
