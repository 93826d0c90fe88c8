"""Several ``realms serve`` processes on one PostgreSQL database (``server/cluster.py``),
each a real process on a loopback port: any of them takes any answer, a second answer to
one version through another process is refused (409), never a fork; a push made through
one process reaches a page watching through another; a killed owner's games are taken
over and their bots move again; a lost listening connection catches up once back; three
processes racing for every deadline end each round once.

Every wait is on a condition, bounded, and says what it waited for."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from .clocked_serve import DEADLINE, T0, deadline_ends, set_clock, silent_brittania
from .conftest import PG, drop_database, fresh_database
from .test_durability import free_port, wait_for

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not PG, reason="needs REALMS_TEST_POSTGRES=postgresql://…")]

WAIT = 90.0
#: answers in a row the person of ``_person_and_three_bots``'s game gives before a bot is
#: awaited, at most: one in most deals; in 16 of 300 (its seed is drawn) its entry sea is
#: followed by its own moves, 21 answers of the first option
MAX_OWN_ANSWERS = 100
#: a cluster's process with a clock the test moves (``clocked_serve.py``)
CLOCKED = Path(__file__).with_name("clocked_serve.py")


def _wait(what: str, ok, seconds: float = WAIT, every: float = 0.05):
    return wait_for(what, ok, seconds, every)


class Process:
    """One ``realms serve`` on a loopback port, in a process group of its own."""

    def __init__(self, database: str, log: Path, clocked: list[str] | None = None) -> None:
        """``clocked``: ``clocked_serve.py``'s options (a clock the test moves, ``--race``),
        in place of ``realms serve``'s wall clock."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        command = (["-m", "realms.server"] if clocked is None else [str(CLOCKED), *clocked])
        with open(log, "ab") as err:
            self.proc = subprocess.Popen([sys.executable, *command, "--port", str(self.port),
                                          "--database", database, "--log-level", "info"],
                                         stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        self.health = _wait(f"process {self.port}'s health", self._health)

    def _health(self) -> dict | None:
        if self.proc.poll() is not None:
            pytest.fail(f"the server exited: {self.log.read_text()[-3000:]}")
        try:
            r = httpx.get(self.url + "/api/health", timeout=2)
            return r.json() if r.status_code == 200 and r.json().get("listening") else None
        except httpx.HTTPError:
            return None

    def stop(self) -> None:
        """SIGTERM, as a host stops a process to restart it: it hands its leases back."""
        self.proc.terminate()
        try:
            self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"process {self.port} did not stop on SIGTERM within {WAIT} s: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(30)


@pytest.fixture
def cluster(tmp_path):
    """``start()`` another process on one fresh PostgreSQL database; all killed after."""
    database = fresh_database("postgresql", tmp_path)
    started: list[Process] = []

    def start(clocked: list[str] | None = None) -> Process:
        p = Process(database, tmp_path / f"serve-{len(started)}.log", clocked)
        started.append(p)
        return p

    start.database = database
    yield start
    for p in started:
        p.kill()
    drop_database(database)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(url: str, seats=("human", "auto", "auto", "auto"), turns: int = 2) -> tuple[str, str]:
    r = httpx.post(url + "/api/games", json={"game": "hy-breasil", "options": {"turns": turns},
                                             "seats": list(seats)}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def awaiting_person(url: str, gid: str, tok: str) -> dict:
    """The state through ``url`` once seat 0 (a person) is to answer (the bots have played)."""
    def ready():
        s = httpx.get(f"{url}/api/games/{gid}", headers=bearer(tok), timeout=30).json()
        return s if s["pending"] else None

    return _wait(f"game {gid} to await its person through {url}", ready)


def answer(url: str, gid: str, tok: str, state: dict, choice: int = 0) -> httpx.Response:
    options = state["pending"][0]["options"]
    return httpx.post(f"{url}/api/games/{gid}/answers", headers=bearer(tok), timeout=60,
                      json={"key": options[min(choice, len(options) - 1)]["key"], "version": state["version"]})


def stored_answers(database: str, gid: str) -> int:
    from sqlalchemy import create_engine, text

    from realms.server.store import database_url

    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM answers WHERE game_id = :g"), {"g": gid}).scalar()
    finally:
        engine.dispose()


def test_two_answers_for_one_version_through_two_processes_one_200_one_409(cluster):
    a, b = cluster(), cluster()
    gid, tok = create(a.url)
    state = awaiting_person(a.url, gid, tok)
    assert awaiting_person(b.url, gid, tok)["version"] == state["version"]  # both hold the game now
    results: list[httpx.Response] = []
    go = threading.Barrier(2)

    keys: list[str] = []
    lock = threading.Lock()

    def send(url: str, choice: int) -> None:
        options = state["pending"][0]["options"]
        key = options[min(choice, len(options) - 1)]["key"]
        go.wait()
        r = answer(url, gid, tok, state, choice)
        with lock:
            results.append(r)
            keys.append(key)

    threads = [threading.Thread(target=send, args=(a.url, 0)), threading.Thread(target=send, args=(b.url, 1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    codes = sorted(r.status_code for r in results)
    assert codes == [200, 409], [r.text for r in results]
    won = next(r for r in results if r.status_code == 200).json()
    # both processes show the one game the winner made, and the record has no fork
    for url in (a.url, b.url):
        _wait(f"{url} to show the answer taken",
              lambda: httpx.get(f"{url}/api/games/{gid}", headers=bearer(tok), timeout=60).json()["version"] >= won["version"])
    # the bots play on after the answer, so the two processes agree once both are at rest
    def one_record():
        records = [httpx.get(f"{url}/api/games/{gid}/record", headers=bearer(tok), timeout=30).json()
                   for url in (a.url, b.url)]
        return records[0] if records[0] == records[1] else None

    record = _wait("both processes to show one record", one_record)
    sent = {r.status_code: key for r, key in zip(results, keys)}
    assert [0, sent[200]] in record["answers"]


def test_a_push_from_an_answer_through_one_process_reaches_a_page_on_another(cluster):
    from websockets.sync.client import connect

    a, b = cluster(), cluster()
    gid, tok = create(a.url)
    state = awaiting_person(a.url, gid, tok)
    with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws", open_timeout=30) as page:  # a spectator on b
        assert json.loads(page.recv(timeout=30))["version"] == state["version"]
        r = answer(a.url, gid, tok, state)
        assert r.status_code == 200, r.text
        seen = [json.loads(page.recv(timeout=WAIT))["version"]]
        while seen[-1] < r.json()["version"]:
            seen.append(json.loads(page.recv(timeout=WAIT))["version"])
        assert r.json()["version"] in seen


def test_a_killed_owners_games_are_taken_over_and_their_bots_move_again(cluster):
    a, b = cluster(), cluster()
    gid, tok = create(a.url)
    state = awaiting_person(a.url, gid, tok)
    assert gid in _held(cluster.database, a.health["process"])
    a.kill()
    # the person answers through b (as often as the game asks); only the game's owner
    # plays its bots, and a is dead: b takes the game over and its bots answer again
    killed_at = state["version"]

    def bots_moved() -> bool:
        if bot_answers_since(cluster.database, gid, killed_at):
            return True
        s = httpx.get(f"{b.url}/api/games/{gid}", headers=bearer(tok), timeout=30).json()
        if s["pending"]:
            assert answer(b.url, gid, tok, s).status_code in (200, 409)  # 409: a state just gone
        return False

    _wait("a bot's answer stored after its owner's death", bots_moved, every=0.2)
    assert gid in _held(cluster.database, b.health["process"])
    after = awaiting_person(b.url, gid, tok)
    assert stored_answers(cluster.database, gid) >= after["version"] > killed_at


def bot_answers_since(database: str, gid: str, n: int) -> int:
    """The answers of seats other than seat 0 (the person) stored from number ``n`` on."""
    from sqlalchemy import create_engine, text

    from realms.server.store import database_url

    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM answers WHERE game_id = :g AND n >= :n AND player <> 0"),
                                {"g": gid, "n": n}).scalar()
    finally:
        engine.dispose()


def _report(database: str) -> str:
    return subprocess.run([sys.executable, "-m", "realms.server", "--check", "--database", database],
                          capture_output=True, text=True, timeout=60).stdout


def _held(database: str, process: str) -> list[str]:
    """The games ``realms serve --check`` says ``process`` holds (waited for)."""
    def look():
        out = subprocess.run([sys.executable, "-m", "realms.server", "--check", "--database", database],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        line = next((ln for ln in out.stdout.splitlines() if ln.startswith(process)), "")
        return line.split("games: ", 1)[1].split() if "games: " in line else None

    return _wait(f"--check to show the games {process} holds", look)


def test_a_lost_listening_connection_reconnects_and_catches_up(cluster):
    from sqlalchemy import create_engine, text
    from websockets.sync.client import connect

    from realms.server.store import database_url

    a, b = cluster(), cluster()
    gid, tok = create(a.url)
    state = awaiting_person(a.url, gid, tok)
    engine = create_engine(database_url(cluster.database), isolation_level="AUTOCOMMIT")
    with connect(f"ws://127.0.0.1:{b.port}/api/games/{gid}/ws", open_timeout=30) as page, engine.connect() as conn:
        assert json.loads(page.recv(timeout=30))["version"] == state["version"]
        # b stopped while its listening connection is ended and the answer is made: the
        # answer's notification cannot reach it; once running again it reconnects, catches up
        os.kill(b.proc.pid, signal.SIGSTOP)
        try:
            ended = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE application_name = :n"),
                                 {"n": f"realms-listen {b.health['process']}"[:63]}).scalars().all()
            assert ended == [True]
            _wait("b's listening connection to end", lambda: not conn.execute(text(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = :n"),
                {"n": f"realms-listen {b.health['process']}"[:63]}).first())
            r = answer(a.url, gid, tok, state)
            assert r.status_code == 200, r.text
        finally:
            os.kill(b.proc.pid, signal.SIGCONT)
        seen = [json.loads(page.recv(timeout=WAIT))["version"]]
        while seen[-1] < r.json()["version"]:
            seen.append(json.loads(page.recv(timeout=WAIT))["version"])
    engine.dispose()
    assert _wait("b's health to count the reconnect",
                 lambda: httpx.get(b.url + "/api/health", timeout=60).json()["reconnects"] >= 1)


def _take_overs_noted(cluster) -> set[str]:
    """The games whose take-over's catch-up ``cluster`` has finished, filled as each ends."""
    caught: set[str] = set()
    catch_up = cluster.catch_up

    async def noted(game_id: str, full: bool = False, load: bool = False):
        out = await catch_up(game_id, full, load)
        if full:
            caught.add(game_id)
        return out

    cluster.catch_up = noted
    return caught


def _die(client, games: list[str]) -> None:
    """The app of ``client`` dies as a killed process would for ``games``: its renewals
    stop, it owns nothing, and the games' leases are already expired."""
    from sqlalchemy import text

    dead = client.app.state.server.cluster

    def die() -> None:
        for task in dead.tasks:
            task.cancel()
        dead.owned = set()

    client.portal.call(die)
    with dead.store.engine.begin() as conn:
        conn.execute(text("UPDATE realms_leases SET expires = 0 WHERE game_id = ANY(:g)"), {"g": games})


def _person_and_three_bots(client) -> tuple[str, str]:
    """A two-turn Hy Breasil game of a person and three ``auto`` made through ``client``
    (an app's test client): its id and the person's token."""
    r = client.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                        "seats": ["human", "auto", "auto", "auto"]})
    return r.json()["id"], r.json()["seats"][0]["token"]


def test_an_answer_made_on_a_stale_copy_meets_the_moved_head_and_forks_nothing(tmp_path):
    """Two apps of a cluster in this process, the second deaf (its listener stopped) so its
    copy of the game stays at the version both saw: its answer passes its own version check
    and is refused by the head's check in the database's transaction."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            gid, tok = _person_and_three_bots(a)
            state = _wait("the person awaited", lambda: (s := a.get(f"/api/games/{gid}", headers=bearer(tok)).json())
                          ["pending"] and s)
            assert b.get(f"/api/games/{gid}", headers=bearer(tok)).json()["version"] == state["version"]
            deaf = b.app.state.server.cluster
            b.portal.call(lambda: deaf.tasks[1].cancel())
            options = state["pending"][0]["options"]
            first = a.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                           json={"key": options[0]["key"], "version": state["version"]})
            assert first.status_code == 200, first.text
            assert b.app.state.server.live[gid].version == state["version"]  # b's copy is stale
            second = b.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                            json={"key": options[-1]["key"], "version": state["version"]})
            assert second.status_code == 409, second.text
            # b now holds the game as stored, a's answer in it, not its own (a's bots may
            # have played on since)
            n = state["version"] + 1
            kept = b.get(f"/api/games/{gid}/record", headers=bearer(tok)).json()["answers"]
            assert kept[:n] == a.get(f"/api/games/{gid}/record", headers=bearer(tok)).json()["answers"][:n]
            assert len(kept) >= n
        assert stored_answers(database, gid) >= first.json()["version"]
    finally:
        drop_database(database)


def test_a_notification_carries_the_answers_written_and_one_too_long_for_them_is_read(tmp_path, monkeypatch):
    """Two apps of a cluster in this process, b holding a game of four people answered
    through a: a's answers reach b's copy from their notifications, with no read of the
    database; once a notification has no room for them (``NOTE_BYTES``), b reads them
    instead.  Either way b ends with a's record."""
    from fastapi.testclient import TestClient

    from realms.server import cluster as cluster_module
    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            r = a.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human"] * 4})
            gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]

            def answered() -> int:
                """One answer of whoever is asked, through a: the version after it."""
                seat = a.get(f"/api/games/{gid}").json()["awaiting"][0]
                state = a.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
                options = state["pending"][0]["options"]
                r = a.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                           json={"key": options[0]["key"], "version": state["version"]})
                assert r.status_code == 200, r.text
                return r.json()["version"]

            def b_at(version: int) -> bool:
                live = b.app.state.server.live.get(gid)
                return live is not None and live.version >= version

            b.get(f"/api/games/{gid}")  # b holds the game from now
            far = b.app.state.server.cluster
            reads = far.reads
            for _ in range(3):
                v = answered()
                _wait(f"b's copy at a's version {v}", lambda: b_at(v))
            assert far.carried >= 1 and far.reads == reads, (far.carried, far.reads)

            monkeypatch.setattr(cluster_module, "NOTE_BYTES", 0)
            carried = far.carried
            v = answered()
            _wait(f"b's copy at a's version {v}, read", lambda: b_at(v))
            assert far.reads > reads and far.carried == carried, (far.carried, far.reads)
            records = [c.get(f"/api/games/{gid}/record").json()["answers"] for c in (a, b)]
            assert records[1] == records[0] and len(records[0]) == v
    finally:
        drop_database(database)


def test_a_note_carries_answers_only_within_note_bytes(tmp_path):
    """A notification names the head, the writer and, when the whole fits in
    ``NOTE_BYTES`` (PostgreSQL refuses 8,000 bytes), the answers; past it, the head only."""
    from realms.server.cluster import NOTE_BYTES, Cluster

    far = Cluster.__new__(Cluster)
    far.id = "host:1:abc"
    short = far._note("g1", 12, 5, 1, (10, [(0, "a b"), (2, "c")]))
    assert short == 'g1 12 5 1 host:1:abc 10 [[0,"a b"],[2,"c"]]'
    long = far._note("g1", 11, 5, 1, (10, [(0, "k" * NOTE_BYTES)]))
    assert long == "g1 11 5 1 host:1:abc"
    assert far._note("g1", 9, 5, 2, None) == "g1 9 5 2 host:1:abc"  # an undo: read


def _people_game(client) -> tuple[str, list[str]]:
    """A two-turn Hy Breasil game of four people made through ``client`` (an app's test
    client; no bots, so each answer is one write): its id and the seats' tokens."""
    r = client.post("/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human"] * 4})
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def _answered(client, gid: str, tokens: list[str]) -> int:
    """One answer of whoever is asked in a game of people, through ``client``: the
    version after it."""
    seat = client.get(f"/api/games/{gid}").json()["awaiting"][0]
    state = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
    r = client.post(f"/api/games/{gid}/answers", headers=bearer(tokens[seat]),
                    json={"key": state["pending"][0]["options"][0]["key"], "version": state["version"]})
    assert r.status_code == 200, r.text
    return r.json()["version"]


