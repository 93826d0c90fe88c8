"""Games played over days (server/host.py, core/clock.py): clocks, bots for silent seats,
the host's tools, table talk and rematch, through the API and across a restart.  The
tables' clock is injected and the watcher not started: each test moves time and runs the
watcher's look itself (``sweep``), so nothing waits on the wall clock."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from realms.core.game import games, get_game
from realms.core.record import Record
from realms.server.app import create_app
from realms.server.store import Store

from .conftest import bearer, settled
from .test_deadlines import Clock


@pytest.fixture
def clock():
    return Clock()


def app_client(db, clock, **kw) -> TestClient:
    return TestClient(create_app(db, clock=clock, watch_tables=False, **kw))


def look(client, gid: str | None = None) -> None:
    """One look of the watcher, after the game's bots have played."""
    if gid is not None:
        settled(client, gid)
    client.portal.call(client.app.state.tables.sweep)


def create(client, game="version2", seats=("human", "human"), table=None, **kw):
    body = {"game": game, "seats": list(seats), "options": kw.get("options", {})}
    if table is not None:
        body["table"] = table
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def table(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/table", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


def test_a_turn_clock_runs_out_then_the_default_bot_takes_the_seat_and_the_person_takes_it_back(database, clock):
    """A deadline of an hour a turn, two misses allowed: the silent seat's turn is played
    for it when its hour has passed (a miss, recorded as played by the game's default
    bot); at the second miss the bot holds the seat and plays on without a clock; the
    person takes it back with the seat's link, and their clock runs again."""
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 60, "misses": 2}})
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        look(client, gid)
        t = table(client, gid, tokens[0])
        first = settled(client, gid)["awaiting"][0]
        assert t["clock"]["seats"][first]["left"] == 3600.0
        clock.now += 3599
        look(client, gid)
        assert settled(client, gid)["version"] == 0            # not yet
        clock.now += 1
        look(client, gid)
        st = settled(client, gid)
        assert st["version"] > 0
        t = table(client, gid)
        assert t["clock"]["seats"][first]["misses"] == 1
        bot = get_game("version2").bots and next(iter(get_game("version2").bots))
        assert t["stand_ins"][0] == {"seat": first, "by": bot, "from": 0, "to": st["version"]} or \
            t["stand_ins"][0]["by"] == "no answer"
        # the other seat answers in time: its misses stay at 0; then the first misses again
        while first not in settled(client, gid)["awaiting"]:
            look(client, gid)
            clock.now += 3600
            look(client, gid)
        look(client, gid)
        clock.now += 3600
        look(client, gid)
        t = table(client, gid)
        assert t["bots"] == {str(first): bot}
        assert t["clock"]["seats"][first]["left"] is None        # a bot's seat has no clock
        r = client.post(f"/api/games/{gid}/seat/back", headers=bearer(tokens[1 - first]))
        assert r.status_code == 409                               # no bot plays that seat
        r = client.post(f"/api/games/{gid}/seat/back", headers=bearer(tokens[first]))
        assert r.status_code == 200 and r.json()["bots"] == {}
        held = [s for s in r.json()["stand_ins"] if s["by"] == bot and s["seat"] == first]
        assert held[-1]["to"] is not None
    # a restart keeps the misses, the record of who played and the clocks
    with app_client(database, clock) as client:
        t = table(client, gid)
        assert t["bots"] == {} and len(t["stand_ins"]) >= 2


