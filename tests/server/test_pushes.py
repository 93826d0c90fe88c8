"""A page's own answer comes back in its 200, not again over its WebSocket (the page names
its socket, ``?socket=``, and its answers name it, ``X-Realms-Socket``); every other page
watching the game gets it over its socket."""

from __future__ import annotations

from .conftest import bearer, new_game, settled
from .test_undo import answer


def test_a_pages_own_answer_comes_in_its_200_not_again_over_its_socket(client):
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    s = settled(client, gid, tok)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}&socket=page-a") as mine, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as other:
        assert mine.receive_json()["version"] == other.receive_json()["version"] == s["version"]
        key = s["pending"][0]["options"][0]["key"]
        r = client.post(f"/api/games/{gid}/answers", headers={**bearer(tok), "X-Realms-Socket": "page-a"},
                        json={"key": key, "version": s["version"]})
        assert r.status_code == 200, r.text
        named = r.json()["version"]
        assert other.receive_json()["version"] == named
        # an answer that names no socket: every page gets it (the bots' pushes may come first)
        again = answer(client, gid, tok, settled(client, gid, tok))
        assert again.status_code == 200, again.text
        seen = [mine.receive_json()["version"]]
        while seen[-1] < again.json()["version"]:
            seen.append(mine.receive_json()["version"])
        assert seen[-1] == again.json()["version"] and named not in seen


def test_a_socket_name_of_another_seat_changes_nothing(client):
    """A name only spares the socket of the seat that answers (a spectator's page named
    the same is still sent the state)."""
    out = new_game(client)
    gid, tok = out["id"], out["seats"][0]["token"]
    s = settled(client, gid, tok)
    with client.websocket_connect(f"/api/games/{gid}/ws?socket=page-b") as watching:
        assert watching.receive_json()["version"] == s["version"]
        key = s["pending"][0]["options"][0]["key"]
        r = client.post(f"/api/games/{gid}/answers", headers={**bearer(tok), "X-Realms-Socket": "page-b"},
                        json={"key": key, "version": s["version"]})
        assert r.status_code == 200, r.text
        assert watching.receive_json()["version"] == r.json()["version"]