def _at(client, gid: str, version: int) -> bool:
    live = client.app.state.server.live.get(gid)
    return live is not None and live.version >= version


def test_a_process_hears_only_the_games_it_holds_and_a_game_from_when_a_page_asks_for_it(tmp_path):
    """Two apps of a cluster in this process; two games of people made and answered
    through a.  b, holding one of them, hears its writes and not one of the other's, whose
    channel it does not listen to (the notifications of one writer reach a listener in
    commit order: once b has the held game's later write, it would have had the other's).
    Once a page asks b for the other game, b listens to it and its copy follows a's
    answers; once the game leaves b's memory, b unlistens it and hears it no more."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            (held, held_tokens), (other, other_tokens) = _people_game(a), _people_game(a)
            far = b.app.state.server.cluster
            b.get(f"/api/games/{held}")
            _wait("b to listen to the game it holds", lambda: held in far.listened)
            assert other not in far.listened
            heard = far.heard

            def both_answered() -> None:
                """An answer to the other game, then one to the held game, through a; b's
                copy of the held game caught up."""
                _answered(a, other, other_tokens)
                v = _answered(a, held, held_tokens)
                _wait(f"b's copy of the held game at version {v}", lambda: _at(b, held, v))

            both_answered()
            assert far.heard == heard + 1  # the held game's write only

            b.get(f"/api/games/{other}")  # a page asks b for the other game
            _wait("b to listen to the game a page asked for", lambda: other in far.listened)
            v = _answered(a, other, other_tokens)
            _wait(f"b's copy of the other game at a's version {v}", lambda: _at(b, other, v))
            assert far.heard == heard + 2

            b.portal.call(lambda: b.app.state.server.live.pop(other))  # as a finished game leaves memory
            _wait("b to unlisten the game gone from its memory", lambda: other not in far.listened)
            both_answered()
            assert far.heard == heard + 3
            assert other not in b.app.state.server.live
    finally:
        drop_database(database)


def test_a_write_made_before_a_game_is_listened_to_is_caught_up_once_it_is(tmp_path, monkeypatch):
    """b puts a game in memory while its listener is kept from listening to it; a's answer
    then reaches nobody in b.  Once b listens to the game, the head it finds moved past its
    copy is caught up (a write committed before the ``LISTEN`` is never notified to it)."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            (gid, tokens), (held, held_tokens) = _people_game(a), _people_game(a)
            far = b.app.state.server.cluster
            wanted = far._wanted
            monkeypatch.setattr(far, "_wanted", lambda: wanted() - {gid})
            b.get(f"/api/games/{held}")
            before = b.get(f"/api/games/{gid}").json()["version"]
            _wait("b to listen to the held game", lambda: held in far.listened)
            v = _answered(a, gid, tokens)
            w = _answered(a, held, held_tokens)
            _wait(f"b's copy of the held game at version {w}", lambda: _at(b, held, w))
            assert gid not in far.listened and b.app.state.server.live[gid].version == before < v

            monkeypatch.setattr(far, "_wanted", wanted)
            b.portal.call(far._changed.set)
            _wait("b to listen to the game", lambda: gid in far.listened)
            _wait(f"b's copy caught up to a's version {v}", lambda: _at(b, gid, v))
    finally:
        drop_database(database)