def test_people_who_stop_answering_the_bots_finish_the_game_and_the_record_replays(database, clock):
    """Neither person answers: each seat misses twice, the bots hold both and play the
    game to its end; the record replays to the same end."""
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 1, "misses": 2}})
        gid = made["id"]
        for _ in range(10):
            if len(table(client, gid)["bots"]) == 2:
                break
            look(client, gid)
            clock.now += 60
            look(client, gid)
        assert set(table(client, gid)["bots"]) == {"0", "1"}
        end = time.monotonic() + 120
        while not (st := client.get(f"/api/games/{gid}").json())["over"]:
            assert time.monotonic() < end, "the bots holding both seats did not finish the game in 120 s"
            time.sleep(0.05)
        record = client.get(f"/api/games/{gid}/record").json()
        assert record["stand_ins"] == table(client, gid)["stand_ins"] and {s["seat"] for s in record["stand_ins"]} == {0, 1}
        state = get_game("version2").replay(Record.from_json(record))
        assert state.is_over() and state.result() == settled(client, gid)["result"]


def test_a_bank_is_charged_its_turns_and_credited_its_increment(database, clock):
    """A bank of 10 minutes and 30 s a decision: a turn of 100 s with one decision leaves
    600 - 100 + 30 s."""
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "bank", "minutes": 10, "increment": 30}})
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        look(client, gid)
        st = settled(client, gid)
        seat = st["awaiting"][0]
        clock.now += 100
        while seat in settled(client, gid)["awaiting"]:
            mine = settled(client, gid, tokens[seat])
            r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                            json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
            assert r.status_code == 200, r.text
        made_n = sum(1 for p, _ in client.get(f"/api/games/{gid}/record").json()["answers"] if p == seat)
        look(client, gid)
        t = table(client, gid)
        assert t["clock"]["seats"][seat]["left"] is None
        clock_json = client.app.state.server.live[gid].table.clock.seats[seat]
        assert clock_json.bank == 600 - 100 + 30 * made_n


def test_the_host_pauses_resumes_and_extends_and_bad_values_change_nothing(database, clock):
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 60}})
        gid, host, tok = made["id"], made["host"], made["seats"][0]["token"]
        look(client, gid)
        seat = settled(client, gid)["awaiting"][0]

        def act(token, **body):
            return client.post(f"/api/games/{gid}/host", headers=bearer(token), json=body)

        assert act(tok, action="pause").status_code == 403          # a seat is not the host
        assert act(None, action="pause").status_code == 403
        assert act(host, action="pause").json()["clock"]["paused"] is True
        clock.now += 10_000                                          # paused: no time passes
        look(client, gid)
        assert settled(client, gid)["version"] == 0
        assert act(host, action="resume").json()["clock"]["seats"][seat]["left"] == 3600.0
        for bad in (0, -5, 10**9, None):
            r = act(host, action="extend", minutes=bad)
            assert r.status_code == 422 and "minutes" in r.json()["detail"]
        assert table(client, gid)["clock"]["seats"][seat]["left"] == 3600.0   # nothing changed
        assert act(host, action="extend", minutes=30).json()["clock"]["seats"][seat]["left"] == 5400.0
        assert act(host, action="dance").status_code == 422
        clock.now += 5399
        look(client, gid)
        assert settled(client, gid)["version"] == 0
    with app_client(database, clock) as client:                      # the extension is kept
        assert table(client, gid)["clock"]["seats"][seat]["left"] == 1.0


@pytest.mark.parametrize("clock_body, field", [
    ({"kind": "turn", "minutes": 0}, "clock.minutes"),
    ({"kind": "turn", "minutes": 10**8}, "clock.minutes"),
    ({"kind": "bank", "minutes": 10, "increment": -1}, "clock.increment"),
    ({"kind": "turn", "minutes": 10, "increment": 5}, "clock.increment"),
    ({"kind": "hourglass", "minutes": 10}, "clock.kind"),
    ({"kind": "turn", "minutes": 10, "misses": 0}, "clock.misses"),
    ({"kind": "turn", "minutes": "ten"}, "clock.minutes"),
])
def test_a_clock_out_of_bounds_is_refused_and_no_game_is_made(client, clock_body, field):
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/games", json={"game": "version2", "seats": ["human", "human"], "table": {"clock": clock_body}})
    assert r.status_code == 422 and field in r.json()["detail"], r.text
    assert len(client.get("/api/games").json()["games"]) == before


