"""The bots' process is given out fairly (``server/fairshare.py``): a person's game before
a bots-only game, the addresses in turn; and bots-only games are bounded where they are
created, per address and in all."""

from __future__ import annotations

import asyncio

from realms.server import fairshare
from realms.server.fairshare import FairShare


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_persons_game_goes_first_and_addresses_take_turns():
    async def main():
        fair, order, release = FairShare(), [], asyncio.Event()

        async def batch(name: str, people: bool, owner: str, hold: asyncio.Event | None = None):
            async with fair.turn(people, owner):
                order.append(name)
                if hold is not None:
                    await hold.wait()

        first = asyncio.create_task(batch("a0", False, "A", release))
        await _settle()
        # one address's many bots-only batches asked first, then another's, then a person's game
        later = [asyncio.create_task(batch(n, p, o)) for n, p, o in
                 [("a1", False, "A"), ("a2", False, "A"), ("a3", False, "A"), ("b1", False, "B"), ("p1", True, "C")]]
        await _settle()
        assert order == ["a0"]
        release.set()
        await asyncio.wait_for(asyncio.gather(first, *later), 60)
        return order

    assert asyncio.run(main()) == ["a0", "p1", "a1", "b1", "a2", "a3"]


def test_a_waiter_that_leaves_does_not_hold_the_turn():
    async def main():
        fair, order, release = FairShare(), [], asyncio.Event()

        async def batch(name: str, hold: asyncio.Event | None = None):
            async with fair.turn(True, name):
                order.append(name)
                if hold is not None:
                    await hold.wait()

        first = asyncio.create_task(batch("x", release))
        await _settle()
        gone, after = asyncio.create_task(batch("gone")), asyncio.create_task(batch("after"))
        await _settle()
        gone.cancel()
        await _settle()
        release.set()
        await asyncio.wait_for(asyncio.gather(first, after), 60)
        return order

    assert asyncio.run(main()) == ["x", "after"]


BOTS_ONLY = {"game": "hy-breasil", "options": {"turns": 2}, "seats": ["auto", "auto"]}


def test_bots_only_games_are_bounded_per_address_and_in_all(client, monkeypatch):
    server = client.app.state.server
    monkeypatch.setattr(server, "continue_bots", lambda live: None)  # the games stay unfinished
    monkeypatch.setattr(fairshare, "PER_ADDRESS", 1)
    first = client.post("/api/games", json=BOTS_ONLY)
    assert first.status_code == 201, first.text
    second = client.post("/api/games", json=BOTS_ONLY)
    assert second.status_code == 429 and "games of bots alone playing" in second.json()["detail"]
    person = client.post("/api/games", json={**BOTS_ONLY, "seats": ["human", "auto"]})
    assert person.status_code == 201, "a game a person plays is not bounded so"
    monkeypatch.setattr(fairshare, "PER_ADDRESS", 5)
    monkeypatch.setattr(fairshare, "TOTAL", 1)
    total = client.post("/api/games", json=BOTS_ONLY)
    assert total.status_code == 429 and "the server plays 1 games of bots alone" in total.json()["detail"]


def test_new_games_are_set_up_one_at_a_time(client, monkeypatch):
    """A game's setup may cost seconds of CPU (Hy Breasil's ``map_seed``): however many
    creations come at once, one is set up at a time beside the event loop."""
    import threading

    server = client.app.state.server
    real = server._create_sync
    inside, most, lock, second = [0], [0], threading.Lock(), threading.Event()

    def counted(body):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            if inside[0] > 1:
                second.set()
        try:
            second.wait(1.5)  # a second setup beside this one would be in by then
            return real(body)
        finally:
            with lock:
                inside[0] -= 1

    monkeypatch.setattr(server, "_create_sync", counted)
    body = {**BOTS_ONLY, "seats": ["human", "auto"]}
    codes = []
    threads = [threading.Thread(target=lambda: codes.append(client.post("/api/games", json=body).status_code))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert codes == [201, 201] and most[0] == 1
