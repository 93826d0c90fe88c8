"""What Hy Breasil's history page measures (``Game.history_measure``): the land areas
each nation holds at every turn end, in the colour the map gives it (its owner's hue,
shaded by its rank among the owner's nations: ``draw.nation_colours``), a nation split off
another (civil war §6.1, cut off §6.4) flowing beside its parent."""

from __future__ import annotations

from realms.core.game import HistoryMeasure, Share


class LandHeld(HistoryMeasure):
    name = "land areas held"
    event_classes = {"battle": "battle", "battle-result": "battle", "nation-removed": "fall",
                     "nation-enters": "rise", "civil-war": "rise", "nation-splits": "rise", "expansion": "rise",
                     "retreat": "battle", "withdraw": "battle", "withdraw-stay": "battle",
                     "victory-points": "score", "scoring": "score", "no-scoring": "score", "game-over": "score"}
    marker_kinds = frozenset({"turn"})

    def __init__(self) -> None:
        self.parents: dict[int, int] = {}

    def on_event(self, state, event) -> None:
        if event.kind in ("civil-war", "nation-splits"):
            self.parents[event.data["new_nation"]] = event.data["nation"]

    def shares(self, state) -> tuple[list[Share], int]:
        from .draw import nation_colours

        colours = nation_colours(state)
        out = []
        for nid, n in sorted(state.nations.items()):
            held = bin(n.land).count("1")
            if not held:
                continue
            detail = ", ".join(x for x in (n.race, state.names[n.owner] if n.owner >= 0 else None) if x)
            out.append(Share(str(nid), n.name, detail, colours[nid], held,
                             str(self.parents[nid]) if nid in self.parents else None))
        return out, len(state.board.land)

    def snapshot(self, state, turn: int):
        if state.turn != turn + 1:
            return state
        snap = state.clone()
        snap.turn = turn
        return snap
