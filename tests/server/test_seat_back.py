"""A seat the default bot took after missed turns (server/host.py) goes back to its person
when they answer next, as with the page's button: their answer is taken if it is still
an answer to their seat's decision, and the table says the seat was taken back by an
answer (``stand_ins``: ``back``)."""

from __future__ import annotations

import time

import pytest

from realms.core.game import get_game
from realms.server import app as app_module

from .conftest import bearer, settled
from .test_deadlines import Clock
from .test_table import app_client, create, look, table

TURN = {"clock": {"kind": "turn", "minutes": 60, "misses": 2}}


@pytest.fixture(autouse=True)
def dealt(monkeypatch):
    """One deal for every run: the server draws the seed of a game of two people."""
    monkeypatch.setattr(app_module, "secret_seed", lambda: 5)


def _post(client, gid, token, key, version):
    return client.post(f"/api/games/{gid}/answers", headers=bearer(token), json={"key": key, "version": version})


def test_an_answer_still_asked_takes_the_seat_back_and_is_played(database):
    """The bot holds the seat awaited and has not answered yet: the person's answer is
    played as theirs, and the bot no longer holds the seat."""
    clock = Clock()
    with app_client(database, clock) as client:
        made = create(client, table=TURN)
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        st = settled(client, gid)
        seat = st["awaiting"][0]
        live = client.app.state.server.live[gid]

        async def bot_takes() -> None:  # as the watcher does at the last miss, before the bot moves
            async with live.lock:
                client.app.state.tables.take(live, seat)
        client.portal.call(bot_takes)
        bot = next(iter(get_game("version2").bots))
        assert table(client, gid)["bots"] == {str(seat): bot}
        mine = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        r = _post(client, gid, tokens[seat], mine["pending"][0]["options"][0]["key"], mine["version"])
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1
        assert client.get(f"/api/games/{gid}/record").json()["answers"][-1][0] == seat
        t = table(client, gid, tokens[seat])
        assert t["bots"] == {}
        held = [s for s in t["stand_ins"] if s["by"] == bot and s["seat"] == seat]
        assert held[-1]["to"] == mine["version"] and held[-1]["back"] == "answer"


def test_an_answer_refused_still_takes_the_seat_back_and_the_next_is_the_persons(database):
    """Two missed turns and the bot holds the seat (the watcher, on the table's clock); the
    person's next answer comes when another seat is awaited: refused, it still takes the
    seat back, so the seat's next decision waits for the person, who answers it."""
    clock = Clock()
    with app_client(database, clock) as client:
        made = create(client, table=TURN)
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        look(client, gid)
        first = settled(client, gid)["awaiting"][0]
        other = 1 - first
        end = time.monotonic() + 300
        while str(first) not in table(client, gid)["bots"]:
            assert time.monotonic() < end, "the bot did not take the silent seat within 300 s"
            st = settled(client, gid)
            assert st["awaiting"] and not st["over"], f"the game ended before the bot took the seat: {table(client, gid)}"
            if other in st["awaiting"]:  # the other person answers in time, after the watcher's look
                look(client, gid)
                mine = settled(client, gid, tokens[other])
                _post(client, gid, tokens[other], mine["pending"][0]["options"][0]["key"], mine["version"])
            else:
                look(client, gid)
                clock.now += 3600
                look(client, gid)
        while (st := client.get(f"/api/games/{gid}", headers=bearer(tokens[first])).json())["awaiting"] != [other]:
            assert time.monotonic() < end and not st["over"], f"the bot did not hand the turn on: {st['awaiting']}"
            time.sleep(0.02)
        r = _post(client, gid, tokens[first], "end", st["version"])
        assert r.status_code == 403 and "no decision" in r.json()["detail"], (r.text, st["version"], st["awaiting"])
        t = table(client, gid, tokens[first])
        assert t["bots"] == {} and t["stand_ins"][-1]["back"] == "answer", t
        while first not in (st := settled(client, gid, tokens[other]))["awaiting"]:
            assert time.monotonic() < end and not st["over"], "the turn did not come back to the person"
            look(client, gid)
            _post(client, gid, tokens[other], st["pending"][0]["options"][0]["key"], st["version"])
        mine = settled(client, gid, tokens[first])
        assert mine["pending"], "the bot answered for a seat it no longer holds"
        r = _post(client, gid, tokens[first], mine["pending"][0]["options"][0]["key"], mine["version"])
        assert r.status_code == 200, (r.text, mine["version"])
