"""What a learned evaluation reads of a version² position (``Game.features``), from the
deciding seat's view alone.

The fields held at the turn limit decide, a mission fulfilled wins outright (2.4): the
view shows every player's fields, production, army and treasure, and the viewer's own
mission.
"""

from __future__ import annotations

from realms.core.features import leads, mine, shares


def features(view: dict) -> dict[str, list[float]]:
    """Each seat's fields (share, lead), production, army and treasure (shares),
    capitols taken, whether it is alive, the viewer, and the viewer's mission fulfilled."""
    players = view["players"]
    n = len(players)
    fields = [p["fields"] for p in players]
    done = min(1.0, (view["turn"] - 1) / max(1, view["turn_limit"]))
    field_share = shares(fields)
    me = mine(view, n)
    fulfilled = float(bool((view.get("mission") or {}).get("fulfilled")))
    return {
        "fields_share": field_share,
        "fields_lead": leads(fields),
        "fields_share_done": [s * done for s in field_share],
        "production_share": shares([p["production"] for p in players]),
        "units_share": shares([p["units"] for p in players]),
        "treasure_share": shares([p["treasure"] for p in players]),
        "capitols": [float(p["capitols_taken"]) for p in players],
        "alive": [float(bool(p["alive"])) for p in players],
        "me": me,
        "mission_fulfilled": [m * fulfilled for m in me],
    }
