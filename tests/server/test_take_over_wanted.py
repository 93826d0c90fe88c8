"""A request for a game its process is taking over (``Cluster.wanted``,
``Server.get``): the game's catch-up goes at once, ahead of the others' waiting for their
turn, and the request waits for that game alone; no turn is lost, and the take-over's own
load of the game does not wait for itself."""

from __future__ import annotations

import asyncio
import math
from types import SimpleNamespace

from sqlalchemy import create_engine

from realms.server.cluster import Cluster


class Deadlines:
    rounds: dict = {}

    @staticmethod
    def overdue(live) -> bool:
        return False


def test_a_game_asked_for_is_caught_up_at_once_and_waited_for_alone(monkeypatch):
    from realms.server import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "TAKE_AT_ONCE", 1)
    server = SimpleNamespace(store=SimpleNamespace(engine=create_engine("sqlite://"), rounds=lambda: {}),
                             live={}, loading={}, deadlines=Deadlines())
    process = Cluster(server)
    process.owned, process.valid_until = {"a", "b", "c"}, math.inf
    order: list[str] = []
    inner: list = []

    async def main() -> None:
        first = asyncio.Event()  # "a", first in turn, holds the one turn until this is set

        async def catch_up(gid: str, full: bool = False, load: bool = False):
            order.append(gid)
            inner.append(await process.wanted(gid))  # the take-over's own load: not waited for
            if gid == "a":
                await first.wait()
            server.live[gid] = SimpleNamespace(row=SimpleNamespace(id=gid))
            return server.live[gid]

        process.catch_up = catch_up
        await process.take_over({"a", "b", "c"})
        while order != ["a"]:
            await asyncio.sleep(0)
        try:
            live = await asyncio.wait_for(process.wanted("c"), 30)
        except TimeoutError:
            raise AssertionError(f"the request for c waited for the games ahead of it: caught up {order}") from None
        assert live is server.live["c"]
        assert order == ["a", "c"]  # "b" still waits for its turn behind "a"
        first.set()
        while process._catching:
            await asyncio.sleep(0.01)
        assert await process.wanted("b") is None  # caught up: a request loads it as any other

    asyncio.run(main())
    assert order == ["a", "c", "b"]
    assert inner == [None, None, None]
    assert process._taking is not None and not process._taking.locked()  # the turn given back
    assert process._turns == {}