def test_workers_start_processes_on_one_port_that_check_lists_and_a_dead_one_is_started_again(cluster, tmp_path):
    port = free_port()
    with open(tmp_path / "workers.log", "wb") as err:
        parent = subprocess.Popen([sys.executable, "-m", "realms.server", "--port", str(port), "--workers", "2",
                                   "--database", cluster.database], stdout=subprocess.DEVNULL, stderr=err,
                                  start_new_session=True)
    try:
        def processes() -> list[str] | None:
            out = subprocess.run([sys.executable, "-m", "realms.server", "--check", "--database", cluster.database],
                                 capture_output=True, text=True, timeout=60)
            ids = [ln.split(" at ", 1)[0] for ln in out.stdout.splitlines() if " at 127.0.0.1:" in ln]
            return ids if len(ids) == 2 else None

        first = _wait("--check to list the two processes", processes)
        # any of them answers: a game made through the one port is there for both
        gid, tok = create(f"http://127.0.0.1:{port}")
        awaiting_person(f"http://127.0.0.1:{port}", gid, tok)
        victim = int(first[0].split(":")[1])
        os.kill(victim, signal.SIGKILL)
        again = _wait("a new process in the dead one's place",
                      lambda: (ids := processes()) and first[0] not in ids and ids)
        assert first[1] in again
    finally:
        os.killpg(parent.pid, signal.SIGTERM)
        try:
            parent.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.wait(30)


