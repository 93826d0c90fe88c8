"""No request waits for the odds of a game the odds' worker has not set up yet
(``Server.advise``): the game is set up there by one background task, the payload says the
odds are coming (an entry of kind ``pending``), and the odds are pushed to the game's pages
when worked out, each page its own seat's.  A process taking over a dead one's games has
dozens to set up at once, one after another in its one odds' worker."""

from __future__ import annotations

import asyncio
import logging

from fastapi.testclient import TestClient

from realms.games.hy_breasil import ADVICE_KINDS
from realms.server import heavy
from realms.server import app as app_module
from realms.server.app import create_app

from .conftest import bearer, new_game, odds_set_up
from .test_undo import answer


class HeldSetUp:
    """The odds' worker with each game's set-up held until :meth:`release` (the advice
    itself is worked out as ever); counts the set-ups asked for."""

    def __init__(self, client, monkeypatch) -> None:
        self.client = client
        self.odds = client.app.state.server.heavy.odds
        self.gate = asyncio.Event()
        self.set_ups: list = []
        self.keys: list = []
        real = self.odds.run

        async def run(key, *args, **kw):
            self.keys.append(key)
            if key[0] == "setup":
                self.set_ups.append(key)
                # bounded: a request that waited for the set-up would get no pending entry
                await asyncio.wait_for(self.gate.wait(), 60)
            return await real(key, *args, **kw)

        monkeypatch.setattr(self.odds, "run", run)

    def release(self) -> None:
        self.client.portal.call(self.gate.set)


def me(client, gid: str, tok: str) -> dict:
    return client.get(f"/api/games/{gid}", headers=bearer(tok)).json()


def to_advised_decision(client, gid: str, toks: dict, attack: bool = True) -> tuple[int, dict]:
    """Answer each awaited person's first option until one is at a decision the game gives
    odds for (Hy Breasil's set-up picks have none), with ``attack`` one with an attack among
    its options (so that its odds are not an empty list): (that seat, its state)."""
    for _ in range(300):
        seat = me(client, gid, None)["awaiting"][0]
        s = me(client, gid, toks[seat])
        options = s["pending"][0]["options"]
        if s["pending"][0]["kind"] in ADVICE_KINDS and (not attack or any("(attack the" in o["label"] for o in options)):
            return seat, s
        assert answer(client, gid, toks[seat], s).status_code == 200
    raise AssertionError("no decision offering an attack in 300 answers")


def two_people(client) -> tuple[str, dict]:
    """A new Hy Breasil game of two people (seed 7, three turns): its id and its seats'
    tokens."""
    out = new_game(client, seats=["human", "human"], seed=7, options={"turns": 3})
    return out["id"], {s["seat"]: s["token"] for s in out["seats"]}


def kinds(state: dict) -> set:
    return {o["kind"] for o in state["odds"]}


def test_a_get_does_not_wait_for_the_set_up_and_the_odds_are_pushed_after(client, monkeypatch):
    held = HeldSetUp(client, monkeypatch)
    gid, toks = two_people(client)
    seat, s = to_advised_decision(client, gid, toks)
    assert kinds(s) == {"pending"}, s["odds"]
    assert "being worked out" in s["odds"][0]["text"]
    again = me(client, gid, toks[seat])
    assert kinds(again) == {"pending"} and again["version"] == s["version"]
    other = 1 - seat
    with client.websocket_connect(f"/api/games/{gid}/ws?token={toks[seat]}") as mine, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={toks[other]}") as theirs:
        assert kinds(mine.receive_json()) == {"pending"}
        assert theirs.receive_json()["odds"] == []
        assert len(held.set_ups) == 1, f"one set-up for the game, not {held.set_ups}"
        held.release()
        odds_set_up(client, gid)
        pushed = mine.receive_json()
        assert pushed["version"] == s["version"]
        assert pushed["odds"] and "pending" not in kinds(pushed), pushed["odds"]
        assert kinds(pushed) <= {"possible-attack", "battle"}, pushed["odds"]
        # the other seat decides nothing now: its own payload, no odds of the seat advised
        seen = theirs.receive_json()
        assert seen["seat"] == other and seen["version"] == s["version"] and seen["odds"] == []
    assert me(client, gid, toks[seat])["odds"] == pushed["odds"]  # stored, not asked again
    assert len(held.set_ups) == 1


