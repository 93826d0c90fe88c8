"""The game's story for its page (server/story.py): every line a seat may read
with its battle and board marks, a battle's exact odds by the game's calculator, the
scores by turn of a finished game, a rematch; and responses compressed."""

from __future__ import annotations

from realms.core.game import get_game
from realms.server.story import _values

from .conftest import bearer, new_game, settled


def _play_to(client, gid, token, stop, pick=lambda d, i: 0) -> dict:
    for i in range(3000):
        s = settled(client, gid, token)
        if stop(s) or s["over"]:
            return s
        d = s["pending"][0]
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(token),
                        json={"key": d["options"][pick(d, i)]["key"], "version": s["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("never reached")


def _attacking(d, i) -> int:
    return len(d["options"]) - 1 if d["kind"] == "hb.move" and i % 3 else 0


def test_the_events_are_the_seats_own_numbered_among_themselves(client):
    """A seat reads the lines it may read (Event.seen_by), numbered among them alone;
    only ``battle``, ``marks`` and ``seats`` of their data; ``since`` pages on."""
    made = new_game(client, "brittania", ("human", "random", "random"), {"turns": 2}, seed=3)
    gid, token = made["id"], made["seats"][0]["token"]
    s = _play_to(client, gid, token, lambda s: s["version"] >= 60)
    mine = client.get(f"/api/games/{gid}/events", headers=bearer(token)).json()
    spectator = client.get(f"/api/games/{gid}/events").json()
    state = client.app.state.server.live[gid].state
    assert [e["text"] for e in mine["events"]] == state.chronicle_for(0)
    assert [e["text"] for e in spectator["events"]] == state.chronicle_for(None)
    assert [e["n"] for e in mine["events"]] == list(range(mine["total"]))
    assert all(set(e) <= {"n", "kind", "turn", "text", "battle", "marks", "seats"} for e in mine["events"])
    assert any(e.get("seats") == [0] and e["text"].startswith("P1 begins in") for e in mine["events"])
    if not s["over"]:
        assert len(spectator["events"]) <= len(mine["events"])  # a seat's own orders are its alone
    later = client.get(f"/api/games/{gid}/events", params={"since": 3}, headers=bearer(token)).json()
    assert later["events"] == mine["events"][3:]


def test_a_battles_odds_are_the_calculators(client):
    """The odds of an event's battle are the game's calculator's on the event's values;
    an event without them is a 404."""
    made = new_game(client, "hy-breasil", ("human", "auto", "auto"), {"turns": 2}, seed=7)
    gid, token = made["id"], made["seats"][0]["token"]
    _play_to(client, gid, token, lambda s: bool(s["pending"]) and s["pending"][0]["kind"] in
             ("hb.retreat", "hb.assign-hits"), _attacking)
    events = client.get(f"/api/games/{gid}/events", headers=bearer(token)).json()["events"]
    rnd = next(e for e in reversed(events) if e.get("battle", {}).get("round"))
    got = client.get(f"/api/games/{gid}/odds", params={"event": rnd["n"]}, headers=bearer(token)).json()
    calc = get_game("hy-breasil").calculator()
    data, _ = calc.compute(_values(calc, rnd["battle"]["odds"]))
    assert got["odds"]["attacker takes area"] == data["attacker_takes_area"]
    assert got["method"] == "exact"
    plain = next(e for e in events if "battle" not in e)
    assert client.get(f"/api/games/{gid}/odds", params={"event": plain["n"]}).status_code == 404


def test_scores_by_turn_and_a_rematch_once_the_game_is_over(client):
    made = new_game(client, "hy-breasil", ("human", "auto", "random"), {"turns": 2}, seed=9)
    gid, token = made["id"], made["seats"][0]["token"]
    assert client.get(f"/api/games/{gid}/scores").status_code == 403
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(token)).status_code == 403
    s = _play_to(client, gid, token, lambda s: s["over"])
    assert s["over"]
    path = client.get(f"/api/games/{gid}/scores").json()
    assert path["turns"][-1] == {"turn": "end", "scores": [float(x) for x in s["scores"]]}
    assert [t["turn"] for t in path["turns"][:-1]] == [1, 2]
    assert client.post(f"/api/games/{gid}/rematch").status_code == 403  # a spectator
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(token))
    assert r.status_code == 201
    again = r.json()
    assert set(again) == {"id", "seat", "token"} and again["seat"] == 0
    new = client.get(f"/api/games/{again['id']}", headers=bearer(again["token"])).json()
    assert [x["kind"] for x in new["seats"]] == [x["kind"] for x in s["seats"]] and not new["over"]
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(token)).json() == again


def test_responses_are_compressed(client):
    made = new_game(client, "hy-breasil", ("human", "auto", "auto"), {"turns": 2}, seed=7)
    r = client.get(f"/api/games/{made['id']}/board.svg", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip"
    assert int(r.headers["content-length"]) < len(r.content) / 3
    listed = client.get("/api/games").json()["games"]
    assert any(g["id"] == made["id"] and "decisions made" in g["status"] for g in listed)