#: the games and the rounds of each the racing processes end
RACE_GAMES, RACE_ROUNDS = 3, 7


def test_three_processes_racing_for_every_deadline_end_each_round_once(cluster, tmp_path):
    """Three processes each end every round whose deadline they see passed (``--race``:
    each acts as every game's owner, as all would if the leases failed: the head's check
    alone stands between them).  The clock moves one deadline on only once all three show
    every game's round begun, so all three race for each end.  Each move ends exactly one
    round of each game, recorded once (by whichever process won), and the rounds' answers
    tile the record: no round ended twice, none early, none lost."""
    clock = tmp_path / "clock"
    now = T0
    set_clock(clock, now)
    procs = [cluster(["--clock-file", str(clock), "--race", "--sweep-every", "0.1"]) for _ in range(3)]
    games = [silent_brittania(procs[i % 3].url, RACE_ROUNDS + 2) for i in range(RACE_GAMES)]

    def begun(at: float) -> bool:
        return all(httpx.get(f"{p.url}/api/games/{gid}", headers=bearer(tok), timeout=30).json()["deadline"]["at"]
                   == at + DEADLINE for p in procs for gid, tok in games)

    for k in range(1, RACE_ROUNDS + 1):
        _wait(f"every process to show every game's round {k} begun at {now}", lambda: begun(now), every=0.2)
        now += DEADLINE
        set_clock(clock, now)
        _wait(f"round {k} of every game ended", every=0.2,
              ok=lambda: all(len(deadline_ends(cluster.database, gid)) >= k for gid, _ in games))
    _wait("every process at rest, the round after the last begun", lambda: begun(now), every=0.2)
    for gid, _ in games:
        ends = deadline_ends(cluster.database, gid)
        assert [r for r, *_ in ends] == [str(t) for t in range(1, RACE_ROUNDS + 1)], ends
        for (_, n, given, _), (_, after, _, _) in zip(ends, ends[1:]):
            assert after == n + given, ends  # each round's answers follow the last's: none given twice
        assert ends[-1][1] + ends[-1][2] == stored_answers(cluster.database, gid)


#: a deal whose game outlasts the rolling restart: a person who sends no orders loses to
#: the random bot's Empire after 26 to 57 of his answers in 300 deals (the test gives about
#: 20); in this one after 51, whichever version his few other answers are chosen by
LONG_DEAL = 254


def brittania(url: str) -> tuple[str, str]:
    """A Brittania game of a person and a bot made through ``url`` (its id, the person's
    token): each turn the person's orders, then the bot's."""
    r = httpx.post(url + "/api/games", json={"game": "brittania", "options": {"turns": 100}, "seed": LONG_DEAL,
                                             "seats": ["human", "random"]}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def unstored(acked: dict, stored: list) -> dict:
    """The acknowledged answers (``acked``: the version each was sent at → its key) not in
    the record ``stored`` as seat 0's, in order, each at or after the version it was sent
    at: a simultaneous round takes an answer sent at an earlier version when the seat's
    decision is unchanged, so a bot's answer of that round may be stored before it."""
    lost, at = {}, 0
    for n, key in sorted(acked.items()):
        at = max(at, n)
        while at < len(stored) and stored[at] != (0, key):
            at += 1
        if at >= len(stored):
            lost[n] = key
        else:
            at += 1
    return lost


class Players(threading.Thread):
    """The person of each game answering on and on through the processes in ``urls`` (the
    test changes the list as it stops and starts them), each answer through the next: every
    200 noted as acknowledged, ``acked[game][answer number] = key``; a refused connection
    (a process stopping) or a 409 (a state just gone) is asked again.  A person sends
    his orders as soon as asked (``done``), so that the bots' turns come often."""

    def __init__(self, urls: list[str], games: list[tuple[str, str]]) -> None:
        super().__init__(daemon=True)
        self.urls, self.games = urls, games
        self.acked: dict[str, dict[int, str]] = {gid: {} for gid, _ in games}
        self.unexpected: list[str] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def run(self) -> None:
        turn = 0
        while not self.stopping.is_set():
            for gid, tok in self.games:
                turn += 1
                url = self.urls[turn % len(self.urls)]
                try:
                    s = httpx.get(f"{url}/api/games/{gid}", headers=bearer(tok), timeout=30).json()
                    if not s["pending"]:
                        continue
                    keys = [o["key"] for o in s["pending"][0]["options"]]
                    key = "done" if "done" in keys else keys[(s["version"] * 7) % len(keys)]
                    r = httpx.post(f"{url}/api/games/{gid}/answers", headers=bearer(tok), timeout=30,
                                   json={"key": key, "version": s["version"]})
                except httpx.HTTPError:
                    continue
                with self.lock:
                    if r.status_code == 200:
                        self.acked[gid][s["version"]] = key
                    elif r.status_code != 409:
                        self.unexpected.append(f"{r.status_code} {r.text[:200]}")
            time.sleep(0.02)

    def counts(self) -> dict[str, int]:
        with self.lock:
            return {gid: len(a) for gid, a in self.acked.items()}


def test_a_rolling_restart_loses_no_acknowledged_answer_and_every_game_moves_on(cluster):
    """Two processes, the people of three games (each a person and a bot) answering through both all along: one is
    stopped (SIGTERM: its leases handed back), started again, then the other stopped.
    After each step every game moves on (its person's answers taken, its bots playing, now
    owned elsewhere), and at the end every answer acknowledged is in the record, as sent."""
    a, b = cluster(), cluster()
    games = [brittania(p.url) for p in (a, b, a)]
    players = Players([a.url, b.url], games)

    def moves_on(step: str) -> None:
        acked = players.counts()
        stored = {gid: stored_answers(cluster.database, gid) for gid, _ in games}
        def moved() -> dict:
            return {gid: (players.counts()[gid] - acked[gid], bot_answers_since(cluster.database, gid, stored[gid]))
                    for gid, _ in games}

        try:
            _wait(f"every game to move on {step} (two answers of its person taken, one of its bot stored)",
                  lambda: all(person >= 2 and bots for person, bots in moved().values()), 2 * WAIT, every=0.2)
        except pytest.fail.Exception as exc:
            states = {gid: [httpx.get(f"{u}/api/games/{gid}", headers=bearer(tok), timeout=30).json()
                            for u in players.urls] for gid, tok in games}
            seen = {gid: [(s["version"], s["over"], len(s["pending"])) for s in st]
                    for gid, st in states.items()}
            pytest.fail(f"{exc}; (person answers, bot answers) since: {moved()}; (version, over, pending) "
                        f"through each process: {seen}; --check: {_report(cluster.database)}")

    players.start()
    try:
        moves_on("on both processes")
        a.stop()
        players.urls = [b.url]
        moves_on("with the first process stopped")
        again = cluster()
        players.urls = [b.url, again.url]
        moves_on("with the first process started again")
        b.stop()
        players.urls = [again.url]
        moves_on("with the second process stopped")
    finally:
        players.stopping.set()
        players.join(WAIT)
    assert not players.unexpected, players.unexpected
    for gid, tok in games:
        stored = stored_record(cluster.database, gid)
        lost = unstored(players.acked[gid], stored)
        assert not lost, f"game {gid}: acknowledged answers not in the database: {lost}"
        # and the process left shows them (its bots may play on meanwhile)
        def shown(gid: str = gid, tok: str = tok) -> list | None:
            r = httpx.get(f"{again.url}/api/games/{gid}/record", headers=bearer(tok), timeout=30).json()["answers"]
            return r if len(r) > max(players.acked[gid]) else None

        record = _wait(f"{again.url} to show game {gid}'s answers acknowledged", shown)
        assert not unstored(players.acked[gid], [tuple(a) for a in record])


def stored_record(database: str, gid: str) -> list[tuple[int, str]]:
    """A game's answers as stored, (player, key) in order."""
    from sqlalchemy import create_engine, text

    from realms.server.store import database_url

    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            return [(p, k) for p, k in conn.execute(text("SELECT player, key FROM answers WHERE game_id = :g "
                                                         "ORDER BY n"), {"g": gid})]
    finally:
        engine.dispose()


def _processes(database: str, n: int) -> list:
    """``n`` cluster processes' parts in this process (no lease loop: the test ticks)."""
    from realms.server.app import create_app

    return [create_app(database, several=True).state.server.cluster for _ in range(n)]


def _closed(processes: list) -> None:
    for p in processes:
        p._stopped = True
        if p._alive is not None:
            p._alive.close()
        p.store.close()


def _leases(database_process, **expired_ago: float) -> None:
    """Leases of a process that never was (no row, no lock), expired this long ago."""
    from sqlalchemy import text

    from realms.server.cluster import NOW

    with database_process.store.engine.begin() as conn:
        for gid, ago in expired_ago.items():
            conn.execute(text(f"INSERT INTO realms_leases (game_id, owner, expires) VALUES (:g, 'gone', {NOW} - :a)"),
                         {"g": gid, "a": ago})


def test_a_process_not_ready_claims_only_what_nobody_ready_took(tmp_path, monkeypatch):
    """A process not ready (its bots' worker still starting) claims, while a ready one is
    alive, only the leases claimable for ``STARTING_GRACE`` (the ready one is given time:
    the games would wait for the starting worker), and with no ready one alive what any
    claims (before, it claimed nothing, and a cluster whose live processes were all
    starting left a dead one's games stopped for minutes).  A ready process alone has every
    claimable lease for its share.  The renewal and the grace are made hours long, so
    nothing here depends on how fast the test runs."""
    from sqlalchemy import text

    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "LEASE_EVERY", 3600.0)
    monkeypatch.setattr(cluster_module, "STARTING_GRACE", 7200.0)
    database = fresh_database("postgresql", tmp_path)
    a, b = processes = _processes(database, 2)
    try:
        assert b._tick([]) == (set(), set())
        _leases(a, recent=1, older=5000, long_ago=10 ** 6)
        assert a._tick([], claim=False) == ({"long_ago"},) * 2
        assert b._tick([]) == ({"recent", "older"},) * 2  # alone ready: all is its share
        _leases(a, second=5000)
        with a.store.engine.begin() as conn:  # b not seen for an hour: no ready process alive
            conn.execute(text("UPDATE realms_processes SET seen = seen - 3600 WHERE id = :i"), {"i": b.id})
        assert a._tick([], claim=False) == ({"long_ago", "second"}, {"second"})
    finally:
        _closed(processes)
        drop_database(database)


