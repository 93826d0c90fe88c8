"""The store's writer thread (issue 18): it wakes the server once per committed batch
(``Store.after_batch``), by which time every write of the batch is done."""

from __future__ import annotations

import threading

from realms.server.store import Store


def test_the_writer_calls_after_batch_once_per_batch_when_its_writes_are_done(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    try:
        store.create("g", "hy-breasil", {}, 1, [], [])
        futures = []
        calls: list[list[bool]] = []
        hold = threading.Event()
        # the first batch waits in the hook, so that the next writes queue up into one batch
        store.after_batch = lambda: (calls.append([f.done() for f in futures]), hold.wait(10))
        futures.append(store.submit("g", 0, [(0, "a")]))
        futures[0].result(10)
        futures.extend(store.submit("g", n, [(n % 2, f"k{n}")]) for n in range(1, 6))
        hold.set()
        for f in futures:
            f.result(10)
        store.submit_undo("g", 5, 1).result(10)
        # the five writes queued behind the first batch are one batch: one call, all done
        assert calls == [[True], [True] * 6, [True] * 6]
        assert store.load("g").answers == [(0, "a"), (1, "k1"), (0, "k2"), (1, "k3"), (0, "k4")]
    finally:
        store.close()