def test_table_talk_goes_to_whom_it_is_sent_and_everything_shows_after_the_game(database, clock):
    with app_client(database, clock) as client:
        made = create(client, game="hy-breasil", seats=("human", "human", "human", "auto"),
                      table={"talk": "full"}, options={"turns": 1})
        gid, host = made["id"], made["host"]
        ann, bob, cid = (s["token"] for s in made["seats"])

        def say(token, text, to=None):
            return client.post(f"/api/games/{gid}/talk", headers=bearer(token), json={"text": text, "to": to})

        assert say(ann, "hello all").status_code == 201
        assert say(ann, "psst bob", to=1).status_code == 201
        assert say(None, "I watch").status_code == 403
        assert say(ann, "me", to=0).status_code == 422
        assert say(ann, "x" * 501).status_code == 422
        assert say(ann, "bell\x07").status_code == 422
        texts = lambda tok: [m["text"] for m in table(client, gid, tok)["messages"]]  # noqa: E731
        assert texts(ann) == texts(bob) == ["hello all", "psst bob"]
        assert texts(cid) == texts(None) == ["hello all"]
        for i in range(5):
            assert say(bob, f"m{i}").status_code == 201
        r = say(bob, "one too many")
        assert r.status_code == 422 and "too fast" in r.json()["detail"]
        assert "one too many" not in texts(bob)
        clock.now += 31
        assert say(bob, "later").status_code == 201
        with client.websocket_connect(f"/api/games/{gid}/table/ws?token={cid}") as ws:
            assert ws.receive_json()["type"] == "table"
            say(ann, "to cid", to=2)
            say(ann, "to everyone")
            got = ws.receive_json()
            assert got == {"type": "talk", "message": got["message"]} and got["message"]["text"] == "to cid"
            assert ws.receive_json()["message"]["text"] == "to everyone"
        # the host ends the game: everything shows to everyone
        assert client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "end"}).status_code == 200
        assert "psst bob" in texts(None)
    with app_client(database, clock) as client:                          # stored
        assert len(texts(None)) == 10


def test_a_game_loaded_from_the_store_reads_its_answers_table_and_talk_on_one_connection(database, clock):
    """A game not in memory is loaded with its table's row and its talk on one connection
    of the store's pool (each connection taken is a checkout and round trips, which queue
    behind one another on a loaded machine), and shows them as stored."""
    import traceback

    from sqlalchemy import event

    with app_client(database, clock) as client:
        made = create(client, table={"talk": "full", "clock": {"kind": "turn", "minutes": 60}})
        gid, ann = made["id"], made["seats"][0]["token"]
        assert client.post(f"/api/games/{gid}/talk", headers=bearer(ann), json={"text": "hello all"}).status_code == 201
    with app_client(database, clock) as client:
        taken: list[str] = []

        def checked_out(*_) -> None:  # by the game's load (not by the deadlines' first look)
            taken.extend(f.name for f in traceback.extract_stack() if f.name in ("_read", "load", "get_table", "messages"))

        event.listen(client.app.state.server.store.engine, "checkout", checked_out)
        assert client.get(f"/api/games/{gid}", headers=bearer(ann)).status_code == 200
        assert len(taken) == 1, taken
        shown = table(client, gid, ann)
        assert [m["text"] for m in shown["messages"]] == ["hello all"] and shown["clock"]["kind"] == "turn"


def test_public_only_and_no_talk(client):
    made = create(client, table={"talk": "public"})
    gid, tok = made["id"], made["seats"][0]["token"]
    r = client.post(f"/api/games/{gid}/talk", headers=bearer(tok), json={"text": "hi", "to": 1})
    assert r.status_code == 422 and "everyone only" in r.json()["detail"]
    made = create(client, table={"talk": "none"})
    r = client.post(f"/api/games/{made['id']}/talk", headers=bearer(made["seats"][0]["token"]), json={"text": "hi"})
    assert r.status_code == 403