def test_a_process_takes_no_request_before_its_bots_worker_has_started(tmp_path):
    """A cluster's app's start-up, which runs before its port listens, waits for its bots'
    worker (``Cluster.serving``): a page that asked a process whose worker still started
    waited on a machine busy with that start, where the ready processes answer at once.
    Its leases are renewed meanwhile, as a process not ready renews them."""
    from concurrent.futures import Future

    from fastapi.testclient import TestClient

    from realms.server.app import create_app
    from realms.server.botworker import Bots

    database = fresh_database("postgresql", tmp_path)
    bots = Bots()
    bots._started = Future()  # its worker starting
    client = TestClient(create_app(database, several=True, bots=bots))
    server = client.app.state.server
    serving = threading.Event()
    opened: list = []

    def enter() -> None:
        opened.append(client.__enter__())
        serving.set()

    thread = threading.Thread(target=enter, daemon=True)
    thread.start()
    try:
        _wait("the starting process's first renewal", lambda: server.cluster.valid_until > 0)
        assert not serving.is_set() and not server.cluster._ready
        bots._started.set_result(0)
        _wait("the process to serve once its worker started", serving.is_set)
        assert client.get("/api/health").status_code == 200
    finally:
        if not bots._started.done():
            bots._started.set_result(0)
        thread.join(WAIT)
        if opened:
            client.__exit__(None, None, None)
        drop_database(database)


@contextlib.contextmanager
def _two_live(tmp_path, monkeypatch):
    """Two live ready processes on a fresh database, renewing only when told
    (``LEASE_EVERY`` an hour), and eight games whose leases are claimable: (a, b, games)."""
    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "LEASE_EVERY", 3600.0)
    database = fresh_database("postgresql", tmp_path)
    a, b = processes = _processes(database, 2)
    try:
        assert b._tick([]) == (set(), set())
        assert a._tick([]) == (set(), set())
        games = [f"g{i}" for i in range(8)]
        _leases(a, **{g: 1 for g in games})
        yield a, b, games
    finally:
        _closed(processes)
        drop_database(database)


def test_a_dead_processs_games_are_spread_over_the_live_ones(tmp_path, monkeypatch):
    """Claimable leases and two live ready processes: each claims at once its share (the
    games whose id hashes to its place), even of the games in the other's memory, and
    the other's share only ``LEASE_EVERY`` later (made an hour: never here)."""
    from sqlalchemy import text

    with _two_live(tmp_path, monkeypatch) as (a, b, games):
        with a.store.engine.connect() as conn:
            place = dict(conn.execute(text("SELECT g, mod(hashtext(g)::bigint + 2147483648, 2) "
                                           "FROM unnest(CAST(:g AS text[])) AS g"), {"g": games}).all())
        first = 0 if a.id < b.id else 1
        share_a = {g for g in games if place[g] == first}
        assert share_a and share_a != set(games)  # both have a share (these ids hash so)
        theirs = sorted(set(games) - share_a)
        assert a._tick([], mine=[theirs[0]]) == (share_a,) * 2
        assert b._tick([], mine=sorted(share_a)) == (set(theirs),) * 2


