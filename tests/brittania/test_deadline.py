"""The turn's deadline in the web app (RULINGS BR-Q102): the turn
resolves when every player has sent orders or when the deadline the game's creator set
has passed, a player who sent none giving no orders.  The server's clock is injected, so
the test moves time instead of sleeping."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from realms.games.brittania import GAME
from realms.games.brittania.board import load_board
from realms.server import app as app_module
from realms.server.app import create_app


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def dealt(monkeypatch):
    """One deal for every run: the server draws the seed of a game of two people, and the
    bots' orders (a random bot's attack on a capital) would differ from deal to deal."""
    monkeypatch.setattr(app_module, "secret_seed", lambda: 5)


@pytest.fixture
def app_and_clock(tmp_path):
    with TestClient(create_app(str(tmp_path / "realms.db"))) as client:
        deadlines = client.app.state.deadlines
        client.portal.call(deadlines.stop)      # the test sweeps by itself
        clock = deadlines.clock = Clock()
        yield client, deadlines, clock


def state(client, gid, token) -> dict:
    return client.get(f"/api/games/{gid}", headers=bearer(token)).json()


def people_awaited(client, gid, token, people=(0, 1)) -> dict:
    """The state once only people are awaited (bots may play in the background, in a
    worker process of lower priority: a loaded machine gives them seconds)."""
    deadline = time.monotonic() + 60
    while True:
        st = state(client, gid, token)
        if st["over"] or set(st["awaiting"]) <= set(people):
            return st
        if time.monotonic() > deadline:
            pytest.fail(f"game {gid}: seats {st['awaiting']} still awaited after 60 s, not only {people}")
        time.sleep(0.02)


def answer(client, gid, token, key) -> dict:
    st = state(client, gid, token)
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(token), json={"key": key, "version": st["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def setup_people(client, gid, tokens) -> None:
    for token in tokens:
        while True:
            st = people_awaited(client, gid, token)
            mine = [d for d in st["pending"] if d["kind"] in ("br.start", "br.trait", "br.name")]
            if not mine:
                break
            answer(client, gid, token, mine[0]["options"][0]["key"])


def test_the_deadline_ends_the_turn_with_the_orders_sent(app_and_clock):
    """Ann sends her orders; Bob chose a defence and its grain was still unchosen when the
    deadline passed: his order stands with the least grain, and the turn resolves."""
    client, deadlines, clock = app_and_clock
    r = client.post("/api/games", json={"game": "brittania", "options": {"turns": 3, "deadline_minutes": 2},
                                        "seats": ["human", "human", "steward", "random"]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    ann, bob = (s["token"] for s in r.json()["seats"])
    setup_people(client, gid, (ann, bob))
    st = people_awaited(client, gid, ann)
    assert st["view"]["turn"] == 1 and st["pending"][0]["kind"] == "br.order"
    home = st["view"]["players"][0]["capital"]
    cost = answer(client, gid, ann, f"invest:{home}")["pending"][0]["options"][0]["key"]
    answer(client, gid, ann, cost)                              # one point of output
    answer(client, gid, ann, "done")
    bob_home = state(client, gid, bob)["view"]["players"][1]["capital"]
    answer(client, gid, bob, f"defend:{bob_home}")
    assert state(client, gid, bob)["pending"][0]["kind"] == "br.grain"

    assert client.portal.call(deadlines.sweep) == []          # the round is seen: 2 minutes from now
    clock.now += 119
    assert client.portal.call(deadlines.sweep) == []
    assert state(client, gid, bob)["view"]["turn"] == 1
    clock.now += 2
    assert client.portal.call(deadlines.sweep) == [gid]
    st = people_awaited(client, gid, ann)
    assert st["view"]["turn"] == 2
    assert st["view"]["states"][home]["output"] == 11
    told = "\n".join(st["chronicle"])
    assert f"P2 orders: 1 grain to defend {load_board().state(bob_home).name}." in told
    # the next turn's deadline runs from when it is first seen, not from the last one's
    assert client.portal.call(deadlines.sweep) == []
    clock.now += 119
    assert client.portal.call(deadlines.sweep) == []
    clock.now += 2
    assert client.portal.call(deadlines.sweep) == [gid]
    st = people_awaited(client, gid, ann)
    assert st["view"]["turn"] == 3
    assert "P1 orders: nothing." in "\n".join(st["chronicle"])
    record = client.get(f"/api/games/{gid}/record", headers=bearer(ann)).json()
    assert [p for p, k in record["answers"]].count(1) >= 4     # Bob's deadline answers are stored


def test_no_deadline_waits_for_everyone(app_and_clock):
    client, deadlines, clock = app_and_clock
    r = client.post("/api/games", json={"game": "brittania", "options": {"turns": 2},
                                        "seats": ["human", "human", "steward"]})
    gid = r.json()["id"]
    ann, bob = (s["token"] for s in r.json()["seats"])
    setup_people(client, gid, (ann, bob))
    client.portal.call(deadlines.sweep)
    clock.now += 10 ** 7
    assert client.portal.call(deadlines.sweep) == []
    assert state(client, gid, ann)["view"]["turn"] == 1


def test_no_answer_is_no_orders():
    """BR-Q102: a silent player sends what he wrote; the round is the turn; a decision of
    the setup has no deadline."""
    s = GAME.new_game({"players": 2}, 3)
    assert GAME.no_answer(s.pending()[0]) is None
    while s.pending()[0].kind != "br.order":
        d = s.pending()[0]
        s.apply(d.player, d.keys[0])
    d = s.pending()[0]
    assert GAME.no_answer(d) == (1, "done")
    home = s.board.states[s.capital[d.player]].id
    s.apply(d.player, f"defend:{home}")
    grain = s.first_pending((d.player,))
    assert grain.kind == "br.grain" and GAME.no_answer(grain) == (1, "1")


def test_a_deadline_at_any_moment_of_the_writing_ends_the_turn():
    """Whenever the deadline falls — a player between orders, choosing an order's grain,
    or declaring a new capital — the silent players' answers are legal and end the turn,
    and what they had written stands (BR-Q102)."""
    from realms.core.agents import RandomBot, bot_seed
    from realms.server.deadlines import silence

    ended = 0
    for seed in range(4):
        s = GAME.new_game({"players": 5, "turns": 6}, seed)
        bots = [RandomBot(bot_seed(seed, i)) for i in range(5)]
        for n in range(100_000):
            if s.is_over():
                break
            d = s.pending()[0]
            if d.kind in ("br.order", "br.grain", "br.capital") and n % 7 == 0:
                turn, written = s.turn, [list(o) for o in s.orders]
                c = s.clone()
                assert silence(c, GAME.no_answer, turn) > 0
                assert c.turn == turn + 1 or c.over
                revealed = {e.data["player"]: e.data["orders"] for e in c.events if e.kind == "orders" and e.turn == turn}
                for p, orders in enumerate(written):
                    assert len(revealed.get(p, [])) >= len(orders)
                ended += 1
            s.answer_index(d, bots[d.player].choose(d, lambda: s.view(d.player)))
    assert ended > 20


def test_a_free_colour_nobody_took_by_the_deadline_stays_free():
    """BR-Q30 with BR-Q102: "another *can* take their color"; an eliminated player's seat
    that does not answer the newcomer question by the deadline leaves the colour free
    (``nobody``).  The question is a round of its own, so the turn's orders then get their
    whole time and are not ended with it."""
    from realms.server.deadlines import silence

    from .test_rulings import bob_eliminated

    s = bob_eliminated()
    d = s.pending()[0]
    assert d.kind == "br.newcomer"
    round_, key = GAME.no_answer(d)
    assert key == "nobody" and round_ != 2
    assert silence(s, GAME.no_answer, round_) == 1
    assert not s.alive[1] and s.turn == 2
    orders = s.pending()[0]
    assert orders.kind == "br.order" and GAME.no_answer(orders) == (2, "done")
