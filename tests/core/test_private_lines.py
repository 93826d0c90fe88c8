"""A line kept to some seats while the game runs (``Event.audience``) is read by every
viewer once the game is over (core/events.py): so its text names the seats it is told to,
as a spectator must read it, never addressed to "you" (a reader it cannot know; a mission
card's own words quoted in the line may still say "your")."""

from __future__ import annotations

import re

import pytest

from realms.core.game import games
from randomplay import played

YOU = re.compile(r"^(you|your)\b", re.IGNORECASE)


def _private_lines(game_id: str, steps: int = 400) -> tuple[list, list[str]]:
    game, state, _ = played(game_id, steps, seed=4)
    names = state.result()["players"]
    return [e for e in state.events if e.audience is not None], names


@pytest.mark.parametrize("game_id", sorted(games()))
def test_a_private_line_names_whose_it_is(game_id):
    private, names = _private_lines(game_id)
    for e in private:
        assert not YOU.search(e.text), f"{game_id}: {e.text!r} is addressed to whoever reads it after the game"
        for seat in e.audience:
            assert names[seat] in e.text, f"{game_id}: {e.text!r} (for {names[seat]}) does not name {names[seat]}"


def test_brittanias_sent_orders_are_private_lines():
    """The orders a seat sends are the private lines that must name it (TURN ORDER: orders
    hidden until the turn resolves)."""
    private, _ = _private_lines("brittania")
    assert any(e.kind == "own_orders" for e in private)