def test_a_live_process_renewing_late_keeps_its_share_of_a_dead_ones_games(tmp_path, monkeypatch):
    """A live process last seen past ``LEASE_SECONDS`` ago (busy with a take-over on a
    loaded machine, its renewal late) still counts in the shares: the other claims only
    its own share at once, not every game (which left one process holding all of them at
    the next death)."""
    from sqlalchemy import text

    from realms.server import cluster as cluster_module

    with _two_live(tmp_path, monkeypatch) as (a, b, games):
        with a.store.engine.begin() as conn:  # b's last renewal late
            conn.execute(text("UPDATE realms_processes SET seen = seen - :s WHERE id = :i"),
                         {"s": cluster_module.LEASE_SECONDS * 2, "i": b.id})
        owned, claimed = a._tick([])
        assert claimed and claimed != set(games), claimed


def test_a_dead_processs_leases_are_claimed_before_they_expire(tmp_path, monkeypatch):
    """A process whose connections closed (as a killed process's do) frees its alive
    lock: another claims its games at once, though their leases last an hour, and forgets
    it; while it lives, its leases are its own."""
    from sqlalchemy import text

    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "LEASE_SECONDS", 3600.0)
    database = fresh_database("postgresql", tmp_path)
    a, b = processes = _processes(database, 2)
    try:
        with b.store.engine.begin() as conn:
            b.created(conn, "g1", 0)
        assert b._tick([]) == ({"g1"}, set())
        assert a._tick([]) == (set(), set())  # b lives: its lease holds
        b._stopped = True
        b._alive.close()  # as at b's death

        def claimed() -> bool:  # once the database has ended b's session (and its lock)
            return a._tick([]) == ({"g1"}, {"g1"})

        _wait("a to find b dead and claim its game", claimed)
        with a.store.engine.connect() as conn:
            assert conn.execute(text("SELECT id FROM realms_processes")).scalars().all() == [a.id]
    finally:
        _closed(processes)
        drop_database(database)


def test_a_game_taken_over_by_a_process_holding_it_is_caught_up_not_replayed_and_its_bots_move(tmp_path):
    """Two apps of a cluster in this process; the game's owner ``a`` is made dead (its
    lease loop and listener stopped, its lease expired) while ``b`` holds the game in
    memory: ``b`` claims it, keeps its copy (every answer applied already: no replay of
    the whole record to wait for) and its bots answer the person's next answer."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            gid, tok = _person_and_three_bots(a)
            _wait("the person awaited", lambda: a.get(f"/api/games/{gid}", headers=bearer(tok)).json()["pending"])
            state = b.get(f"/api/games/{gid}", headers=bearer(tok)).json()
            kept = b.app.state.server.live[gid]
            dead, heir = a.app.state.server.cluster, b.app.state.server.cluster
            assert gid in dead.owned and not heir.owns(gid)
            caught = _take_overs_noted(heir)
            _die(a, [gid])
            _wait("b to take the game over", lambda: gid in caught)
            assert heir.owns(gid)
            assert b.app.state.server.live[gid] is kept
            assert kept.table is not None and kept.version == state["version"]
            # the person answers through b as often as the game asks (``MAX_OWN_ANSWERS``:
            # some deals ask it its moves after its entry sea), until a bot is awaited
            answered = state
            for _ in range(MAX_OWN_ANSWERS):
                r = b.post(f"/api/games/{gid}/answers", headers=bearer(tok),
                           json={"key": answered["pending"][0]["options"][0]["key"], "version": answered["version"]})
                assert r.status_code == 200, r.text
                answered = r.json()
                if set(answered["awaiting"]) - {0}:
                    break
                assert answered["pending"], f"the game awaits nobody after the person's answer: {answered['awaiting']}"
            else:
                pytest.fail(f"the person still awaited after {MAX_OWN_ANSWERS} answers in a row")
            _wait("a bot's answer stored after the take-over",
                  lambda: bot_answers_since(database, gid, state["version"] + 1))
    finally:
        drop_database(database)


def test_a_take_over_reads_all_the_games_it_claimed_at_once_not_each_on_its_own(tmp_path):
    """Two apps of a cluster in this process; the owner ``a`` of three games is made dead
    while ``b`` holds one of them in memory: ``b`` claims the three and reads them for the
    take-over in one read (rows, answers, tables and talk of all three; the answers past
    its copy of the one it holds), loading none through the store's one-game read, and
    each ends in its memory at the version ``a`` left it."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            games = [_person_and_three_bots(a) for _ in range(3)]
            states = {gid: _wait(f"game {gid}'s person awaited",
                                 lambda gid=gid, tok=tok: (s := a.get(f"/api/games/{gid}", headers=bearer(tok)).json())
                                 ["pending"] and s)
                      for gid, tok in games}
            held = games[0][0]
            b.get(f"/api/games/{held}", headers=bearer(games[0][1]))
            heir = b.app.state.server.cluster
            server = b.app.state.server
            loads: list[str] = []
            load = server.store.load
            server.store.load = lambda gid, conn=None: loads.append(gid) or load(gid, conn)
            caught = _take_overs_noted(heir)
            _die(a, list(states))
            _wait("b to take the three games over", lambda: caught >= set(states))
            assert loads == []
            assert heir.taken_reads == 1
            for gid, state in states.items():
                assert heir.owns(gid)
                assert server.live[gid].version == state["version"] and server.live[gid].table is not None
    finally:
        drop_database(database)


def test_table_talk_posted_through_two_processes_is_numbered_in_turn_and_read_by_both(tmp_path):
    """Two apps of a cluster in this process, both holding the game: a message posted
    through one, then one through the other, are stored as the game's first and second
    (the second process numbers after what is stored, not after its own copy), and each
    process's table shows both."""
    from fastapi.testclient import TestClient

    from realms.server.app import create_app

    database = fresh_database("postgresql", tmp_path)
    try:
        with TestClient(create_app(database, several=True)) as a, TestClient(create_app(database, several=True)) as b:
            gid, tok = _person_and_three_bots(a)
            assert b.get(f"/api/games/{gid}/table", headers=bearer(tok)).json()["messages"] == []
            posted = []
            for client, text in ((a, "through a"), (b, "through b")):
                r = client.post(f"/api/games/{gid}/talk", headers=bearer(tok), json={"text": text, "to": None})
                assert r.status_code == 201, r.text
                posted.append(r.json()["n"])
            assert posted == [0, 1]
            for client in (a, b):
                shown = client.get(f"/api/games/{gid}/table", headers=bearer(tok)).json()["messages"]
                assert [m["text"] for m in shown] == ["through a", "through b"]
    finally:
        drop_database(database)


