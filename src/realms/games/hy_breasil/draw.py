"""Pictures of Hy Breasil: the map by terrain, or a position with nations and units."""

from __future__ import annotations

from realms.core.mapsvg import render_svg

from .board import load_board
from .state import EMPTY, HBState

TERRAIN_COLOURS = {"plains": "#e8dc8c", "forest": "#5f9e4f", "hills": "#a88a64"}


def draw(state: HBState | None = None, map_name: str = "hy-breasil") -> str:
    """SVG of the map (terrain colours), or of ``state``: areas in their nation's colour."""
    if state is None:
        board = load_board(map_name)
        return render_svg(board.graph, terrain_colours=TERRAIN_COLOURS, title=board.graph.name,
                          legend={t.capitalize(): c for t, c in TERRAIN_COLOURS.items()})
    b = state.board
    fills, labels, legend = {}, {}, {}
    for a in b.land:
        nid = state.area_nation[a]
        if nid != EMPTY:
            n = state.nations[nid]
            colour = state.tables.nation_sets[n.set].colour
            fills[a] = colour
            labels[a] = str(n.units[a])
            legend[f"{n.name} ({state.names[n.owner]})"] = colour
    return render_svg(b.graph, terrain_colours=TERRAIN_COLOURS, fills=fills, labels=labels,
                      title=f"{b.graph.name} — turn {state.turn}", legend=legend)
