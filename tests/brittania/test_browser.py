"""Brittania in a real browser (REALMS_BROWSER=1, Debian's chromium):
two people and ten bots play two turns.  Each person writes his orders in the page's order
form — his states on the map, his grain left, the orders listed before they are sent —
and sends them; sent orders stay hidden from the other person until the turn resolves
(BR-Q29), then the turn report (the chronicle) and the new map show."""

from __future__ import annotations

import time

import httpx
import pytest

from server.test_browser import browser, page, server, shot, state, wait_board  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

SETUP = ("br.start", "br.trait", "br.name")


def _awaited(server, gid, token, seat, kinds=None) -> dict:
    """The state once ``seat`` has a decision (of ``kinds``) pending, or the game is over."""
    for _ in range(600):
        s = state(server, gid, token)
        if s["over"] or any(d["player"] == seat and (kinds is None or d["kind"] in kinds) for d in s["pending"]):
            return s
        time.sleep(0.05)
    pytest.fail(f"seat {seat} was never asked")


def _shown(pg, s) -> None:
    pg.wait_for_function(f"Number(document.body.dataset.version) >= {s['version']}", timeout=15000)
    wait_board(pg)


def _changed(pg, version: int) -> None:
    pg.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=15000)


def _set_up(pg, server, gid, token, seat, start: str | None) -> None:
    """The person's starting state (clicked on the map when ``start`` is offered), trait
    and king's name, by the page's buttons."""
    while True:
        s = _awaited(server, gid, token, seat)
        d = next((d for d in s["pending"] if d["player"] == seat), None)
        if d is None or d["kind"] not in SETUP:
            return
        _shown(pg, s)
        if d["kind"] == "br.start" and start in [o["key"] for o in d["options"]]:
            pg.locator(f"#board #area-{start}").dispatch_event("click")
        else:
            pg.locator("#options button.option").first.click()
        _changed(pg, s["version"])
        if d["kind"] == "br.name":                                # the last of the seat's setup
            return


def _to_orders(people: dict, server, gid, seat) -> dict:
    """The state once ``seat`` is asked for his orders, or the game is over.  Meanwhile
    each person (``people``: seat → his page and token) answers by his page's first button
    what comes before: a capital captured is declared again, and the colour of a person
    eliminated is offered to a newcomer at the turn's start (BR-Q30), a question of that
    seat's which the whole table waits for, so the other person's is answered too."""
    pg, token = people[seat]
    for _ in range(600):
        s = state(server, gid, token)
        if s["over"] or any(d["player"] == seat and d["kind"] == "br.order" for d in s["pending"]):
            _shown(pg, s)
            return s
        for p, (ppg, ptoken) in people.items():
            ps = state(server, gid, ptoken)
            d = next((d for d in ps["pending"] if d["player"] == p), None)
            if d is not None and d["kind"] != "br.order":
                _shown(ppg, ps)
                ppg.locator("#options button.option").first.click()
                _changed(ppg, ps["version"])
                break
        else:
            time.sleep(0.05)
    pytest.fail(f"seat {seat} was never asked for his orders")


def _add(pg, key: str, amount: int | str | None = None) -> int:
    """Pick the order ``key``, give it ``amount`` (``"min"``: the least the form allows;
    None: what the form proposes) and add it to the list; the amount added."""
    pg.select_option("#order-pick", key)
    if amount == "min":
        amount = int(pg.get_attribute("#order-amount", "min"))
    if amount is not None:
        pg.fill("#order-amount", str(amount))
    given = int(pg.input_value("#order-amount") or 0)
    n = pg.locator("#order-list li:not(.muted)").count()
    pg.click("#order-add")
    pg.wait_for_function(f"document.querySelectorAll('#order-list li:not(.muted)').length === {n + 1}")
    return given


def _send(pg) -> None:
    pg.evaluate("delete document.body.dataset.sent")
    pg.click("#order-send")
    pg.wait_for_function("document.body.dataset.sent !== undefined", timeout=30000)
    assert pg.evaluate("document.body.dataset.sent") == "yes", pg.inner_text("#error")


