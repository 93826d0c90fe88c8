"""``realms serve --workers N``: N server processes on one port, one PostgreSQL database.

Each process is a whole ``realms serve`` of its own (its bots' and heavy work's processes,
its leases: ``cluster``), bound to the same port with ``SO_REUSEPORT`` so that the kernel
spreads the connections between them; any of them answers any request.  This process
only watches them: one that dies is started again (its games' leases expire meanwhile
and the others take them over), and SIGTERM or SIGINT stops them all.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

#: seconds before a process that died is started again
RESTART_AFTER = 1.0
#: seconds the processes are given to stop before they are killed
STOP_WAIT = 20.0


def child_args(command, params: dict) -> list[str]:
    """``realms serve``'s command line for one process: the options given, but
    ``--workers`` and ``--check``, and ``--reuse-port``."""
    out = []
    for p in command.params:
        if p.name in ("workers", "check", "reuse_port") or p.name not in params:
            continue
        value, flag = params[p.name], p.opts[0]
        if getattr(p, "is_flag", False):
            out += [flag] if value else []
        elif getattr(p, "multiple", False):
            for v in value:
                out += [flag, str(v)]
        elif value is not None:
            out += [flag, str(value)]
    return out + ["--reuse-port"]


def ready(proc: subprocess.Popen, url: str, seconds: float = 120.0) -> None:
    """Wait until the process at ``url`` answers its health (it has made the database's
    tables: the others then start without racing to make them), or has ended."""
    import httpx

    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def run(n: int, args: list[str], url: str, say) -> int:
    """Run ``n`` processes of ``python -m realms.server args`` (reached at ``url``) until
    signalled; 0."""
    command = [sys.executable, "-m", "realms.server", *args]
    procs: list[subprocess.Popen] = [subprocess.Popen(command)]
    ready(procs[0], url)
    procs += [subprocess.Popen(command) for _ in range(n - 1)]
    stopping = []

    def stop(signum, _frame) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    say(f"realms: {n} processes, pids {' '.join(str(p.pid) for p in procs)}")
    while not stopping:
        time.sleep(0.2)
        for i, p in enumerate(procs):
            if p.poll() is not None and not stopping:
                say(f"realms: process {p.pid} ended ({p.returncode}); starting another")
                time.sleep(RESTART_AFTER)
                procs[i] = subprocess.Popen(command)
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    end = time.monotonic() + STOP_WAIT
    for p in procs:
        try:
            p.wait(max(0.1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
    return 0
