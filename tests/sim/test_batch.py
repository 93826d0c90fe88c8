"""The batch runner: same games whatever the workers or cluster, resumable, interruptible."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from realms.core.game import get_game
from realms.sim import batch
from realms.sim.batch import GamesFile, Interrupted, RunInfo, Simulation, SimulationError, play_game, run
from realms.sim.report import build_summary
from realms.sim.runner import run_game, summary
from realms.sim.tournament import tournament as serial_tournament

SIM = Simulation("hy-breasil", {"players": 3, "turns": 3}, ("random",), seed=21, games=12)


def _figures(lines):
    return build_summary(lines, {})["figures"]


def test_a_line_is_the_simulate_json_summary_plus_bots_and_stats():
    game = get_game("hy-breasil")
    line = play_game("hy-breasil", {"players": 3, "turns": 3}, 5, ["random"])
    expected = json.loads(json.dumps(summary(run_game(game, {"players": 3, "turns": 3}, 5, ["random"]))))
    assert {k: v for k, v in line.items() if k not in ("bots", "stats", "turn_scores", "design")} == expected
    assert line["bots"] == ["random"] * 3 and line["stats"]["kind"] == "hy-breasil"


def test_one_and_two_workers_give_identical_files(tmp_path):
    one = run(SIM, workers=1, out=tmp_path / "a")
    info = RunInfo()
    two = run(SIM, workers=2, out=tmp_path / "b", batch_size=1, info=info)
    assert one == two and [ln["seed"] for ln in one] == list(SIM.seeds)
    assert (tmp_path / "a" / "games.jsonl").read_bytes() == (tmp_path / "b" / "games.jsonl").read_bytes()
    assert _figures(one) == _figures(two)
    assert info.played == 12 and info.workers == 2 and info.seconds > 0


def test_dask_local_cluster_gives_the_same_games():
    import distributed

    local = run(SIM)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        info = RunInfo()
        remote = run(SIM, cluster=lc.scheduler_address, batch_size=3, info=info)
    assert remote == local
    assert info.cluster == lc.scheduler_address and info.played == 12
    assert info.workers == 2  # the cluster's worker threads, not the local default of 1


def test_cluster_batches_keep_tasks_few():
    from realms.sim.cluster import cluster_batch_size

    assert cluster_batch_size(1000, 2) == 20
    assert cluster_batch_size(100, 4) == 4  # about eight tasks per thread
    assert cluster_batch_size(3, 8) == 1


def test_unreachable_cluster_is_a_clear_error(monkeypatch):
    from realms.sim import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(SimulationError, match="cannot reach the Dask scheduler"):
        run(Simulation("hy-breasil", {"players": 3, "turns": 1}, games=1), cluster="tcp://127.0.0.1:9")


def _interrupt_after(n_batches):
    seen = []

    def on_batch(lines):
        seen.append(lines)
        if len(seen) == n_batches:
            raise KeyboardInterrupt

    return on_batch


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_keeps_games_and_resume_finishes_without_duplicates(tmp_path, workers):
    full = run(SIM)
    with pytest.raises(Interrupted) as exc:
        run(SIM, workers=workers, out=tmp_path, batch_size=2, on_batch=_interrupt_after(2))
    kept = GamesFile(tmp_path / "games.jsonl").load()
    assert exc.value.done == len(kept) and 0 < len(kept) < SIM.games
    with (tmp_path / "games.jsonl").open("a") as f:  # a line cut short by the interruption
        f.write('{"game": "hy-breasil", "seed": 9')
    info = RunInfo()
    resumed = run(SIM, workers=workers, out=tmp_path, resume=True, info=info)
    assert info.resumed == len(kept) and info.played == SIM.games - len(kept)
    assert resumed == full
    seeds = [json.loads(t)["seed"] for t in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert seeds == list(SIM.seeds)


def test_resume_refuses_another_simulation(tmp_path):
    run(Simulation("hy-breasil", {"players": 3, "turns": 2}, seed=1, games=2), out=tmp_path)
    with pytest.raises(SimulationError, match="another simulation"):
        run(Simulation("hy-breasil", {"players": 4, "turns": 2}, seed=1, games=3), out=tmp_path, resume=True)


def test_resume_can_extend_a_finished_run(tmp_path):
    run(Simulation("hy-breasil", {"players": 3, "turns": 2}, seed=1, games=3), out=tmp_path)
    info = RunInfo()
    lines = run(Simulation("hy-breasil", {"players": 3, "turns": 2}, seed=1, games=5), out=tmp_path,
                resume=True, info=info)
    assert info.resumed == 3 and info.played == 2 and [ln["seed"] for ln in lines] == [1, 2, 3, 4, 5]


def test_without_resume_a_folder_starts_afresh(tmp_path):
    run(Simulation("hy-breasil", {"players": 3, "turns": 2}, seed=1, games=3), out=tmp_path)
    run(Simulation("hy-breasil", {"players": 3, "turns": 2}, seed=10, games=2), out=tmp_path)
    assert [ln["seed"] for ln in GamesFile(tmp_path / "games.jsonl").load()] == [10, 11]


def test_a_failing_game_names_its_seed(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(batch, "play_game", broken)
    with pytest.raises(SimulationError, match="seed 21 failed: ZeroDivisionError: boom"):
        run(SIM)


def test_parallel_tournament_equals_the_serial_one():
    game = get_game("brian-boru")
    serial = serial_tournament(game, {"players": 4}, ["greedy", "random"], 16, 3)
    parallel = batch.tournament("brian-boru", {"players": 4}, ["greedy", "random"], 16, 3, workers=2)
    assert [s.to_json() for s in parallel] == [s.to_json() for s in serial]
    assert sum(s.games for s in parallel) == 64


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks on this system")
def test_ctrl_c_while_the_pool_starts_waits_until_it_has_started():
    """A SIGINT that arrives while the pool starts is held, then raised once it has: not
    inside Pool(), which would leave a started worker behind, and not lost."""
    inside = []
    # Python's own Ctrl-C handler, whatever this process inherited (a background job of a
    # shell starts with SIGINT ignored, and an ignored signal is dropped when unblocked)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _raise_held_sigint(inside)
    finally:
        signal.signal(signal.SIGINT, before)
    assert inside == [True]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def _raise_held_sigint(inside: list) -> None:
    with pytest.raises(KeyboardInterrupt):
        with batch._sigint_held():
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
            inside.append(signal.SIGINT in signal.sigpending())
        inside.append("not raised after the pool had started")


class _Output:
    """A child's standard output and error, read as they come (a pipe left unread could
    fill and block the child) and kept for the test's messages."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.text = {"out": [], "err": []}
        self.threads = [threading.Thread(target=self._pump, args=(pipe, key), daemon=True)
                        for pipe, key in ((proc.stdout, "out"), (proc.stderr, "err"))]
        for t in self.threads:
            t.start()

    def _pump(self, pipe, key: str) -> None:
        for line in pipe:
            self.text[key].append(line)

    def closed(self, timeout: float) -> bool:
        for t in self.threads:
            t.join(timeout)
        return not any(t.is_alive() for t in self.threads)

    def __getitem__(self, key: str) -> str:
        return "".join(self.text[key])