def test_two_people_and_ten_bots_play_two_turns(server, browser, page, tmp_path):
    seats = ["human", "human"] + ["steward", "random"] * 5
    r = httpx.post(f"{server}/api/games", json={"game": "brittania", "options": {"turns": 2}, "seats": seats}, timeout=60)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    ann, bob = (s["token"] for s in r.json()["seats"])
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    other = ctx.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/games/{gid}#token={ann}")
        other.goto(f"{server}/games/{gid}#token={bob}")
        _set_up(page, server, gid, ann, 0, "kent")
        _set_up(other, server, gid, bob, 1, None)
        people = {0: (page, ann), 1: (other, bob)}
        for pg in (page, other):  # "send no orders at all?" when none are written: one handler a page
            pg.on("dialog", lambda d: d.accept())

        # turn 1: Ann writes two orders in the form; nothing is sent before she sends them
        s = _awaited(server, gid, ann, 0, {"br.order"})
        assert s["view"]["turn"] == 1 and s["view"]["players"][0]["capital"] == "kent"
        _shown(page, s)
        assert page.locator("#board polygon[id^='area-']").count() == 81
        grain = s["view"]["grain_left"]
        assert f"{grain} grain left to spend" in page.inner_text("#order-left")
        _add(page, "defend:kent", 3)
        cost = _add(page, "invest:kent", "min")                   # one point of output
        assert f"{grain - 3 - cost} grain left to spend" in page.inner_text("#order-left")
        listed = page.inner_text("#order-list")
        assert "Defend Kent: 3 grain" in listed and f"Invest in Kent: {cost} grain" in listed
        assert state(server, gid, ann)["view"]["orders"] == []    # listed, not sent
        shot(page, "brittania-orders-written", tmp_path)
        _send(page)
        mine = state(server, gid, ann)
        assert [(o["kind"], o["grain"]) for o in mine["view"]["orders"]] == [("defend", 3), ("invest", cost)]
        assert mine["pending"] == []
        assert any(x in page.inner_text("#status") for x in ("Your orders are sent", "Waiting for"))

        # Bob sees that Ann has sent, never what; he picks an order by clicking the map
        s = _awaited(server, gid, bob, 1, {"br.order"})
        assert s["view"]["players"][0]["sent"] and "kent" not in str(s["view"]["orders"])
        _shown(other, s)
        assert "Kent: 3" not in other.inner_text("#panels") and "defend" not in other.inner_text("#chronicle")
        target = next(o["key"] for o in s["pending"][0]["options"] if o["key"].startswith("conquer:"))
        other.locator(f"#board #area-{target.split(':')[1]}").dispatch_event("click")
        other.wait_for_function(f"document.querySelector('#order-pick').value.endsWith(':{target.split(':')[1]}')")
        picked = other.evaluate("document.querySelector('#order-pick').value")
        n = other.locator("#order-list li:not(.muted)").count()
        other.click("#order-add")
        other.wait_for_function(f"document.querySelectorAll('#order-list li:not(.muted)').length === {n + 1}")
        _send(other)

        # the turn resolved: both orders revealed in the turn report, the map redrawn
        s = _to_orders(people, server, gid, 0)
        assert s["view"]["turn"] == 2
        told = "\n".join(s["chronicle"])                          # the page shows its last lines
        assert f"P1 orders: 3 grain to defend Kent; {cost} grain to invest in Kent." in told
        bobs = next(line for line in s["chronicle"] if line.startswith("P2 orders:"))
        assert picked.split(":")[1].replace("_", " ") in bobs.lower().replace("-", " ")
        # the bots' orders for turn 2 are sent after the turn begins (after a newcomer's
        # question, when a person was wiped out in turn 1), and pushed to the page then
        page.wait_for_function("document.querySelector('#chronicle').innerText"
                               ".includes('has sent the orders for turn 2')", timeout=60000)
        if s["view"]["states"]["kent"]["owner"] == 0:             # unless a bot took it
            assert s["view"]["states"]["kent"]["output"] == 11
        else:
            assert "grain for Kent are lost with the state" in told
        shot(page, "brittania-turn-2", tmp_path)

        # turn 2: Ann sends no orders, Bob an investment; the game ends after its last turn
        _send(page)
        s = _to_orders(people, server, gid, 1)
        home = s["view"]["players"][1]["capital"]
        if other.locator(f"#order-pick option[value='invest:{home}']").count():
            _add(other, f"invest:{home}")
        _send(other)
        s = _to_orders(people, server, gid, 0)                    # no turn 3: the game ends
        assert s["over"] and s["view"]["turn"] == 2
        page.wait_for_function("document.getElementById('status').textContent.startsWith('The game is over')",
                               timeout=15000)
        assert "P1 orders: nothing." in "\n".join(s["chronicle"])
        shot(page, "brittania-over", tmp_path)
    finally:
        ctx.close()
    assert not errors, errors


def test_the_chronicle_names_seats_by_name_with_their_swatch_in_the_palette_shown(server, page):
    """The chronicle names a seat by its name, never by its colour (which another palette
    changes), and draws the seat's swatch beside the line in the palette the page shows:
    under Okabe–Ito the first seat's swatch is that palette's first colour, as its states on
    the board are; back on the game's colours, it is the rules post's colour again."""
    r = httpx.post(f"{server}/api/games", json={"game": "brittania", "options": {"players": 3}, "seed": 5,
                                                "seats": ["human", "random", "random"]}, timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    s = _awaited(server, gid, token, 0)
    while not s["over"] and s["pending"] and s["pending"][0]["kind"] in SETUP:
        d = next(d for d in s["pending"] if d["player"] == 0)
        httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {token}"},
                   json={"key": d["options"][0]["key"], "version": s["version"]}, timeout=60)
        s = _awaited(server, gid, token, 0)
    page.add_init_script("localStorage.setItem('realms-pace', '0'); localStorage.setItem('realms-palette', 'okabe-ito')")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=20000)
    wait_board(page)
    names = [p["name"] for p in s["view"]["players"]]
    colours = {p["colour"] for p in s["view"]["players"]}
    line = page.locator("#chronicle li", has_text=f"{names[0]} begins in").first
    text = line.inner_text()
    assert not any(c in text for c in colours), text
    okabe = page.evaluate("async () => (await import('/static/palette.js')).PALETTES.find(([id]) => id === 'okabe-ito')[2]")
    fill = lambda: line.locator("svg.chron-swatch rect").get_attribute("fill").lower()  # noqa: E731
    assert line.locator("svg.chron-swatch").get_attribute("data-seat") == "0"
    assert fill() == okabe[0].lower()
    board = {c.lower() for c in page.locator("#board [data-seat='0']").evaluate_all("es => es.map((e) => e.getAttribute('fill'))")}
    assert okabe[0].lower() in board
    page.select_option("#pace-box select.palette", "game")
    page.wait_for_function("document.body.dataset.palette === 'game'")
    game_colours = page.evaluate(f"async () => (await (await fetch('/api/catalog')).json())")
    ours = next(g for g in (game_colours.get("games") or game_colours) if g.get("id") == "brittania")
    assert fill() == ours["palette"][0].lower()
