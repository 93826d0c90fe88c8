"""What Brittania's history page measures (``Game.history_measure``): the
states each player holds at every turn end, out of the map's 81, in the player's colour
(the independent states are left blank)."""

from __future__ import annotations

from realms.core.game import HistoryMeasure, Share


class StatesHeld(HistoryMeasure):
    name = "states held"
    event_classes = {"battle": "battle", "draw": "battle", "conquest": "battle", "capital-captured": "battle",
                     "devastated": "battle", "eliminated": "fall", "king-death": "fall",
                     "kingdom": "rise", "title": "rise", "newcomer": "rise", "empire": "score",
                     "economic-victory": "score"}
    marker_kinds = frozenset({"turn"})

    def shares(self, state) -> tuple[list[Share], int]:
        held = [0] * state.n
        for o in state.owner:
            if o >= 0:
                held[o] += 1
        hexes = state.tables.colour_hex
        out = [Share(f"p{p}", name, state.colours[p], hexes[state.colours[p]], held[p])
               for p, name in enumerate(state.names) if held[p]]
        return out, len(state.board.states)

    def snapshot(self, state, turn: int):
        """The map as turn ``turn`` ended: the next turn has begun when its first event is
        logged (before any income or order), so only the turn shown differs."""
        if state.turn != turn + 1:
            return state
        snap = state.clone()
        snap.turn = turn
        return snap