def test_two_gets_while_the_set_up_is_held_start_one_set_up(client, monkeypatch):
    held = HeldSetUp(client, monkeypatch)
    gid, toks = two_people(client)
    seat, _ = to_advised_decision(client, gid, toks)
    server = client.app.state.server
    first = server.odds_tasks[gid]
    for _ in range(2):
        assert kinds(me(client, gid, toks[seat])) == {"pending"}
        assert server.odds_tasks[gid] is first
    assert len(held.set_ups) == 1
    held.release()
    odds_set_up(client, gid)
    assert gid not in server.odds_tasks
    s = me(client, gid, toks[seat])
    assert s["odds"] and "pending" not in kinds(s)
    assert len(held.set_ups) == 1


def test_a_set_up_over_its_budget_turns_the_games_odds_off(client, monkeypatch):
    monkeypatch.setattr(heavy, "SETUP_SECONDS", 1e-6)  # no game is set up that quickly
    gid, toks = two_people(client)
    server = client.app.state.server
    over = server.heavy.odds.over
    seat, s = to_advised_decision(client, gid, toks, attack=False)
    assert kinds(s) == {"pending"}
    odds_set_up(client, gid)
    s = me(client, gid, toks[seat])
    assert kinds(s) == {"unavailable"} and "No odds in this game" in s["odds"][0]["text"]
    assert server.heavy.odds.over == over + 1
    r = answer(client, gid, toks[seat], s)
    assert r.status_code == 200, r.text
    seat, s = to_advised_decision(client, gid, toks, attack=False)
    assert kinds(s) == {"unavailable"}, "a game over its budget once is not set up again"
    assert gid not in server.odds_tasks and server.heavy.odds.over == over + 1


def test_a_busy_worker_leaves_the_busy_note_in_place_of_the_odds(client, monkeypatch):
    gid, toks = two_people(client)
    odds = client.app.state.server.heavy.odds
    real = odds.run

    async def busy(key, *args, **kw):
        if key[0] == "setup":
            raise heavy.Busy("the server has too much of this work waiting; try again in a moment")
        return await real(key, *args, **kw)

    monkeypatch.setattr(odds, "run", busy)
    seat, s = to_advised_decision(client, gid, toks, attack=False)
    odds_set_up(client, gid)
    s = me(client, gid, toks[seat])
    assert kinds(s) == {"unavailable"} and s["odds"][0]["text"].startswith("No odds: the server has too much")


def test_the_apps_shutdown_ends_a_set_up_held_before_it_closes_the_workers(database, monkeypatch, caplog):
    """A set-up still running at shutdown is cancelled and awaited first: no task left
    pending, and none failing (and logged) on a worker closed under it."""
    ended_first: list = []

    class Lanes(heavy.Lanes):
        def close(self) -> None:
            ended_first.append(task.done())
            super().close()

    with caplog.at_level(logging.ERROR):
        with TestClient(create_app(database, work=Lanes())) as client:
            client.deal = lambda seed: monkeypatch.setattr(app_module, "secret_seed", lambda: seed)
            held = HeldSetUp(client, monkeypatch)
            gid, toks = two_people(client)
            to_advised_decision(client, gid, toks, attack=False)
            task = client.app.state.server.odds_tasks[gid]
            assert not task.done() and len(held.set_ups) == 1
    assert ended_first == [True] and task.cancelled()
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_set_up_for_a_game_dropped_from_memory_works_nothing_out_for_it(client, monkeypatch):
    held = HeldSetUp(client, monkeypatch)
    gid, toks = two_people(client)
    seat, _ = to_advised_decision(client, gid, toks)
    server = client.app.state.server
    server.live.pop(gid)  # as a failed store or a cluster's hand-over drops it
    held.release()
    odds_set_up(client, gid)
    assert not [k for k in held.keys if k[0] == "advice"], "advice worked out for a game gone from memory"
    s = me(client, gid, toks[seat])  # the game rebuilt: set up in the worker by now, advised at once
    assert s["odds"] and "pending" not in kinds(s)
    assert len(held.set_ups) == 1


def test_a_games_set_up_is_a_job_nobody_waits_for(client, monkeypatch):
    """The set-up a request starts runs after the odds' jobs a request waits for
    (``heavy.Heavy.run``'s ``later``): a take-over's dozens of set-ups hold up no answer."""
    held = HeldSetUp(client, monkeypatch)
    asked: list = []
    run = held.odds.run

    async def noted(key, *args, **kw):
        asked.append((key, kw.get("later", False)))
        return await run(key, *args, **kw)

    monkeypatch.setattr(held.odds, "run", noted)
    gid, toks = two_people(client)
    seat, s = to_advised_decision(client, gid, toks)
    assert kinds(s) == {"pending"}, s["odds"]
    held.release()
    odds_set_up(client, gid)
    assert [later for key, later in asked if key[0] == "setup"] == [True]
    assert {later for key, later in asked if key[0] == "advice"} == {False}
