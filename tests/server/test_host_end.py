"""A game its host ends (``POST /api/games/{id}/host`` ``end``) is over for its pages: the
state says so to every seat, to spectators, to an open page's socket and after a restart,
with the results as they stand; its scores by turn and its replay are open, and its seats
may ask for a rematch, as at the end of a game played out."""

from __future__ import annotations

import json

from .conftest import bearer, settled
from .test_seat_back import dealt  # noqa: F401 (one deal for every run)
from .test_deadlines import Clock
from .test_table import app_client, create


def test_a_game_the_host_ends_is_shown_ended_with_its_results_and_a_rematch(database):
    clock = Clock()
    with app_client(database, clock) as client:
        made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 60}, "talk": "public"})
        gid, host, tok = made["id"], made["host"], made["seats"][0]["token"]
        mine = settled(client, gid, tok)
        assert not mine["over"] and not mine["ended"]
        assert client.post(f"/api/games/{gid}/rematch", headers=bearer(tok)).status_code == 403  # still going on
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
            assert json.loads(ws.receive_text())["over"] is False
            r = client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "end"})
            assert r.status_code == 200, r.text
            pushed = json.loads(ws.receive_text())
            assert pushed["over"] is True and pushed["ended"] is True
        for who in (tok, None):
            st = client.get(f"/api/games/{gid}", headers=bearer(who)).json()
            assert st["over"] is True and st["ended"] is True, who
            assert st["pending"] == [] and st["awaiting"] == [] and st["can_undo"] is False
            assert st["result"]["winner"] is None and set(st["result"]["scores"]) == {"P1", "P2"}
        assert client.get(f"/api/games/{gid}/scores").status_code == 200
        assert client.get(f"/api/games/{gid}/turns").status_code == 200
        assert client.get(f"/api/games/{gid}/board.svg", params={"at": 0}).status_code == 200
        assert "ended by its host" in next(g for g in client.get("/api/games").json()["games"] if g["id"] == gid)["status"]
        r = client.post(f"/api/games/{gid}/rematch", headers=bearer(tok))
        assert r.status_code == 201, r.text
        again = client.get(f"/api/games/{r.json()['id']}/table", headers=bearer(r.json()["token"])).json()
        assert again["clock"]["minutes"] == 60 and again["talk"] == "public" and not again["ended"]
    with app_client(database, clock) as client:  # the store keeps it ended
        st = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
        assert st["over"] is True and st["ended"] is True