def test_a_reissued_link_replaces_the_old_and_an_ended_game_takes_no_answer(database, clock):
    with app_client(database, clock) as client:
        made = create(client)
        gid, host = made["id"], made["host"]
        old = made["seats"][0]["token"]
        r = client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "reissue", "seat": 5})
        assert r.status_code == 422
        with client.websocket_connect(f"/api/games/{gid}/ws?token={old}") as ws:   # the old link's page
            ws.receive_text()
            r = client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "reissue", "seat": 0})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_text()
            assert closed.value.code == 4403
        new = r.json()["token"]
        assert client.get(f"/api/games/{gid}", headers=bearer(old)).status_code == 403
        assert client.get(f"/api/games/{gid}", headers=bearer(new)).json()["seat"] == 0
    with app_client(database, clock) as client:                          # stored
        assert client.get(f"/api/games/{gid}", headers=bearer(old)).status_code == 403
        st = settled(client, gid, new)
        seat = st["awaiting"][0]
        tok = new if seat == 0 else made["seats"][1]["token"]
        mine = settled(client, gid, tok)                                 # its page, asked before the end
        assert client.post(f"/api/games/{gid}/host", headers=bearer(host), json={"action": "end"}).status_code == 200
        assert settled(client, gid, tok)["pending"] == []
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                        json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
        assert r.status_code == 403 and "ended" in r.json()["detail"]
        assert table(client, gid)["ended"] is True


def test_a_rematch_keeps_the_tables_clock_and_talk(client):
    """The results panel's rematch (server/story.py) makes the new game with the old
    game's table settings."""
    made = create(client, seats=("human", "random"), table={"clock": {"kind": "turn", "minutes": 5}, "talk": "public"})
    gid, tok = made["id"], made["seats"][0]["token"]
    end = time.monotonic() + 120
    while not settled(client, gid)["over"]:
        assert time.monotonic() < end, "the game did not end in 120 s of playing its first options"
        mine = settled(client, gid, tok)
        if mine["pending"]:
            client.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                        json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]})
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(tok))
    assert r.status_code == 201, r.text
    new = table(client, r.json()["id"], r.json()["token"])
    assert new["clock"]["kind"] == "turn" and new["clock"]["minutes"] == 5 and new["talk"] == "public"


def test_the_tables_are_made_in_the_store(tmp_path):
    Store(str(tmp_path / "r.db")).close()
    from sqlalchemy import create_engine, inspect
    names = set(inspect(create_engine(f"sqlite:///{tmp_path / 'r.db'}")).get_table_names())
    assert {"tables", "talk", "outbox"} <= names


def test_a_turn_ended_in_time_is_no_miss_though_the_watcher_looks_after_its_deadline(database, clock):
    """The person ends the turn a second before the deadline; the watcher's next look
    comes two seconds later: no answer is given for the seat and no miss counted."""
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 60}})
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        look(client, gid)
        st = settled(client, gid)
        seat = st["awaiting"][0]
        clock.now += 3599
        mine = settled(client, gid, tokens[seat])
        r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                        json={"key": "end", "version": mine["version"]})
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        clock.now += 2
        look(client, gid)
        t = table(client, gid)
        assert t["clock"]["seats"][seat]["misses"] == 0 and t["stand_ins"] == []
        assert settled(client, gid)["version"] == version
        assert t["clock"]["seats"][1 - seat]["left"] == 3598.0            # the other's turn began at the answer


def _shortest(game) -> dict:
    """The options of ``game``'s shortest game: each option counting turns at its least."""
    return {o.name: o.min for o in game.schema if "turn" in o.name and getattr(o, "min", None) is not None}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(games()))
