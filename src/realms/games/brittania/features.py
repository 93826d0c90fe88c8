"""What a learned evaluation reads of a Brittania position (``Game.features``), from the
deciding seat's view alone.

The economic victory (BR-Q18) scores the grain of a player's States times the KINGDOM
States held; the Emperor wins outright.  The view shows every State's owner and output,
every player's grain, king and title: the public turn report.
"""

from __future__ import annotations

from functools import cache

from realms.core.features import leads, mine, shares


@cache
def _kingdoms() -> frozenset[str]:
    """The ids of the KINGDOM-type States (the board's data)."""
    from .board import load_board

    return frozenset(s.id for s in load_board().states if s.kingdom)


def features(view: dict) -> dict[str, list[float]]:
    """Each seat's economic score (share, lead), States, KINGDOM States, output and grain
    (shares), its king's combat value, a kingdom or a title held, trade partners, whether
    it is alive and the viewer."""
    players = view["players"]
    n = len(players)
    kingdoms = _kingdoms()
    held, kingdom_held, output = [0.0] * n, [0.0] * n, [0.0] * n
    for sid, st in view["states"].items():
        p = st.get("owner")
        if p is None:
            continue
        held[p] += 1
        output[p] += st["output"]
        kingdom_held[p] += sid in kingdoms
    score = [o * k for o, k in zip(output, kingdom_held)]
    done = min(1.0, (view["turn"] - 1) / max(1, view["last_turn"]))
    score_share = shares(score)
    return {
        "score_share": score_share,
        "score_lead": leads(score),
        "score_share_done": [s * done for s in score_share],
        "states_share": shares(held),
        "kingdom_states_share": shares(kingdom_held),
        "output_share": shares(output),
        "grain_share": shares([p["grain"] for p in players]),
        "king_cv": [p["king"]["cv"] / 5 for p in players],
        "kingdom": [float(bool(p["kingdom"])) for p in players],
        "title": [float(bool(p["title"])) for p in players],
        "trades": [len(p["trades"]) / max(1, n - 1) for p in players],
        "alive": [float(bool(p["alive"])) for p in players],
        "me": mine(view, n),
    }
