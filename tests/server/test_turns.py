"""``server/turns.py``: at most ``n`` turns at once, those hurried first (in the order
hurried), then the others in the order they asked; a waiter cancelled gives back a turn
it was given and leaves none behind."""

from __future__ import annotations

import asyncio

from realms.server.turns import Turns


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_turns_are_bounded_and_the_hurried_go_first_in_the_order_hurried():
    turns = Turns(2)
    begun: list[str] = []
    running: set[str] = set()
    most = 0
    go: dict[str, asyncio.Event] = {}

    async def one(key: str, first: bool = False) -> None:
        nonlocal most
        await turns.take(key, first)
        begun.append(key)
        running.add(key)
        most = max(most, len(running))
        await go[key].wait()
        running.discard(key)
        turns.give()

    async def main() -> None:
        keys = ["a", "b", "c", "d", "e", "f"]
        go.update({k: asyncio.Event() for k in keys})
        tasks = [asyncio.create_task(one(k, first=k == "f")) for k in keys]
        await _settle()
        assert begun == ["a", "b"] and turns.waiting() == ["f", "c", "d", "e"]
        turns.hurry("e")
        turns.hurry("a")  # running, not waiting: nothing
        assert turns.waiting() == ["f", "e", "c", "d"]
        for k in ["a", "b", "f", "e", "c", "d"]:
            go[k].set()
            await _settle()
        await asyncio.gather(*tasks)

    run(main())
    assert begun == ["a", "b", "f", "e", "c", "d"]
    assert most == 2 and turns.free == 2 and turns.waiting() == []


def test_a_waiter_cancelled_gives_back_the_turn_it_was_given_and_waits_no_more():
    turns = Turns(1)

    async def main() -> None:
        await turns.take("a")
        b = asyncio.create_task(turns.take("b"))
        c = asyncio.create_task(turns.take("c"))
        await _settle()
        turns.give()  # b is given the turn, then cancelled before it runs
        b.cancel()
        await _settle()
        assert b.cancelled() and c.done()  # the turn went on to c
        d = asyncio.create_task(turns.take("d"))
        await _settle()
        d.cancel()  # cancelled while waiting: forgotten
        await _settle()
        assert turns.waiting() == []
        turns.give()

    run(main())
    assert turns.free == 1
