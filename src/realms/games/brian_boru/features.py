"""What a learned evaluation reads of a Brian Boru position (``Game.features``), from the
deciding seat's view alone.

Points come in lumps at a round's end and most at the game's end (Scoring): the coins,
renown, claims, marriages and towns held now are points to come, the more so the later.
"""

from __future__ import annotations

from realms.core.features import leads, mine, shares


def features(view: dict) -> dict[str, list[float]]:
    """Each seat's points (share, lead), towns, coins, renown, church, claims and
    marriages (shares), raiders and its place on the track, the towns weighted by the
    game done, and whether the seat is the viewer."""
    players = view["players"]
    n = len(players)
    towns = [0.0] * n
    for town in view["towns"].values():
        if town.get("owner") is not None:
            towns[town["owner"]] += 1
    done = min(1.0, (view["round"] - 1) / max(1, view["rounds"]))
    points = [p["points"] for p in players]
    town_share = shares(towns)
    return {
        "points_share": shares(points),
        "points_lead": leads(points),
        "towns_share": town_share,
        "towns_share_done": [s * done for s in town_share],
        "coins_share": shares([p["coins"] for p in players]),
        "renown_share": shares([p["renown"] for p in players]),
        "church_share": shares([p["church"] for p in players]),
        "claims_share": shares([len(p["claims"]) for p in players]),
        "marriages_share": shares([len(p["marriages"]) for p in players]),
        "raiders": [p["raiders"] / 10 for p in players],
        "track": [p["track"] / max(1, n) for p in players],
        "me": mine(view, n),
    }