def _group(pgid: int) -> str:
    """The processes still in the group, for a failure message."""
    return subprocess.run(["ps", "-o", "pid,stat,etime,args", "-g", str(pgid)], capture_output=True,
                          text=True).stdout


def _as_from_a_terminal() -> None:
    """Ctrl-C's default action, as a command typed at a terminal has it.  A test run in the
    background (a shell's ``&`` job ignores SIGINT) would otherwise hand the ignored signal
    down, and the command would rightly never see it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_on_the_command_keeps_games_and_resume_completes(tmp_path):
    """A real SIGINT to the command's process group (as a terminal sends it), once games
    are being kept; every wait is bounded and says what it waited for."""
    out = tmp_path / "rep"
    realms = Path(sys.executable).with_name("realms")
    args = [str(realms), "simulate", "hy-breasil", "--players", "3", "--turns", "3", "--games", "30000",
            "--workers", "2", "--report", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, text=True,
                            preexec_fn=_as_from_a_terminal)
    output = _Output(proc)
    jsonl = out / "games.jsonl"
    try:
        deadline = time.monotonic() + 120
        while not (jsonl.exists() and b"\n" in jsonl.read_bytes()[:100_000]):
            assert proc.poll() is None, f"realms simulate ended before any game was kept: {output['err']}"
            assert time.monotonic() < deadline, f"no game kept within 120 s; stderr so far: {output['err']}"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"realms simulate had not exited 60 s after SIGINT; its group:\n{_group(proc.pid)}"
                        f"stderr so far: {output['err']}")
        assert output.closed(60), f"the command exited, but its pipes stayed open 60 s:\n{_group(proc.pid)}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever of the group is left
        except ProcessLookupError:
            pass
        proc.wait()
    err = output["err"]
    assert proc.returncode == 130, err
    assert "--resume" in err and "interrupted after" in err
    kept = GamesFile(jsonl).load()
    seeds = [ln["seed"] for ln in kept]
    assert 0 < len(seeds) < 30000 and len(set(seeds)) == len(seeds)
    assert not (out / "summary.json").exists()
    n = max(seeds) + 3  # resume, here over a shorter range so the test stays quick
    try:  # generous: on a loaded machine the resumed run's worker processes start slowly
        done = subprocess.run(args[:8] + [str(n)] + args[9:] + ["--resume"], capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"realms simulate --resume of {n} games had not finished in 300 s; stderr: {exc.stderr}")
    assert done.returncode == 0, done.stderr
    assert f"kept from before" in done.stdout
    assert [ln["seed"] for ln in GamesFile(jsonl).load()] == list(range(1, n + 1))
    assert json.loads((out / "summary.json").read_text())["figures"]["games"] == n


def test_cluster_without_dask_names_the_extra(monkeypatch):
    """``--cluster`` is the one command that needs Dask, installed by ``realms[cluster]``:
    without it the error says so instead of a raw ModuleNotFoundError."""
    import sys

    from realms.sim.batch import SimulationError
    from realms.sim.cluster import connect

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SimulationError, match=r"realms\[cluster\]"):
        connect("tcp://127.0.0.1:1")
