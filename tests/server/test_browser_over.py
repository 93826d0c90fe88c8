"""A finished game's page as a newcomer sees it (REALMS_BROWSER=1, Debian's chromium): no
battle panel opened by itself nor made of an event that names no sides, the decision's
heading saying there is none, the score chart in the seats' colours of the board with
every turn on its axis and its labels whole, the chronicle's top line whole and its
battle lines apart from their neighbours; a game's panel telling what it tells as text,
not as buttons.

Nothing here waits for a time to pass: the tests wait, with generous bounds, for the
game's bots to finish and for what the page says it did in ``data-`` attributes."""

from __future__ import annotations

import time

import httpx
import pytest

from .test_browser import browser, page, server, wait_board  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]


def _finished(server, game: str, seats: list[str], options: dict | None = None, seed: int = 3) -> str:
    """An all-bot game played to its end; its id."""
    r = httpx.post(f"{server}/api/games", json={"game": game, "seats": seats, "seed": seed,
                                                "options": options or {}}, timeout=60)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for _ in range(2400):  # at most 120 s, in steps of 0.05 s
        if httpx.get(f"{server}/api/games/{gid}", timeout=60).json()["over"]:
            return gid
        time.sleep(0.05)
    pytest.fail(f"the bots of {game} game {gid} did not finish within 120 s")


def _open(page, server, gid: str) -> None:
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("document.body.dataset.events !== undefined && document.body.dataset.version", timeout=60000)
    wait_board(page)
    page.wait_for_function("document.querySelector('.path-chart')?.dataset.points", timeout=60000)


def test_a_finished_brian_boru_opens_no_battle_panel_and_says_no_decision(server, page):
    """Brian Boru's Viking fleet is an event with no sides: no battle of placeholder names
    ("the attacker attack the defender"), no panel opened by itself; a spectator of a
    finished game is told there is no decision."""
    gid = _finished(server, "brian-boru", ["greedy", "greedy", "greedy"])
    _open(page, server, gid)
    page.wait_for_function("document.querySelector('#chronicle').children.length > 0", timeout=60000)
    assert page.locator("#battle-panel").is_hidden()
    assert "the attacker" not in page.inner_text("#chronicle")
    assert page.inner_text("#decision-head") == "No decision: the game is over"


def test_the_score_chart_is_in_the_boards_colours_with_every_turn_and_whole_labels(server, page):
    """version²'s chart: each seat's line in its colour on the map (the game's palette,
    then a palette chosen), the turns 0, 1, 2 … all on the axis, "end" not cut; how the
    game ended said in words, not by the game's code for it ("limit")."""
    gid = _finished(server, "version2", ["random", "random"], {"turn_limit": 4})
    _open(page, server, gid)
    palette = [g for g in httpx.get(f"{server}/api/catalog", timeout=60).json()["games"] if g["id"] == "version2"][0]["palette"]
    strokes = page.evaluate("[...document.querySelectorAll('.path-chart polyline')].map((l) => l.getAttribute('stroke'))")
    assert [c.lower() for c in strokes] == [c.lower() for c in palette[:2]]
    labels = page.evaluate("[...document.querySelectorAll('.path-chart text[text-anchor=middle]')].map((t) => t.textContent)")
    turns = [int(t) for t in labels if t.isdigit()]
    assert turns == list(range(turns[0], turns[0] + len(turns))), labels
    assert labels[-1] == "end"
    inside = page.evaluate("""() => {
      const svg = document.querySelector('.path-chart svg').getBoundingClientRect();
      return [...document.querySelectorAll('.path-chart svg text')].every((t) => {
        const r = t.getBoundingClientRect(); return r.left >= svg.left - 0.5 && r.right <= svg.right + 0.5; });
    }""")
    assert inside, "a label of the chart is cut at its edge"
    won = page.inner_text("#results .winner")
    assert "(limit" not in won and any(w in won for w in ("turn limit reached", "last player left", "mission fulfilled")), won
    page.select_option("#pace-box select.palette", "okabe-ito")
    strokes = page.evaluate("[...document.querySelectorAll('.path-chart polyline')].map((l) => l.getAttribute('stroke'))")
    assert [c.lower() for c in strokes] == ["#e69f00", "#56b4e9"]


def test_the_chronicles_top_line_is_whole_and_its_battle_lines_apart(server, page):
    """Hy Breasil's finished chronicle, scrolled to its end: the top line shown whole, and
    no line (a battle's button) over another."""
    gid = _finished(server, "hy-breasil", ["greedy", "greedy", "greedy"], {"turns": 2})
    _open(page, server, gid)
    page.wait_for_function("document.querySelector('#chronicle li.battle')", timeout=60000)
    found = page.evaluate("""() => {
      const ol = document.querySelector('#chronicle');
      const box = ol.getBoundingClientRect();
      const lis = [...ol.children].map((li) => li.getBoundingClientRect());
      const cut = lis.filter((r) => r.top < box.top - 0.5 && r.bottom > box.top + 0.5).length;
      let overlaps = 0;
      for (let i = 1; i < lis.length; i++) if (lis[i].top < lis[i - 1].bottom - 0.5) overlaps++;
      const buttons = [...ol.querySelectorAll('li.battle')].filter((li) => {
        const b = li.querySelector('button').getBoundingClientRect(), r = li.getBoundingClientRect();
        return b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5; }).length;
      return { cut, overlaps, buttons, scrolled: ol.scrollTop > 0 };
    }""")
    assert found == {"cut": 0, "overlaps": 0, "buttons": 0, "scrolled": True}, found


def test_a_panels_items_read_as_information_not_buttons(server, page):
    """Brittania's Grain panel tells the grain in store: its items have no frame of a
    button and no pointer."""
    r = httpx.post(f"{server}/api/games", json={"game": "brittania", "seats": ["human", "random", "random"], "seed": 3},
                   timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.querySelector('#panels .hand span')", timeout=60000)
    looks = page.evaluate("""[...document.querySelectorAll('#panels .hand span')].map((s) => {
      const c = getComputedStyle(s); return [c.borderTopStyle, c.cursor, c.display]; })""")
    assert looks and all(x == ["none", "default", "inline"] for x in looks), looks
