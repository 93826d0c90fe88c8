"""Brittania's turn deadline in a real browser (REALMS_BROWSER=1, Debian's chromium; issue
16 part 5): the page shows the time left to send the turn's orders, counted down each
second, and says "deadline passed" when the server ended the turn at its deadline.  The
server runs in this process (uvicorn in a thread) so that its deadlines' clock can be
moved forward instead of waiting two minutes."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from realms.server.app import create_app
from server.test_browser import browser, page, shot  # noqa: F401 (fixtures)
from server.test_durability import served_in_thread

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]


class Shifted:
    """The wall clock, moved forward by ``shift`` seconds."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift


@pytest.fixture
def served(tmp_path):
    clock = Shifted()
    with served_in_thread(create_app(str(tmp_path / "realms.db"), clock=clock)) as url:
        yield url, clock


def test_the_page_counts_down_to_the_deadline_and_says_when_it_passed(served, page, tmp_path):
    url, clock = served
    made = time.time()                              # the round cannot begin before this
    r = httpx.post(f"{url}/api/games", json={"game": "brittania", "options": {"turns": 2, "deadline_minutes": 2},
                                             "seats": ["human", "steward"], "seed": 5}, timeout=60)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    until = time.monotonic() + 60                   # the setup, by the API: the first option each time
    while True:
        s = httpx.get(f"{url}/api/games/{gid}", headers=auth, timeout=60).json()
        mine = [d for d in s["pending"] if d["player"] == 0]
        if mine and mine[0]["kind"] == "br.order":
            break
        if time.monotonic() > until:
            pytest.fail(f"P1 not asked for turn 1's orders within 60 s: pending {s['pending']}")
        if mine:
            httpx.post(f"{url}/api/games/{gid}/answers", headers=auth,
                       json={"key": mine[0]["options"][0]["key"], "version": s["version"]}, timeout=60)
        else:
            time.sleep(0.05)
    assert s["view"]["turn"] == 1 and s["deadline"]["passed"] is False
    # two minutes from when the round began: after the game was made, by the state just read
    assert made + 120 <= s["deadline"]["at"] <= time.time() + 120

    page.goto(f"{url}/games/{gid}#token={token}")
    page.wait_for_function("document.getElementById('deadline') && !document.getElementById('deadline').hidden",
                           timeout=15000)
    assert re.fullmatch(r"deadline in [12]:\d\d", page.inner_text("#deadline"))
    left = int(page.get_attribute("#deadline", "data-left"))
    # the page's count goes down once a second (a loaded machine may hold its timer back)
    page.wait_for_function(f"Number(document.getElementById('deadline').dataset.left) < {left}", timeout=30000)
    shot(page, "brittania-deadline-countdown", tmp_path)

    clock.shift = 125                               # the server's deadline passes; the page is told
    page.wait_for_function("document.getElementById('deadline').textContent.includes('deadline passed')",
                           timeout=15000)
    s = httpx.get(f"{url}/api/games/{gid}", headers=auth, timeout=60).json()
    assert s["view"]["turn"] == 2 and s["deadline"]["passed"] is True
    assert "P1 orders: nothing." in "\n".join(s["chronicle"])
    page.wait_for_function(f"Number(document.body.dataset.version) >= {s['version']}", timeout=15000)
    assert re.fullmatch(r"the last deadline passed · the next in \d:\d\d", page.inner_text("#deadline"))
    shot(page, "brittania-deadline-passed", tmp_path)