def test_a_clock_game_of_every_game_ends_when_its_people_stop_answering(tmp_path, game_id):
    """Every game: all its seats people who never answer; a turn's minute runs out twice a
    seat, the default bots take every seat and finish the game, and the record (with who
    played for whom) replays to the same result."""
    game, clock = get_game(game_id), Clock()
    with app_client(str(tmp_path / "realms.db"), clock) as client:
        made = create(client, game=game_id, seats=["human"] * game.min_players, options=_shortest(game),
                      table={"clock": {"kind": "turn", "minutes": 1, "misses": 2}})
        gid = made["id"]
        for _ in range(20 * game.min_players):
            if len(table(client, gid)["bots"]) == game.min_players or settled(client, gid)["over"]:
                break
            look(client, gid)
            clock.now += 60
            look(client, gid)
        end = time.monotonic() + 600
        while not (st := client.get(f"/api/games/{gid}").json())["over"]:
            assert time.monotonic() < end, f"{game_id}: the bots did not finish the game in 600 s"
            time.sleep(0.1)
        record = client.get(f"/api/games/{gid}/record").json()
        assert record["stand_ins"]
        assert game.replay(Record.from_json(record)).result() == st["result"]


def test_a_restarted_server_finds_a_clock_game_nobody_opened_and_ends_its_turn_on_time(database, clock):
    """The turn began before the restart; the restarted server's watcher loads the game
    (nobody opened it), leaves the turn alone until its instant, then plays it for the
    silent seat."""
    with app_client(database, clock) as client:
        made = create(client, table={"clock": {"kind": "turn", "minutes": 60}})
        gid = made["id"]
        look(client, gid)
        seat = settled(client, gid)["awaiting"][0]
    clock.now += 3000
    with app_client(database, clock) as client:
        server = client.app.state.server
        assert gid not in server.live
        client.portal.call(client.app.state.tables.look)
        assert gid in server.live
        look(client)
        assert server.live[gid].version == 0 and server.live[gid].table.clock.left(seat, clock()) == 600.0
        clock.now += 600
        look(client)
        assert server.live[gid].version > 0
        assert table(client, gid)["stand_ins"][0]["seat"] == seat


def test_a_message_posted_here_and_read_as_another_processs_is_pushed_once_and_in_turn():
    """host.Tables.tell, heard: a process posts message 1 while message 0 (another
    process's) is not yet heard; the read that follows brings both.  Each socket is pushed
    0 once and 1 once, the read's copy of 1 not again; kept messages follow the store's."""
    import asyncio
    from types import SimpleNamespace

    from realms.core.clock import ClockSpec, TableClock
    from realms.server.host import Table, Tables

    pushed: list[int] = []

    class Tabled(Tables):
        def __init__(self) -> None:
            pass

        async def push(self, live, message=None) -> None:
            pushed.append(message["n"])

    t = Table({"clock": ClockSpec().to_json(), "talk": "full"}, "", TableClock.new(ClockSpec(), 2))
    live, tables = SimpleNamespace(table=t), Tabled()
    m0, m1 = ({"n": n, "at": 0.0, "seat": n, "to": None, "text": f"m{n}"} for n in (0, 1))
    t.messages = [m0, m1]  # the post read the store (0 in it), numbered and kept 1
    assert tables.tell(t, 1) and (t.told, t.ahead) == (0, {1})  # posted: pushed by its post
    pushed.append(1)
    asyncio.run(tables.heard(live, [m0, m1]))  # another process's 0 heard: the talk read from 0
    assert pushed == [1, 0] and (t.told, t.ahead) == (2, set())
    asyncio.run(tables.heard(live, [m0, m1]))  # read again: nothing new
    assert pushed == [1, 0] and t.messages == [m0, m1]
    t.messages = []  # a copy behind the store's: the messages read are kept in turn
    asyncio.run(tables.heard(live, [m0, m1]))
    assert t.messages == [m0, m1] and pushed == [1, 0]