def people(url: str) -> tuple[str, list[str]]:
    """A two-turn Hy Breasil game of four people made through ``url``: its id and the
    seats' tokens (table talk ``full``, the default: to everyone and to one seat)."""
    r = httpx.post(url + "/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seats": ["human"] * 4},
                   timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def say(url: str, gid: str, tok: str, text: str, to: int | None = None) -> dict:
    r = httpx.post(f"{url}/api/games/{gid}/talk", headers=bearer(tok), json={"text": text, "to": to}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()


@contextlib.contextmanager
def table_page(port: int, gid: str, tok: str):
    """A table socket of seat ``tok`` on the process at ``port``, its first view read: no
    message yet."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/api/games/{gid}/table/ws?token={tok}", open_timeout=30) as page:
        first = json.loads(page.recv(timeout=30))
        assert first["type"] == "table" and first["messages"] == [], first
        yield page


def pushed(page, what: str, ok) -> dict:
    """The first body pushed to the table socket ``page`` for which ``ok`` holds (the others
    passed over), waited for at most ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            body = json.loads(page.recv(timeout=max(0.0, deadline - time.monotonic())))
        except TimeoutError:
            pytest.fail(f"nothing such pushed within {WAIT} s: waited for {what}")
        if ok(body):
            return body


def pushed_talk(page, what: str) -> dict:
    """The next message pushed to the table socket ``page`` (the table's views passed over)."""
    return pushed(page, what, lambda body: body["type"] == "talk")["message"]


def test_table_talk_posted_through_one_process_is_pushed_to_the_table_sockets_of_another(cluster):
    """host.py's table talk in a cluster (``cluster.Cluster.talked``): a message posted
    through a reaches the table sockets on b with no read of the table in between; one to
    seat 2 only reaches seat 2's socket on b, never seat 1's; the posting process pushes
    its own message once (its own notification is not pushed again), in turn with those
    posted through the other process."""
    a, b = cluster(), cluster()
    gid, toks = people(a.url)
    with table_page(b.port, gid, toks[1]) as one_b, table_page(b.port, gid, toks[2]) as two_b, \
            table_page(a.port, gid, toks[0]) as zero_a:
        say(a.url, gid, toks[0], "to everyone, through a")
        for page, who in ((one_b, "seat 1 on b"), (two_b, "seat 2 on b"), (zero_a, "seat 0 on a")):
            got = pushed_talk(page, f"message 0 on {who}")
            assert (got["n"], got["text"]) == (0, "to everyone, through a"), who
        say(a.url, gid, toks[0], "to seat 2 only, through a", to=2)
        say(a.url, gid, toks[0], "to everyone again, through a")
        assert [(m["n"], m["to"]) for m in (pushed_talk(two_b, "messages 1 and 2 on seat 2's socket on b"),
                                             pushed_talk(two_b, "message 2 on seat 2's socket on b"))] \
            == [(1, 2), (2, None)]
        # pushes to one socket go in order: had seat 1 been sent message 1, it would come first
        assert pushed_talk(one_b, "message 2 on seat 1's socket on b")["n"] == 2
        say(b.url, gid, toks[1], "to everyone, through b")
        say(a.url, gid, toks[0], "the last, through a")
        # message 3's notification reached a after a's own for messages 0-2: a double push
        # of any of them would come before 3, and b's of 3 before 4
        assert [pushed_talk(zero_a, f"message {n} on seat 0's socket on a")["n"] for n in range(1, 5)] \
            == [1, 2, 3, 4]
        assert [pushed_talk(one_b, f"message {n} on seat 1's socket on b")["n"] for n in (3, 4)] == [3, 4]
    health = httpx.get(b.url + "/api/health", timeout=30).json()
    assert health["talk"]["heard"] >= 5, health


def test_talk_posted_while_a_listening_connection_is_lost_is_pushed_once_it_is_back(cluster):
    """b stopped while its listening connection is ended and a message is posted through
    a: its notification cannot reach b.  Once running again b reconnects, finds a message
    stored past those its table socket was told, and pushes it."""
    from sqlalchemy import create_engine, text

    from realms.server.store import database_url

    a, b = cluster(), cluster()
    gid, toks = people(a.url)
    name = f"realms-listen {b.health['process']}"[:63]
    engine = create_engine(database_url(cluster.database), isolation_level="AUTOCOMMIT")
    with table_page(b.port, gid, toks[1]) as page, engine.connect() as conn:
        _wait("b to listen to the game its page watches",
              lambda: httpx.get(b.url + "/api/health", timeout=30).json()["listened"] >= 1)
        os.kill(b.proc.pid, signal.SIGSTOP)
        try:
            ended = conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE application_name = :n"), {"n": name}).scalars().all()
            assert ended == [True]
            _wait("b's listening connection to end", lambda: not conn.execute(text(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = :n"), {"n": name}).first())
            say(a.url, gid, toks[0], "while b was deaf")
        finally:
            os.kill(b.proc.pid, signal.SIGCONT)
        got = pushed_talk(page, "the message posted while b's listening connection was lost")
        assert (got["n"], got["text"]) == (0, "while b was deaf")
    engine.dispose()
    assert httpx.get(b.url + "/api/health", timeout=30).json()["reconnects"] >= 1


def pushed_table(page, what: str, ok) -> dict:
    """The first table view pushed to ``page`` for which ``ok`` holds (talk passed over)."""
    return pushed(page, what, lambda body: body["type"] == "table" and ok(body))


def clocked_game(a) -> tuple[str, str, list[str]]:
    """A game of four people made through ``a`` (which owns it), with an hour a turn on the
    clock: its id, the host's token and the seats' tokens."""
    r = httpx.post(a.url + "/api/games", timeout=60, json={
        "game": "hy-breasil", "options": {"turns": 2}, "seats": ["human"] * 4,
        "table": {"clock": {"kind": "turn", "minutes": 60}}})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["host"], [s["token"] for s in r.json()["seats"]]


def test_a_tables_change_through_one_process_is_pushed_to_the_table_sockets_of_another(cluster):
    """host.py's table in a cluster (``cluster.Cluster.tabled``): the host pauses the
    clocks through a, the game's owner; b's table socket is pushed the paused clocks with
    no read of the table in between.  The host then ends the game through b, which hands
    the end to a, the owner (``Tables.hand``): a pushes it to its table socket and
    refuses an answer, as b does."""
    a, b = cluster(), cluster()
    gid, host, toks = clocked_game(a)
    seat = httpx.get(f"{a.url}/api/games/{gid}", timeout=30).json()["awaiting"][0]
    state = httpx.get(f"{a.url}/api/games/{gid}", headers=bearer(toks[seat]), timeout=30).json()
    with table_page(b.port, gid, toks[1]) as on_b, table_page(a.port, gid, toks[0]) as on_a:
        r = httpx.post(f"{a.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "pause"}, timeout=60)
        assert r.status_code == 200 and r.json()["clock"]["paused"], r.text
        pushed_table(on_b, "the paused clocks on b", lambda v: v["clock"]["paused"])
        r = httpx.post(f"{b.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "end"}, timeout=60)
        assert r.status_code == 200 and r.json()["ended"], r.text
        pushed_table(on_a, "the end on a, the owner", lambda v: v["ended"])
    for url in (a.url, b.url):
        r = answer(url, gid, toks[seat], state)
        assert r.status_code == 403 and "ended" in r.text, (url, r.text)


def test_a_hosts_change_through_a_process_not_owning_the_game_stays_after_the_owners_next_write(cluster):
    """host.py's changes handed to the owner (``Tables.hand``): a owns the game; the host
    pauses the clocks and extends the turn by 30 minutes through b, which hands each to a.
    The host then extends it by 15 minutes through a, whose write of the row is from its
    own copy: the pause and b's extension are in it, on both processes' table sockets and
    tables (where a took only the end from b's row, a never paused and its write undid b's)."""
    a, b = cluster(), cluster()
    gid, host, toks = clocked_game(a)

    def table(url: str) -> dict:
        got = httpx.get(f"{url}/api/games/{gid}/table", headers=bearer(host), timeout=30)
        assert got.status_code == 200, got.text
        return got.json()

    def longest(view: dict) -> float:
        return max(s["left"] or 0.0 for s in view["clock"]["seats"])

    _wait("a's watcher to start the first turn's clock", lambda: longest(table(a.url)) > 0)
    with table_page(b.port, gid, toks[1]) as on_b, table_page(a.port, gid, toks[0]) as on_a:
        r = httpx.post(f"{b.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "pause"}, timeout=60)
        assert r.status_code == 200 and r.json()["clock"]["paused"], r.text
        pushed_table(on_a, "the pause made through b on a, the owner", lambda v: v["clock"]["paused"])
        r = httpx.post(f"{b.url}/api/games/{gid}/host", headers=bearer(host),
                       json={"action": "extend", "minutes": 30}, timeout=60)
        assert r.status_code == 200 and longest(r.json()) > 85 * 60, r.text
        r = httpx.post(f"{a.url}/api/games/{gid}/host", headers=bearer(host),
                       json={"action": "extend", "minutes": 15}, timeout=60)
        assert r.status_code == 200 and r.json()["clock"]["paused"] and longest(r.json()) > 100 * 60, r.text
        for page, where in ((on_a, "a"), (on_b, "b")):
            seen = pushed_table(page, f"both extensions on {where}", lambda v: longest(v) > 100 * 60)
            assert seen["clock"]["paused"], where
    for url in (a.url, b.url):
        view = table(url)
        assert view["clock"]["paused"] and longest(view) > 100 * 60, (url, view["clock"])
    r = httpx.post(f"{b.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "extend"}, timeout=60)
    assert r.status_code == 422 and "minutes" in r.text, r.text  # the owner's refusal, as it made it


def test_a_seats_notice_addresses_set_through_a_process_not_owning_the_game_stay_after_the_owners_next_write(cluster):
    """A seat's notice addresses (``PUT …/notices``) set through b, which does not own the
    game, are handed to a, the owner (``Tables.hand``): after a's next write of the table
    (the host's extension through a) both processes show the seat its webhook, and the
    other seats none of it (the addresses are the seat's own)."""
    a, b = cluster(), cluster()
    gid, host, toks = clocked_game(a)
    hook = "https://93.184.216.34/realms-seat-2"

    def notices(url: str, tok: str) -> dict:
        got = httpx.get(f"{url}/api/games/{gid}/table", headers=bearer(tok), timeout=30)
        assert got.status_code == 200, got.text
        return got.json()["notices"]

    _wait("a's watcher to start the first turn's clock",
          lambda: any(s["left"] for s in httpx.get(f"{a.url}/api/games/{gid}/table", headers=bearer(host),
                                                   timeout=30).json()["clock"]["seats"]))
    r = httpx.put(f"{b.url}/api/games/{gid}/notices", headers=bearer(toks[1]),
                  json={"webhook": hook, "email": None}, timeout=60)
    assert r.status_code == 200 and r.json()["notices"]["webhook"] == hook, r.text
    r = httpx.post(f"{a.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "extend", "minutes": 15},
                   timeout=60)
    assert r.status_code == 200, r.text
    assert notices(a.url, toks[1])["webhook"] == hook
    _wait("b to read the owner's write", lambda: notices(b.url, toks[1])["webhook"] == hook)
    for url in (a.url, b.url):
        assert notices(url, toks[0])["webhook"] is None, url


def test_a_seat_taken_back_through_a_process_not_owning_the_game_stays_its_persons(cluster, tmp_path):
    """A seat a bot took (its turn ran out: ``misses`` 1) is taken back by its person
    through b, which does not own the game: b hands it to a, the owner (``Tables.hand``),
    which frees the seat and stores it.  After a's next write of the table (the host's
    extension through a) neither process shows a bot in the seat, and its stand-in line
    says it was taken back by the button."""
    clock = tmp_path / "clock"
    set_clock(clock, T0)
    a, b = cluster(["--clock-file", str(clock)]), cluster(["--clock-file", str(clock)])
    r = httpx.post(a.url + "/api/games", timeout=60, json={
        "game": "hy-breasil", "options": {"turns": 2}, "seats": ["human"] * 4,
        "table": {"clock": {"kind": "turn", "minutes": 60, "misses": 1}}})
    assert r.status_code == 201, r.text
    gid, host, toks = r.json()["id"], r.json()["host"], [s["token"] for s in r.json()["seats"]]

    def table(url: str, tok: str = host) -> dict:
        got = httpx.get(f"{url}/api/games/{gid}/table", headers=bearer(tok), timeout=30)
        assert got.status_code == 200, got.text
        return got.json()

    _wait("a's watcher to start the first turn's clock", lambda: any(s["left"] for s in table(a.url)["clock"]["seats"]))
    set_clock(clock, T0 + 61 * 60)
    bots = _wait("a bot to take a seat whose turn ran out", lambda: table(a.url)["bots"])
    seat = int(next(iter(bots)))

    def freed(view: dict) -> dict | None:
        return view if str(seat) not in view["bots"] else None

    r = httpx.post(f"{b.url}/api/games/{gid}/seat/back", headers=bearer(toks[seat]), timeout=60)
    assert r.status_code == 200 and str(seat) not in r.json()["bots"], r.text
    r = httpx.post(f"{a.url}/api/games/{gid}/host", headers=bearer(host), json={"action": "extend", "minutes": 15},
                   timeout=60)
    assert r.status_code == 200, r.text
    for url in (a.url, b.url):
        view = _wait(f"{url} to show seat {seat} its person's again", lambda: freed(table(url)))
        assert [s.get("back") for s in view["stand_ins"] if s["seat"] == seat and s["to"] is not None][-1:] \
            == ["button"], view["stand_ins"]
    r = httpx.post(f"{b.url}/api/games/{gid}/seat/back", headers=bearer(toks[seat]), timeout=60)
    assert r.status_code == 409 and f"seat {seat + 1}" in r.text, r.text  # the owner's refusal: no bot holds it now
