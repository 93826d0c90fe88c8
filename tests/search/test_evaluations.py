"""The games' evaluations for search (``Game.evaluate``): what they project, that they
change nothing, and that they are shares in 0..1."""

from __future__ import annotations

import pytest

from realms.core.agents import RandomBot
from realms.core.game import games, get_game
from realms.games.brian_boru.evaluate import projected_points
from realms.games.hy_breasil.evaluate import projected_vp, scorings_left
from realms.games.hy_breasil.turn import nation_vp


def played(game_id: str, answers: int, seed: int = 3, options: dict | None = None):
    state = get_game(game_id).new_game(options or {"players": 4}, seed)
    bot = RandomBot(seed)
    for _ in range(answers):
        d = state.first_pending()
        if d is None:
            break
        state.answer_index(d, bot.choose(d, lambda: {}))
    return state


@pytest.mark.parametrize("game_id", list(games()))
@pytest.mark.parametrize("answers", [0, 150, 10_000])
def test_an_evaluation_is_shares_and_changes_nothing(game_id, answers):
    state = played(game_id, answers)
    before = state.state_hash()
    values = get_game(game_id).evaluation(state)
    assert state.state_hash() == before
    assert len(values) == 4 and all(0 <= v <= 1 for v in values)
    assert sum(values) == pytest.approx(1.0)


def test_hy_breasil_projects_the_land_held_at_every_scoring_left():
    """§7: one VP per land area at each turn's end; turn 4 of 15 has 12 scorings left."""
    state = played("hy-breasil", 300)
    assert state.turn == 4 and scorings_left(state) == 12
    held = [0] * 4
    for n in state.nations.values():
        if n.owner >= 0:
            held[n.owner] += nation_vp(state, n)
    assert projected_vp(state) == [v + 12 * h for v, h in zip(state.vp, held)]


def test_hy_breasil_projects_nothing_more_once_over():
    state = played("hy-breasil", 10_000, options={"players": 3, "turns": 2})
    assert state.is_over() and projected_vp(state) == state.vp


def test_brian_boru_projects_the_final_scoring_of_the_board_now():
    """Scoring: coins, marker, renown, claims and regions only add to the points; a
    finished game's projection is its points."""
    state = played("brian-boru", 100)
    projected = projected_points(state)
    assert all(p >= q for p, q in zip(projected, state.points)) and projected != state.points
    over = played("brian-boru", 10_000)
    assert over.is_over() and projected_points(over) == over.points
