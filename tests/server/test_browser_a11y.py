"""The accessibility check: axe-core, the npm package installed by
.ci/run into tests/web/node_modules (``npm ci`` there; nothing fetched from a CDN),
injected by Playwright into the lobby, a game page of each game, a finished game's page and
a game page on a phone, finds no serious or critical violation; the board's labels read at
4.5:1 or better against their halo, and the phone's tap targets are 24 px or more."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_browser import browser, server, shot, wait_board  # noqa: F401 (fixtures)
from .test_browser import page  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

AXE = Path(__file__).resolve().parents[1] / "web" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = {"hy-breasil": {"turns": 2}, "brian-boru": {}, "brittania": {}, "version2": {"turn_limit": 4}}
PLAYERS = {"hy-breasil": 3, "brian-boru": 3, "brittania": 3, "version2": 3}


def axe_violations(page) -> list[dict]:
    """The serious and critical violations axe-core finds on the page as it is."""
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` in tests/web (.ci/run does)"
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
                          " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _game(server, game: str, seats: list[str]) -> tuple[str, str | None]:
    r = httpx.post(f"{server}/api/games", json={"game": game, "options": GAMES[game], "seed": 2, "seats": seats}, timeout=60)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], (data["seats"][0]["token"] if data["seats"] else None)


def test_the_lobby_passes_axe(server, page):
    page.goto(server + "/")
    page.wait_for_selector("#option-groups label")
    assert axe_violations(page) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_page_of_each_game_passes_axe(server, page, tmp_path, game):
    seats = ["human"] + ["auto" if game == "hy-breasil" else "random"] * (PLAYERS[game] - 1)
    gid, token = _game(server, game, seats)
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=20000)
    wait_board(page)
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=20000)
    assert axe_violations(page) == []
    contrast = float(page.evaluate("document.body.dataset.labelContrast"))
    assert contrast >= 4.5, contrast
    shot(page, f"a11y-{game}", tmp_path)


def test_a_finished_game_passes_axe(server, page, tmp_path):
    gid, _ = _game(server, "hy-breasil", ["auto", "auto", "random"])
    for _ in range(1200):
        if httpx.get(f"{server}/api/games/{gid}", timeout=60).json()["over"]:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the bots' game {gid} did not end within 1,200 looks (60 s and more)")
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}")
    page.wait_for_selector("#results:not([hidden])", timeout=20000)
    page.wait_for_selector("#results .path-chart[data-points]", timeout=60000)
    assert axe_violations(page) == []
    shot(page, "a11y-finished", tmp_path)


def _tapped(button) -> bool:
    """Tap ``button``; False if it went before it could be tapped: a push re-drew the
    decision between the look and the tap, and the loop looks again."""
    try:
        button.tap(timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


def test_a_phone_game_played_to_its_end(server, browser, tmp_path):
    """At 390 px: no page wider than the screen, every button a tap target of 24 px or
    more, the board zooms in and out by its buttons; a Hy Breasil game of two turns played
    to its end by taps on the page's buttons, the results shown."""
    gid, token = _game(server, "hy-breasil", ["human", "auto", "auto"])
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                              has_touch=True)
    pg = ctx.new_page()
    pg.add_init_script("localStorage.setItem('realms-pace', '0')")
    warnings: list[str] = []
    pg.on("dialog", lambda d: (warnings.append(d.message), d.accept()))  # "ending the movement now loses …"
    try:
        pg.goto(f"{server}/games/{gid}#token={token}")
        pg.wait_for_selector("#options button, #keep button", timeout=20000)
        wait_board(pg)
        pg.tap("button[aria-label='Zoom in']")
        pg.wait_for_function("Number(document.getElementById('board').dataset.zoom) > 1")
        pg.tap("button[aria-label='Whole board']")
        pg.wait_for_function("document.getElementById('board').dataset.zoom === '1.00'")
        small = pg.evaluate("""() => [...document.querySelectorAll('button, select, a, input')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim().slice(0, 20) || e.id, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 24)""")
        assert small == [], small
        for _ in range(600):
            if pg.evaluate("!!document.querySelector('#results:not([hidden])')"):
                break
            v = pg.evaluate("document.body.dataset.version")
            buttons = pg.locator("#keep button:visible, #options button.option:not(.hidden):visible")
            sources = pg.locator("#options button.source:visible")
            if pg.locator("#keep button:visible").count() == 0 and sources.count():
                if not _tapped(sources.first):  # a move that must be made: where from, then where to
                    continue
                pg.locator("#board .target").first.dispatch_event("click")
                pg.wait_for_function(f"document.body.dataset.version !== '{v}' && document.body.dataset.gesture === undefined",
                                     timeout=60000)
                continue
            if buttons.count() == 0:
                pg.wait_for_function(f"document.body.dataset.version !== '{v}' || "
                                     "!!document.querySelector('#results:not([hidden])') || "
                                     "document.querySelectorAll('#keep button, #options button.option').length > 0",
                                     timeout=60000)
                continue
            # a move: end it (the last kept button), else the first option
            keep = pg.locator("#keep button:visible")
            if not _tapped(keep.last if keep.count() else buttons.first):
                continue
            pg.wait_for_function(f"document.body.dataset.version !== '{v}' && document.body.dataset.gesture === undefined",
                                 timeout=60000)
        assert pg.locator("#results").is_visible()
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        shot(pg, "phone-finished", tmp_path)
    finally:
        ctx.close()
