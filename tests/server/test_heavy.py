"""Work whose cost a request chooses runs in the heavy work's process (``server/heavy.py``),
within a budget of seconds, bounded per address, its results cached; the event loop
answers others meanwhile."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from realms.server import botworker, heavy

from .conftest import advised_now, new_game, settled


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_a_job_over_its_budget_is_stopped_with_a_clear_error():
    work = heavy.Heavy()

    async def main():
        try:
            with pytest.raises(heavy.OverBudget, match="more than 0.5 s"):
                await work.run("slow", 0.5, "a", time.sleep, 60)
            assert await work.run("after", 30, "a", sum, [1, 2]) == 3  # the worker goes on
        finally:
            work.close()

    run(main())
    assert work.over == 1 and work.killed == 0


def test_a_job_that_ignores_its_timer_has_its_worker_killed(monkeypatch):
    monkeypatch.setattr(heavy, "GRACE", 1.0)
    work = heavy.Heavy()

    async def main():
        try:
            with pytest.raises(heavy.OverBudget):  # sigwait never lets the timer's handler run
                await work.run("stuck", 0.2, "a", signal.sigwait, {signal.SIGUSR1})
            assert await work.run("after", 60, "a", sum, [2, 3]) == 5  # a new worker
        finally:
            work.close()

    run(main())
    assert work.killed == 1


def test_the_loop_answers_while_a_job_runs_and_one_address_is_bounded(monkeypatch):
    monkeypatch.setattr(heavy, "WAITING", 2)  # the server's bound, reached by the same two jobs
    work = heavy.Heavy()

    async def main():
        try:
            long = [asyncio.create_task(work.run(("sleep", i), 300, "a", time.sleep, 120)) for i in range(2)]
            for _ in range(1000):  # both counted (one running, one waiting its turn)
                if sum(work.waiting.values()) == 2:
                    break
                await asyncio.sleep(0.01)
            assert await asyncio.wait_for(asyncio.to_thread(sum, [1, 1]), 60) == 2
            with pytest.raises(heavy.Busy, match="of this address"):
                await work.run("third", 300, "a", sum, [1])
            with pytest.raises(heavy.Busy, match="the server has too much"):  # not b's own doing
                await work.run("fourth", 300, "b", sum, [1])
            assert (work.sent, work.refused) == (2, 2)  # what ``/api/health`` tells
            assert not any(t.done() for t in long)
            for t in long:
                t.cancel()
        finally:
            work.close()

    run(main())


def test_a_worker_started_warm_has_warmed_every_game_before_its_first_job():
    """``realms serve`` starts the odds' worker warm: the odds are worked out there, so its
    tables must be solved at the start, not inside the first requests that need them."""
    cold, warm = heavy.Heavy(), heavy.Heavy()
    try:
        cold.start().result(120)
        warm.start(warm=True).result(120)
        assert run(cold.run("w", 60, "a", botworker.was_warmed)) is False
        assert run(warm.run("w", 60, "a", botworker.was_warmed)) is True
    finally:
        cold.close()
        warm.close()


def test_results_are_cached_by_key():
    work = heavy.Heavy()

    async def main():
        try:
            first = await work.run(("k", 1), 30, "a", sorted, [3, 1, 2])
            assert ("k", 1) in work.cache
            work.close()  # no worker now: a second run would fail, a cached one does not
            assert await work.run(("k", 1), 30, "a", sorted, [3, 1, 2]) is first
        finally:
            work.close()

    run(main())


def test_work_kept_in_the_worker_is_remembered_up_to_kept_the_least_asked_forgotten(monkeypatch):
    """``keep`` (a game set up in the worker) is remembered while the worker lives, up to
    ``KEPT`` jobs: past it the one least recently asked of is forgotten (set up again when
    next asked), not the one just asked of."""
    monkeypatch.setattr(heavy, "KEPT", 2)
    work = heavy.Heavy()

    async def main():
        try:
            for k in (1, 2):
                await work.run(("setup", k), 30, "a", sorted, [k], keep=True)
            await work.run(("setup", 1), 30, "a", sorted, [1], keep=True)  # asked again: kept longest
            await work.run(("setup", 3), 30, "a", sorted, [3], keep=True)
            assert [work.holds(("setup", k)) for k in (1, 2, 3)] == [True, False, True]
            assert not work.cache  # kept work is never in the cache of results
        finally:
            work.close()

    run(main())


def test_a_replay_over_its_budget_is_503_and_the_game_stays(client, monkeypatch):
    out = new_game(client, seats=("auto", "auto", "auto"))
    gid = out["id"]
    done = settled(client, gid)
    assert done["over"]
    monkeypatch.setattr(heavy, "REPLAY_SECONDS", 3600.0)  # within budget however loaded the machine
    ok = client.get(f"/api/games/{gid}?at=5")
    assert ok.status_code == 200 and ok.json()["version"] == 5
    monkeypatch.setattr(heavy, "REPLAY_SECONDS", 1e-6)  # no replay of a game is that quick
    for url in (f"/api/games/{gid}?at=7", f"/api/games/{gid}/board.svg?at=7", f"/api/games/{gid}/turns"):
        r = client.get(url)
        assert r.status_code == 503, (url, r.text)
        assert "more than 1e-06 s" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}?at=5").json() == ok.json()  # cached
    assert client.get(f"/api/games/{gid}").json()["version"] == done["version"]


def test_odds_over_their_budget_leave_a_note_and_are_not_asked_again(client, monkeypatch):
    from .test_undo import answer

    monkeypatch.setattr(heavy, "ADVICE_SECONDS", 1e-6)  # no odds are worked out that quickly
    out = new_game(client, seats=("human", "auto", "auto", "auto"))
    gid, tok = out["id"], out["seats"][0]["token"]
    server = client.app.state.server
    s = advised(client, gid, tok)
    assert s["odds"] and "No odds in this game" in s["odds"][0]["text"]
    asked = server.heavy.odds.over
    r = answer(client, gid, tok, s)
    assert r.status_code == 200, r.text
    s = advised(client, gid, tok)
    assert "No odds in this game" in s["odds"][0]["text"]
    assert server.heavy.odds.over == asked, "a game over its budget once is not asked again"


def advised(client, gid: str, tok: str) -> dict:
    """The seat's state at its next decision the game gives odds for (its set-up's picks
    have none), answering the others with their first option."""
    from realms.games.hy_breasil import ADVICE_KINDS

    from .test_undo import answer

    for _ in range(200):
        s = settled(client, gid, tok)
        assert s["pending"], "the game ended before a decision with odds"
        if s["pending"][0]["kind"] in ADVICE_KINDS:
            return advised_now(client, gid, tok)
        assert answer(client, gid, tok, s).status_code == 200
    raise AssertionError("no decision with odds in 200 answers")


def test_a_job_somebody_waits_for_runs_before_the_set_ups_nobody_waits_for(monkeypatch):
    """A request's odds queued behind a take-over's set-ups (``later``: nobody waits for
    them) run next, before every set-up waiting, and the set-ups then in their order: a
    process taking over dozens of games made a person's answer wait for all their
    set-ups.  The worker is a stand-in that holds the first job until told."""
    work = heavy.Heavy()
    ran: list[str] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def one(pool, seconds, fn, args):
            ran.append(args[0])
            if args[0] == "first":
                await gate.wait()
            return args[0]

        monkeypatch.setattr(work, "_start", lambda warm=False: None)
        monkeypatch.setattr(work, "_one", one)
        jobs = [asyncio.create_task(work.run("first", 30, "a", str, "first"))]
        jobs += [asyncio.create_task(work.run(("setup", i), 30, f"game:{i}", str, f"setup {i}", keep=True, later=True))
                 for i in range(3)]
        for _ in range(20):
            await asyncio.sleep(0)
        jobs.append(asyncio.create_task(work.run("advice", 30, "b", str, "advice")))
        for _ in range(20):
            await asyncio.sleep(0)
        assert ran == ["first"]
        gate.set()
        assert await asyncio.wait_for(asyncio.gather(*jobs), 30) == ["first", "setup 0", "setup 1", "setup 2", "advice"]

    run(main())
    assert ran == ["first", "advice", "setup 0", "setup 1", "setup 2"]
