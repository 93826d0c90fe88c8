"""The bots think in a process of their own (server/botworker.py): its mirror of a game
follows the answers sent to it, asks for the whole record when it is not where a job
starts, and gives the answers the game's own bots give in one go; a worker that dies is
replaced and the games go on, the same games."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from realms.core.game import get_game
from realms.core.match import bot_answers
from realms.server import botworker
from realms.server.app import CHRONICLE_LINES, _chronicle, make_agents, run_bots

from .conftest import new_game, settled
from .test_undo import answer

KINDS = ("human", "auto", "auto")
OPTIONS = {"turns": 2, "players": 3}


def job(answers, start=0, cap=1000) -> botworker.Job:
    options = get_game("hy-breasil").normalize_options(OPTIONS, paths=False)
    return botworker.Job("g1", "hy-breasil", options, 5, KINDS, start,
                         tuple(answers[start - 1]) if start else None, tuple(answers[start:]), cap, 10.0, 10_000)


def test_the_mirror_follows_the_answers_sent_and_gives_the_bots_answers_of_one_go():
    """Batches of at most 7 bot answers, each job sending the person's answers since the
    last: the game the answers make is the game of the same person with the bots played
    in one go."""
    game = get_game("hy-breasil")
    options = game.normalize_options(OPTIONS, paths=False)
    state = game.new_game(options, 5)
    botworker._mirrors.clear()
    answers: list = []
    mirrored = 0
    while not state.is_over() and len(answers) < 300:
        if state.first_pending({0: None}) is not None:
            d = state.first_pending({0: None})
            state.apply(0, d.keys[len(answers) % len(d.keys)])
            answers.append(state.answers[-1])
            continue
        given = botworker.play(job(answers, mirrored, cap=7))
        assert given and len(given) <= 7 and all(p != 0 for p, _ in given)
        for p, key in given:
            state.apply(p, key)
        answers.extend(given)
        mirrored = len(answers)
    assert mirrored > 50
    assert state.state_hash() == _played_in_one_go_by(state, state.answers, options, 5)


def test_a_job_the_mirror_is_not_at_asks_for_the_whole_record():
    game = get_game("hy-breasil")
    state = game.new_game(game.normalize_options(OPTIONS, paths=False), 5)
    while state.first_pending({0: None}) is not None:  # the person plays first
        state.apply(0, state.first_pending({0: None}).keys[0])
    botworker._mirrors.clear()
    first = botworker.play(job(list(state.answers)))
    assert first and all(p != 0 for p, _ in first)
    answers = list(state.answers) + list(first)
    assert botworker.play(job(answers, start=len(answers))) == ()  # where it is: the person's turn
    assert botworker.play(job(answers + [(0, "x")], start=len(answers) + 1)) is None  # ahead of it
    botworker._mirrors.clear()
    assert botworker.play(job(answers, start=len(answers))) is None  # gone (a new worker)


def test_a_mirror_made_for_other_bots_is_not_used():
    """A job whose seats' kinds differ from the mirror's (a seat a bot took or gave back
    since) asks for the whole record: the mirror's bots are not the game's."""
    game = get_game("hy-breasil")
    state = game.new_game(game.normalize_options(OPTIONS, paths=False), 5)
    while state.first_pending({0: None}) is not None:
        state.apply(0, state.first_pending({0: None}).keys[0])
    botworker._mirrors.clear()
    answers = list(state.answers)
    given = botworker.play(job(answers))
    assert given and all(p != 0 for p, _ in given)
    answers += list(given)
    other = botworker.Job(*(("human", "auto", "human") if f == "kinds" else getattr(job(answers, len(answers)), f)
                            for f in botworker.Job.__dataclass_fields__))
    assert botworker.play(other) is None


def test_the_whole_record_sent_for_a_mirror_held_walks_it_on_from_there_with_the_same_bots():
    """A process that takes over a game whose bots it played before sends the whole record
    (its copy was rebuilt, or is new); its worker's mirror, whose answers begin the record,
    is walked on through the answers since (its bots through their own, played elsewhere
    meanwhile), not replayed from the first, and its bots answer as a mirror rebuilt from
    the whole record would.  A mirror whose answers do not begin the record is not used."""
    game = get_game("hy-breasil")
    state = game.new_game(game.normalize_options(OPTIONS, paths=False), 5)
    agents = make_agents(game, [{"kind": k} for k in KINDS], 5)

    def person_then_bots(turns: int) -> None:
        for _ in range(turns):
            while state.first_pending({0: None}) is not None:
                d = state.first_pending({0: None})
                state.apply(0, d.keys[len(state.answers) % len(d.keys)])
            for _ in bot_answers(state, agents):
                pass

    person_then_bots(1)
    botworker._mirrors.clear()
    held = list(state.answers)
    botworker.play(job(held, cap=0))  # this process's worker holds the game at ``held``
    person_then_bots(3)  # played on elsewhere: the person's answers and the bots'
    record = list(state.answers)
    assert len(record) > len(held) + 10
    before = botworker.walked
    given = botworker.play(job(record))
    assert botworker.walked - before == len(record) - len(held)
    botworker._mirrors.clear()
    before = botworker.walked
    assert botworker.play(job(record)) == given  # rebuilt from the first answer: the same bots' answers
    assert botworker.walked - before == len(record)
    undone = record[:len(held) - 1]  # an answer taken back elsewhere: the mirror is past the record
    before = botworker.walked
    assert botworker.play(job(undone, cap=0)) is not None
    assert botworker.walked - before == len(undone)  # not begun by the mirror: rebuilt


def test_a_worker_that_dies_is_replaced_and_the_game_goes_on_the_same(client):
    out = new_game(client, seats=list(KINDS), options={"turns": 2}, seed=5)
    gid, tok = out["id"], out["seats"][0]["token"]
    botworker.BOTS.start()
    generation = botworker.BOTS.generation
    os.kill(botworker.BOTS._pool.pid, signal.SIGKILL)
    s = settled(client, gid, tok)
    for _ in range(400):
        if s["over"]:
            break
        assert answer(client, gid, tok, s).status_code == 200
        s = settled(client, gid, tok)
    assert s["over"] and botworker.BOTS.generation > generation
    live = client.app.state.server.live[gid]
    assert live.state.state_hash() == _played_in_one_go_by(live.state, live.state.answers, live.state.options, 5)


def _played_in_one_go_by(state, answers, options, seed) -> str:
    """The hash of the game seat 0's ``answers`` make against the bots of ``KINDS``
    played in one go (as far as ``answers`` go)."""
    game = get_game("hy-breasil")
    alone = game.new_game(options, seed)
    agents = make_agents(game, [{"kind": k} for k in KINDS], seed)
    mine = iter([k for p, k in answers if p == 0])
    while len(alone.answers) < len(answers):
        for _ in bot_answers(alone, agents):
            if len(alone.answers) == len(answers):
                break
        if len(alone.answers) < len(answers):
            alone.apply(0, next(mine))
    return alone.state_hash()


def test_the_chronicle_shown_is_the_last_lines_the_seat_may_read(client):
    out = new_game(client, game="brian-boru", seats=["human", "greedy", "random"], options={}, seed=3)
    live = client.app.state.server.live[out["id"]]
    for seat in (None, 0, 1, 2):
        assert _chronicle(live, seat) == live.state.chronicle_for(seat)[-CHRONICLE_LINES:]


def test_a_worker_does_its_jobs_in_order_one_longer_than_its_pipe_holds_too_and_sends_back_errors():
    worker = botworker.Worker(False, False)
    try:
        big = "x" * (1 << 20)  # the pipe takes 64 KiB at once: the rest is written as the worker reads
        futures = [worker.submit(len, big), worker.submit(sum, [1, 2]), worker.submit(int, "not a number"),
                   worker.submit(len, big * 2)]
        assert futures[0].result(60) == 1 << 20 and futures[1].result(60) == 3
        with pytest.raises(ValueError):
            futures[2].result(60)
        assert futures[3].result(60) == 2 << 20
    finally:
        worker.kill()


def test_a_job_waiting_in_a_worker_killed_fails_as_a_broken_pool_and_none_is_taken_after():
    worker = botworker.Worker(False, False)
    assert worker.submit(int).result(60) == 0
    waiting = worker.submit(signal.sigwait, {signal.SIGUSR1})  # never done
    worker.kill()
    with pytest.raises(BrokenProcessPool):
        waiting.result(60)
    with pytest.raises((BrokenProcessPool, RuntimeError)):
        worker.submit(int)
