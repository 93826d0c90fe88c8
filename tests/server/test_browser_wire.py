"""The game page on the wire: each version's board is asked for once (not again by each
part of the page that wants it while it is on its way), and the game's state is asked for
without waiting on the catalog (the page shows the game before the catalog answers)."""

from __future__ import annotations

import httpx
import pytest

from .test_browser import browser, server, wait_board  # noqa: F401 (fixtures)
from .test_browser import page  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]


def test_each_version_s_board_is_fetched_once_and_the_game_does_not_wait_for_the_catalog(server, page):
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seed": 7,
                                                "seats": ["human", "auto", "auto"]}, timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    boards: list[str] = []
    page.on("request", lambda rq: boards.append(rq.url.split("?")[-1]) if "board.svg" in rq.url else None)
    held = []
    # the catalog held back until the game's state is shown
    page.route("**/api/catalog", lambda route: held.append(route))
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=20000)
    wait_board(page)
    assert held, "the page never asked for the catalog"
    # the decision comes once the bots have played up to it, the catalog still held back
    page.wait_for_selector("#options button, #keep button", timeout=60000)
    held[0].continue_()
    page.wait_for_function("document.getElementById('title').textContent.startsWith('Hy Breasil')", timeout=20000)
    assert page.title().endswith("Hy Breasil — realms")
    page.wait_for_timeout(300)
    assert len(boards) == len(set(boards)), f"a board fetched more than once: {boards}"
