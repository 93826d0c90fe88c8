"""The game's table in a real browser (REALMS_BROWSER=1, Debian's chromium): two people in
one game see each seat's clock, exchange a message to everyone and a private one, and
see the host pause the clocks and end the game; the lobby makes a game with a clock and gives the host's
link.  The server runs in this process (uvicorn in a thread)."""

from __future__ import annotations

import os
import re
import time

import httpx
import pytest

from realms.server import app as app_module
from realms.server.app import create_app

from .test_browser import browser, page, shot  # noqa: F401 (fixtures)
from .test_deadlines import Clock
from .test_durability import served_in_thread

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(os.environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]


@pytest.fixture
def served(tmp_path):
    """The app on a fresh database, served by uvicorn in a thread: its URL, and None."""
    with served_in_thread(create_app(str(tmp_path / "realms.db"))) as url:
        yield url, None


@pytest.fixture
def second(browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def test_two_people_talk_and_see_the_clock(served, page, second, tmp_path):  # noqa: F811
    url, _ = served
    r = httpx.post(f"{url}/api/games", json={"game": "version2", "seats": ["human", "human"],
                                             "table": {"clock": {"kind": "turn", "minutes": 90}, "talk": "full"}}, timeout=60)
    assert r.status_code == 201, r.text
    made = r.json()
    gid, host = made["id"], made["host"]
    ann, bob = (s["token"] for s in made["seats"])
    page.goto(f"{url}/games/{gid}#token={ann}")
    second.goto(f"{url}/games/{gid}#token={bob}")
    for pg in (page, second):
        pg.wait_for_selector("#table-clock .seat-clock", timeout=30_000)
    # the seat awaited has about an hour and a half, counted down on both pages (each told
    # by its own push when the watcher starts the turn's clock: the one seen first on one
    # page may not have reached the other yet)
    for pg in (page, second):
        pg.wait_for_function("[...document.querySelectorAll('#table-clock .seat-clock')]"
                             ".some(e => Number(e.dataset.left) > 5000 && Number(e.dataset.left) <= 5400)",
                             timeout=30_000)
    assert re.search(r"P\d: 1:(29|30):\d\d", second.inner_text("#table-clock")), second.inner_text("#table-clock")
    # the tab of the seat awaited says it is its turn; the other's does not
    awaited = httpx.get(f"{url}/api/games/{gid}", timeout=60).json()["awaiting"]
    mine, theirs = (page, second) if awaited == [0] else (second, page)
    mine.wait_for_function("document.title.startsWith('▶ your turn')", timeout=30_000)
    assert not theirs.title().startswith("▶")

    page.fill("#talk-text", "hello <b>bob</b>")
    page.click("#talk-send")
    second.wait_for_function("document.getElementById('talk-log').textContent.includes('hello <b>bob</b>')",
                             timeout=30_000)
    assert second.locator("#talk-log b", has_text="bob").count() == 0   # shown as text, not markup
    second.select_option("#talk-to", "0")
    second.fill("#talk-text", "just for ann")
    second.click("#talk-send")
    page.wait_for_function("document.getElementById('talk-log').textContent.includes('just for ann')",
                           timeout=30_000)
    assert "(private)" in page.inner_text("#talk-log")
    shot(page, "table-talk", tmp_path)

    r = httpx.post(f"{url}/api/games/{gid}/host", headers={"Authorization": f"Bearer {host}"},
                   json={"action": "pause"}, timeout=60)
    assert r.status_code == 200
    for pg in (page, second):
        pg.wait_for_function("document.getElementById('table-clock').textContent.includes('PAUSED')",
                             timeout=30_000)

    # the host ends the game: both pages say so, and the talk form goes
    r = httpx.post(f"{url}/api/games/{gid}/host", headers={"Authorization": f"Bearer {host}"}, json={"action": "end"}, timeout=60)
    assert r.status_code == 200
    for pg in (page, second):
        pg.wait_for_function("document.getElementById('table-bots').textContent.includes('host ended')",
                             timeout=30_000)
        assert pg.locator("#talk-form").is_hidden()
        # shown ended, with the table as it stood and a rematch, as a game played out
        pg.wait_for_function("document.querySelector('#results h2')?.textContent === 'The host ended the game'",
                             timeout=30_000)
        assert "The table as it stood" in pg.inner_text("#results")
        assert pg.inner_text("#decision-head") == "No decision: the game is over"
        assert pg.locator("#rematch").is_visible()
    page.click("#rematch")
    page.wait_for_function(f"location.pathname.startsWith('/games/') && location.pathname !== '/games/{gid}'",
                           timeout=30_000)


def test_the_lobby_makes_a_game_with_a_clock_and_gives_the_hosts_link(served, page):  # noqa: F811
    url, _ = served
    page.goto(url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#clock-kind", "turn")
    page.fill("#clock-minutes", "30")
    page.click("#create-button")
    host = page.locator("#host-link")
    host.wait_for(timeout=30_000)
    href = host.get_attribute("href")
    gid, token = href.split("/games/")[1].split("#host=")
    view = httpx.get(f"{url}/api/games/{gid}/table", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    assert view["host"] is True and view["clock"]["kind"] == "turn" and view["clock"]["minutes"] == 30
    page.goto(href)
    page.wait_for_selector("#host-box:not([hidden])", timeout=30_000)
    page.click("#host-pause")
    page.wait_for_function("document.getElementById('table-clock').textContent.includes('PAUSED')",
                           timeout=30_000)


def test_a_person_who_answers_takes_their_seat_back_and_the_page_says_so(tmp_path, page, monkeypatch):  # noqa: F811
    """Two missed turns (the table's clock moved by the test, the watcher looking every
    50 ms) and the bot holds P1's seat: P1's page offers the button or an answer; P1
    answers, and the page says the seat was taken back by answering.  One deal (seed 5:
    the game lasts past the bot's taking the seat)."""
    monkeypatch.setattr(app_module, "secret_seed", lambda: 5)
    clock = Clock()
    app = create_app(str(tmp_path / "realms.db"), clock=clock, table_every=0.05)
    with served_in_thread(app) as url:
        r = httpx.post(f"{url}/api/games", json={"game": "version2", "seats": ["human", "human"],
                                                 "table": {"clock": {"kind": "turn", "minutes": 60, "misses": 2}}},
                       timeout=60)
        assert r.status_code == 201, r.text
        gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
        page.goto(f"{url}/games/{gid}#token={tokens[0]}")

        def get(path: str, seat: int | None = None) -> dict:
            headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {}
            return httpx.get(f"{url}/api/games/{gid}{path}", headers=headers, timeout=60).json()

        def until(what: str, ok) -> None:  # the watcher's look, waited for within 60 s
            for _ in range(1200):
                if ok():
                    return
                time.sleep(0.05)
            pytest.fail(f"not seen within 60 s: {what}")

        for _ in range(20):
            if "0" in get("/table")["bots"]:
                break
            st = get("")
            assert not st["over"], "the game ended before the bot took P1's seat"
            seat = st["awaiting"][0]
            until(f"P{seat + 1}'s turn begun", lambda: get("/table")["clock"]["seats"][seat]["left"] is not None)
            if seat == 1:  # P2 answers in time
                mine = get("", 1)
                httpx.post(f"{url}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {tokens[1]}"},
                           json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]}, timeout=60)
            else:  # P1's hour passes
                v = st["version"]
                clock.now += 3600
                until("P1's missed turn played", lambda: get("")["version"] != v)
        else:
            pytest.fail("the bot did not take P1's seat after 20 turns")
        page.wait_for_function("document.querySelector('#seat-back') !== null", timeout=30_000)
        assert "your answer takes it back" in page.inner_text("#table-bots")
        st = get("", 0)
        httpx.post(f"{url}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {tokens[0]}"},
                   json={"key": (st["pending"] or [{"options": [{"key": "end"}]}])[0]["options"][0]["key"],
                         "version": st["version"]}, timeout=60)
        page.wait_for_function("document.querySelector('#table-bots [data-back=\"0\"]') !== null", timeout=30_000)
        assert "You took your seat back from the bot" in page.inner_text("#table-bots")
        assert page.locator("#seat-back").count() == 0
        assert get("/table")["bots"] == {}
