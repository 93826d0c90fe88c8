"""The history page of a Brittania game: the histomap measures the
states each player holds at every turn end, in the player's colour (the rules post's 12
colours), out of the 81 states; the map of each turn shows the turn that ended."""

from __future__ import annotations

from realms.core.agents import bot_seed
from realms.core.match import play
from realms.games.brittania import GAME
from realms.games.brittania.bots import Steward
from realms.sim.history import history_html, replay_history


def test_states_held_at_every_turn_end():
    state = GAME.new_game({"players": 4, "turns": 5}, 11)
    play(state, [Steward(bot_seed(11, i)) for i in range(4)])
    record = state.record()
    h = replay_history(record, draw_maps=False)
    assert h.measure.name == "states held"
    assert [t.turn for t in h.turns] == list(range(0, 6))
    last = h.turns[-1]
    assert last.total == 81
    held = {s.name: s.value for s in last.shares}
    assert held == {n: v for n, v in state.result()["states_held"].items() if v}
    for share in last.shares:
        colour = state.colours[int(share.key[1:])]
        assert (share.detail, share.colour) == (colour, state.tables.colour_hex[colour])
    assert all(sum(s.value for s in t.shares) <= 81 for t in h.turns)
    assert h.turns[0].shares and all(s.value == 1 for s in h.turns[0].shares)   # one starting state each


def test_history_page_draws_each_turn():
    state = GAME.new_game({"players": 3, "turns": 2}, 4)
    play(state, [Steward(bot_seed(4, i)) for i in range(3)])
    page = history_html(state.record())
    assert "states held" in page and page.count('id="area-kent"') >= 3
