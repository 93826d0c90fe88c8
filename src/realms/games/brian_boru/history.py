"""What Brian Boru's history page measures (``Game.history_measure``): the towns each
player controls at the end of every round, in the player's colour, and the Vikings'."""

from __future__ import annotations

from realms.core.game import HistoryMeasure, Share

from .draw import PLAYER_COLOURS

VIKING_COLOUR = "#6b6b6b"


class TownsControlled(HistoryMeasure):
    name = "towns controlled"
    event_classes = {"points": "score", "game-over": "score"}
    marker_kinds = frozenset({"round"})

    def shares(self, state) -> tuple[list[Share], int]:
        out = [Share(f"p{p}", name, "", PLAYER_COLOURS[p % len(PLAYER_COLOURS)], len(state.controlled(p)))
               for p, name in enumerate(state.names)]
        vikings = sum(1 for v in state.viking if v)
        if vikings:
            out.append(Share("vikings", "Vikings", "", VIKING_COLOUR, vikings))
        return [s for s in out if s.value], len(state.board.towns)

    def snapshot(self, state, turn: int):
        if state.round != turn + 1:
            return state
        snap = state.clone()
        snap.round = turn
        return snap
