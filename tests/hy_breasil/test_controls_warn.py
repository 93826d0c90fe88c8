"""What ending the movement costs, said before it is taken (``Game.controls`` "warn"):
units left at sea are lost (§6.3, RULINGS HB-Q18), units over the
support limit are removed (§6.4)."""

from __future__ import annotations

from realms.games.hy_breasil import GAME
from realms.games.hy_breasil.controls import end_cost


def _view(units: dict, phases: int = 1) -> dict:
    nation = {"id": 1, "units": units, "abilities": [], "event_flags": {"movement_phases": phases}}
    return {"options": {"players": 3}, "nations": [nation], "current_nation": 1, "moved": {}}, nation


def test_units_left_at_sea_are_said_lost():
    view, nation = _view({"muir-tethra": 2, "ailech": 1})
    assert end_cost(view, nation) == "Ending the movement now: 2 units left at sea are lost (§6.3)."


def test_units_over_the_support_limit_are_said_removed_after_the_last_phase():
    """§6.4: twice as many units as land areas: 5 units on 2 areas, one too many."""
    view, nation = _view({"ailech": 3, "murias": 2})
    assert end_cost(view, nation) == "Ending the movement now: 1 unit over the support limit of 4 is removed (§6.4)."
    view, nation = _view({"ailech": 3, "murias": 2}, phases=2)  # Strong leader: it moves again first
    assert end_cost(view, nation) == ""


def test_the_warning_is_in_the_controls_of_the_move_decision():
    """Every "End movement" offered carries the warning of what it costs, if anything."""
    state = GAME.new_game({"players": 3, "turns": 2}, 5)
    warned = 0
    while state.pending():
        d = state.pending()[0]
        if d.kind == "hb.move" and "done" in d.keys:
            view = state.view(d.player)
            nation = next(n for n in view["nations"] if n["id"] == view["current_nation"])
            warn = GAME.controls(view, d).get("warn", {})
            assert warn.get("done", "") == end_cost(view, nation)
            warned += 1
        state.apply(d.player, next((k for k in d.keys if ">" in k), d.keys[0]))
    assert warned
