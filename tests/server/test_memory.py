"""Finished games leave memory: the server keeps the ``FINISHED_KEPT`` most recently asked
for and rebuilds any other from the store when it is asked for again."""

from __future__ import annotations

from realms.server import app as app_module

from .conftest import new_game, settled

BOTS_ONLY = ("auto", "auto", "auto")


def test_finished_games_leave_memory_and_come_back_from_the_store(client, monkeypatch):
    monkeypatch.setattr(app_module, "FINISHED_KEPT", 1)
    server = client.app.state.server
    first = new_game(client, seats=BOTS_ONLY)["id"]
    done = settled(client, first)
    assert done["over"]
    second = new_game(client, seats=BOTS_ONLY)["id"]
    assert settled(client, second)["over"]
    assert first not in server.live and second in server.live
    again = client.get(f"/api/games/{first}").json()  # rebuilt from its stored answers
    assert again["over"] and again["version"] == done["version"] and again["scores"] == done["scores"]
    assert first in server.live and second not in server.live


def test_a_watched_finished_game_stays(client, monkeypatch):
    monkeypatch.setattr(app_module, "FINISHED_KEPT", 1)
    server = client.app.state.server
    first = new_game(client, seats=BOTS_ONLY)["id"]
    assert settled(client, first)["over"]
    with client.websocket_connect(f"/api/games/{first}/ws") as watching:
        assert watching.receive_json()["over"]
        second = new_game(client, seats=BOTS_ONLY)["id"]
        assert settled(client, second)["over"]
        assert first in server.live
