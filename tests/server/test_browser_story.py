"""The game page shows the game as it happens, in a real browser
(REALMS_BROWSER=1, Debian's chromium): a battle round by round with its dice and exact
odds, others' moves played back event by event, the whole chronicle filtered and folded,
clicks through labels, the results panel and a rematch, a request failing offline.

Nothing here waits for a time to pass: the page says what it did in ``data-`` attributes
of its body (``data-playing``, ``data-played``, ``data-battle`` …) and the tests wait for
those, with generous bounds, and say what they waited for."""

from __future__ import annotations

import time

import httpx
import pytest

from .test_browser import browser, server, shot, state, wait_board  # noqa: F401 (fixtures)
from .test_browser import page  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

AT_ONCE = "localStorage.setItem('realms-pace', '0')"


def _events(server, gid, token=None) -> list[dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{server}/api/games/{gid}/events", headers=headers, timeout=60).json()["events"]


def _open(page, server, gid, token, version, pace: str = AT_ONCE) -> None:
    page.add_init_script(pace)
    page.goto(f"{server}/games/{gid}" + (f"#token={token}" if token else ""))
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=20000)
    wait_board(page)
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=20000)


def _hb_game(server, seed: int, seats=("human", "auto", "auto")) -> tuple[str, str]:
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seed": seed,
                                                "seats": list(seats)}, timeout=60)
    return r.json()["id"], r.json()["seats"][0]["token"]


def _in_battle(s) -> bool:
    return bool(s["pending"]) and s["pending"][0]["kind"] in ("hb.retreat", "hb.assign-hits")


def _play(server, gid, token, stop, pick=lambda d, i: 0) -> dict:
    """Answer through the API (option ``pick(decision, i)`` at the ``i``-th answer) until
    ``stop(state)``; that state.  Fails at once if the game ends first."""
    for i in range(3000):
        s = state(server, gid, token)
        if stop(s):
            return s
        assert not s["over"], "the game ended before the position looked for"
        if not s["pending"]:  # the bots are still playing
            time.sleep(0.05)
            continue
        d = s["pending"][0]
        httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {token}"},
                   json={"key": d["options"][pick(d, i)]["key"], "version": s["version"]}, timeout=60)
    pytest.fail("the position looked for never came")


def _attacking(d, i) -> int:
    """Move units as far down the list as possible (toward others' land), two moves in three."""
    return len(d["options"]) - 1 if d["kind"] == "hb.move" and i % 3 else 0


def test_a_battle_seen_round_by_round_with_its_dice_and_exact_odds(server, page, tmp_path):
    """a battle the person fights is in its panel: each round's dice as dice (as
    many as the chronicle's round lines rolled, hits marked), the retreat offer named by
    its round, the exact odds of the game's calculator; "Stay and fight" adds a round or
    the result; the chronicle keeps one line for the battle that opens the panel."""
    gid, token = _hb_game(server, 7)
    s = _play(server, gid, token, _in_battle, _attacking)
    _open(page, server, gid, token, s["version"])
    events = _events(server, gid, token)
    opened = [e for e in events if e.get("battle", {}).get("open")][-1]
    rounds = [e for e in events if e["n"] > opened["n"] and e.get("battle", {}).get("round")
              and e["battle"]["area"] == opened["battle"]["area"]]
    page.wait_for_function(f"document.body.dataset.battle === '{opened['n']}'", timeout=20000)
    panel = page.locator("#battle-panel")
    assert panel.is_visible()
    assert panel.locator(".battle-round").count() == len(rounds) >= 1
    last = rounds[-1]["battle"]
    dice = panel.locator(".battle-round").last.locator("svg.die")
    assert dice.count() == len(last["dice"][0]) + len(last["dice"][1])
    assert panel.locator(".battle-round").last.locator("svg.die.hit").count() == sum(last["hits"]) or \
        s["view"]["battle"].get("city")  # a city's die hits on the plain number
    values = [int(v) for v in dice.evaluate_all("ds => ds.map(d => d.dataset.value)")]
    assert values == last["dice"][0] + last["dice"][1]
    if s["pending"][0]["kind"] == "hb.retreat":
        assert f"After round {last['round']}" in panel.locator(".battle-now").inner_text()
    page.wait_for_selector("#battle-panel .battle-odds[data-ready='yes']", timeout=60000)
    odds = httpx.get(f"{server}/api/games/{gid}/odds", params={"event": rounds[-1]["n"]},
                     headers={"Authorization": f"Bearer {token}"}, timeout=60).json()["odds"]
    shown = page.locator("#battle-panel .battle-odds li .p").all_inner_texts()
    assert len(shown) == len([p for p in odds.values() if p > 0])
    assert f"{100 * odds['attacker takes area']:.1f}%" in shown or odds["attacker takes area"] in (0, 1)
    shot(page, "battle-panel", tmp_path)
    # the next answer (stay and fight, or the hits' fall) moves the battle on in the panel
    before = len(rounds)
    page.on("dialog", lambda d: d.accept())
    for _ in range(6):  # the defender's "stay" may lead to the attacker's question: no die yet
        v = int(page.evaluate("document.body.dataset.version"))
        page.locator("#keep button, #options button.option").first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {v}", timeout=20000)
        later = _play(server, gid, token, lambda x: x["over"] or bool(x["pending"]))
        page.wait_for_function(f"Number(document.body.dataset.version) >= {later['version']}", timeout=20000)
        if len(_events(server, gid, token)) > len(events) or not _in_battle(later):
            break
    page.wait_for_function(f"Number(document.body.dataset.events) > {len(events)}", timeout=20000)
    page.wait_for_function(f"document.body.dataset.battle === '{opened['n']}' && "
                           f"(Number(document.body.dataset.battleRounds) > {before} || "
                           "!!document.querySelector('#battle-panel .battle-result'))", timeout=20000)
    # the chronicle: one line per battle; it opens the same panel
    page.locator("#battle-panel .battle-close").click()
    assert not panel.is_visible()
    line = page.locator("#chronicle li.battle button", has_text=opened["battle"]["sides"][0]).last
    line.click()
    assert panel.is_visible()
    shot(page, "battle-panel-from-chronicle", tmp_path)


def test_a_bot_turn_played_back_event_by_event(server, page, tmp_path):
    """once the person's answer hands over to the bots, the page plays each event
    they made, one by one in order (``data-playing`` takes each event's number), at the
    pace set; moves drawn as arrows, areas taken starred; those marks stay until the next
    decision; "since your last turn" says what changed."""
    gid, token = _hb_game(server, 5)
    s = _play(server, gid, token, lambda s: bool(s["pending"]))  # where the person's nation enters
    _open(page, server, gid, token, s["version"], "localStorage.setItem('realms-pace', '250')")
    page.evaluate("""() => { window.__played = [];
        new MutationObserver(() => { const n = document.body.dataset.playing;
          if (n !== undefined && window.__played[window.__played.length - 1] !== Number(n)) window.__played.push(Number(n)); })
        .observe(document.body, { attributes: true, attributeFilter: ['data-playing'] }); }""")
    known = int(page.evaluate("document.body.dataset.events"))
    page.on("dialog", lambda d: d.accept())  # what an answer costs, if anything
    page.locator("#keep button, #options button.option").first.click()
    after = _play(server, gid, token, lambda x: x["version"] > s["version"] and bool(x["pending"]))
    answers = httpx.get(f"{server}/api/games/{gid}/record", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    assert any(p != 0 for p, _ in answers["answers"][s["version"]:after["version"]]), "no bot played"
    total = len(_events(server, gid, token))
    page.wait_for_function(f"Number(document.body.dataset.played) >= {total}", timeout=120000)
    played = page.evaluate("window.__played")
    assert len(played) >= 2 and played == sorted(set(played)), played
    assert played[-1] == total - 1 and played[0] >= known - 30
    fresh = [e for e in _events(server, gid, token) if e["n"] >= played[0]]
    arrows = sum(len(e.get("marks", {}).get("from", [])) for e in fresh if e.get("marks", {}).get("to"))
    taken = {a for e in fresh for a in e.get("marks", {}).get("taken", [])}
    drawn = page.locator("#playback-layer line.arrow").count()
    assert drawn >= min(1, arrows) and page.locator("#playback-layer .taken-star").count() >= min(1, len(taken))
    assert taken, "the bots took no area: nothing to star"
    page.wait_for_function(f"Number(document.body.dataset.version) >= {after['version']}", timeout=20000)
    page.wait_for_selector("#since:not([hidden])", timeout=20000)
    assert "Since your last turn" in page.inner_text("#since")
    shot(page, "played-back", tmp_path)


def test_the_whole_chronicle_filtered_and_folded(server, page, tmp_path):
    """every line of the game (none cut at 60), a run of identical lines told
    once with its count, filtered by turn and by player; battles in one line each."""
    r = httpx.post(f"{server}/api/games", json={"game": "version2", "options": {"turn_limit": 4}, "seed": 4,
                                                "seats": ["random", "random", "random"]}, timeout=60)
    gid = r.json()["id"]
    for _ in range(1200):
        if httpx.get(f"{server}/api/games/{gid}", timeout=60).json()["over"]:
            break
        time.sleep(0.05)
    s = httpx.get(f"{server}/api/games/{gid}", timeout=60).json()
    assert s["over"]
    _open(page, server, gid, None, s["version"])
    events = _events(server, gid)
    battles = {e["n"] for e in events if e.get("battle", {}).get("open")}
    inside = _battle_steps(events) - battles
    expected: list[tuple[str, int]] = []
    for e in events:
        if e["n"] in inside:
            continue
        if e["n"] not in battles and expected and expected[-1][0] == e["text"]:
            expected[-1] = (e["text"], expected[-1][1] + 1)
        else:
            expected.append((e["text"] if e["n"] not in battles else "battle", 1))
    page.wait_for_function(f"Number(document.getElementById('chronicle-box').dataset.lines) === {len(expected)}",
                           timeout=20000)
    assert len(events) > 60 and any(n > 1 for _, n in expected)
    folded = page.locator("#chronicle li[data-times]").first
    assert "(×" in folded.inner_text()
    page.select_option(".chron-turn", "1")
    ones = [e for e in events if e["turn"] == 1]
    lines = page.locator("#chronicle li").all_inner_texts()
    assert 0 < len(lines) <= len(ones)
    page.select_option(".chron-turn", "")
    name = s["seats"][1]["name"]
    page.select_option(".chron-player", name)
    lines = page.locator("#chronicle li").all_inner_texts()
    assert lines and all(name in line for line in lines), lines[:5]
    shot(page, "chronicle-filtered", tmp_path)


def _battle_steps(events) -> set[int]:
    open_: dict[str, bool] = {}
    steps = set()
    for e in events:
        b = e.get("battle")
        if not b:
            continue
        if b.get("open") or b["area"] not in open_:
            open_[b["area"]] = True
        steps.add(e["n"])
        if b.get("close"):
            open_.pop(b["area"], None)
    return steps


def test_a_click_on_a_brittania_label_answers(server, page, tmp_path):
    """a label on an area passes the click to the area (it answered nothing
    before: 21% of the clickable surface was dead); the clickable areas are marked by a
    dashed black line, which no player's colour is."""
    r = httpx.post(f"{server}/api/games", json={"game": "brittania", "options": {"turns": 2}, "seed": 3,
                                                "seats": ["human", "random", "random"]}, timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    s = _play(server, gid, token, lambda s: bool(s["pending"]) and s["pending"][0]["kind"] == "br.start")
    _open(page, server, gid, token, s["version"])
    page.wait_for_selector("#board .clickable")
    style = page.locator("#board .clickable").first.evaluate("e => getComputedStyle(e).strokeDasharray")
    assert style not in ("none", "")
    # a label text over a clickable area, and the area the click at its centre reaches
    hit = page.evaluate("""() => {
        for (const t of document.querySelectorAll('#board svg text')) {
          const r = t.getBoundingClientRect();
          if (!r.width) continue;
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          const under = document.elementFromPoint(x, y);
          const area = under && under.closest('.clickable');
          if (area) return {x, y, part: area.dataset.part, text: t.textContent};
        }
        return null; }""")
    assert hit is not None, "no label lies over a clickable area"
    dead = page.evaluate("""() => { let n = 0, dead = 0;
        for (const a of document.querySelectorAll('#board .clickable')) {
          const r = a.getBoundingClientRect();
          for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
            const x = r.left + r.width * i / 8, y = r.top + r.height * j / 8;
            if (x < 0 || y < 0) continue;
            const under = document.elementFromPoint(x, y);
            if (!under) continue;
            if (under.tagName === 'text') dead++;
            n++; } }
        return dead / Math.max(n, 1); }""")
    assert dead == 0
    page.mouse.click(hit["x"], hit["y"])
    page.wait_for_function(f"Number(document.body.dataset.version) > {s['version']}", timeout=20000)
    after = state(server, gid, token)
    assert after["version"] > s["version"]
    shot(page, "brittania-label-click", tmp_path)


def test_the_results_panel_and_a_rematch(server, page, tmp_path):
    """a finished game's page has the final table, the winner, each player's path
    by turn and Rematch, which opens a new game of the same seats as the same seat."""
    gid, token = _hb_game(server, 9, ("human", "auto", "random"))
    s = _play(server, gid, token, lambda s: s["over"])
    _open(page, server, gid, token, s["version"])
    box = page.locator("#results")
    box.wait_for()
    assert box.locator("table.final tr").count() == 1 + len(s["seats"])
    winner = s["result"]["winner"] or ", ".join(s["result"]["winners"])
    assert winner and winner in box.locator(".winner").inner_text()
    page.wait_for_selector("#results .path-chart[data-points]", timeout=60000)
    assert box.locator("polyline.path").count() == len(s["seats"])
    assert box.locator("a", has_text="Back to the lobby").get_attribute("href") == "/"
    shot(page, "results", tmp_path)
    page.click("#rematch")
    page.wait_for_url(lambda url: "/games/" in url and gid not in url, timeout=20000)
    new = page.url.split("/games/")[1].split("#")[0]
    token2 = page.url.split("#token=")[1]
    again = state(server, new, token2)
    assert again["seat"] == 0 and not again["over"]
    assert [x["kind"] for x in again["seats"]] == [x["kind"] for x in s["seats"]]
    # the other seat asking gets the same game: a rematch is made once
    r = httpx.post(f"{server}/api/games/{gid}/rematch", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert r.json()["id"] == new


def test_a_request_failing_offline_is_said(server, page, tmp_path):
    """an answer that cannot reach the server says so on the page; the game is as
    it was."""
    gid, token = _hb_game(server, 13)
    s = _play(server, gid, token, lambda s: bool(s["pending"]))
    _open(page, server, gid, token, s["version"])
    page.route("**/answers", lambda route: route.abort("internetdisconnected"))
    page.locator("#keep button, #options button.option").first.click()
    page.wait_for_function("document.body.dataset.offlineError === 'yes'", timeout=20000)
    assert "could not be reached" in page.inner_text("#error")
    assert state(server, gid, token)["version"] == s["version"]


def test_brittania_orders_kept_across_a_reload_and_none_sent_only_when_confirmed(server, page, tmp_path):
    """an order written but not sent is there again after a reload; sending no
    orders at all asks first, and a "no" sends nothing."""
    r = httpx.post(f"{server}/api/games", json={"game": "brittania", "options": {"turns": 2}, "seed": 5,
                                                "seats": ["human", "random", "random"]}, timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    s = _play(server, gid, token, lambda s: bool(s["pending"]) and s["pending"][0]["kind"] == "br.order")
    _open(page, server, gid, token, s["version"])
    page.wait_for_selector("#order-pick")
    page.click("#order-add")
    page.wait_for_function("document.querySelectorAll('#order-list li:not(.muted)').length === 1")
    written = page.inner_text("#order-list li:not(.muted)")
    page.reload()
    page.wait_for_function(f"Number(document.body.dataset.version) >= {s['version']}", timeout=20000)
    page.wait_for_selector("#order-list li:not(.muted)", timeout=20000)
    assert page.inner_text("#order-list li:not(.muted)") == written
    page.locator("#order-list button.order-remove").click()
    page.wait_for_selector("#order-list li.muted")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#order-send")
    page.wait_for_function("document.querySelectorAll('#order-list').length === 1")
    assert asked and "no orders" in asked[0]
    assert state(server, gid, token)["version"] == s["version"]


def test_one_undo_takes_back_the_whole_gesture(server, page, tmp_path):
    """three units moved in one gesture (three answers), one Undo: all three back."""
    from .test_browser import _at_sea, _human_against_auto

    gid, token = _human_against_auto(server, 5)
    s = _play(server, gid, token, lambda s: _at_sea(s) is not None)
    sea = _at_sea(s)
    _open(page, server, gid, token, s["version"])
    page.locator(f"#board #area-{sea}").dispatch_event("click")
    page.wait_for_selector("#move-box:not([hidden])")
    empty = [t for t in page.locator("#board .target").evaluate_all("els => els.map(e => e.id.slice(5))")
             if t not in s["view"]["areas"]]
    page.fill("#move-count", "3")
    page.locator(f"#board #area-{empty[0]}").dispatch_event("click")
    page.wait_for_function("document.body.dataset.moved === '3'", timeout=15000)
    assert state(server, gid, token)["version"] == s["version"] + 3
    page.wait_for_selector("#undo:not([hidden])")
    page.click("#undo")
    page.wait_for_function(f"document.body.dataset.version === '{s['version']}' && "
                           "document.body.dataset.undoing === undefined", timeout=20000)
    assert state(server, gid, token)["version"] == s["version"]


def test_the_lobby_explains_and_keeps_my_games(server, browser, tmp_path):
    """The lobby says what each game is and its player range, offers presets that fill the
    options, shows an option's help on a tap, and lists the seats this browser was given
    ("My games", kept in localStorage) with each game's status."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    try:
        pg.goto(server + "/")
        pg.select_option("#game", "hy-breasil")
        assert "from the sea" in pg.inner_text("#game-about") and "2–6 players" in pg.inner_text("#game-about")
        pg.locator("#presets button", has_text="a quick game").tap()
        assert pg.input_value("#opt-turns") == "3"
        pg.locator("#presets button", has_text="the full game").tap()
        assert pg.input_value("#opt-turns") == ""
        pg.locator("button.help[aria-label='what is turns?']").tap()
        assert "Game length in turns" in pg.locator(".help-text").first.inner_text()
        pg.locator("#presets button", has_text="a quick game").tap()
        pg.click("#create-button")
        pg.locator("a.seat-link").first.wait_for()
        gid = pg.locator("a.seat-link").first.get_attribute("href").split("/games/")[1].split("#")[0]
        pg.reload()
        mine = pg.locator(f"#my-games li[data-id='{gid}']")
        mine.wait_for()
        assert mine.locator("a.my-seat").first.get_attribute("href").startswith(f"/games/{gid}#token=")
        pg.wait_for_function(f"document.querySelector(\"#my-games li[data-id='{gid}'] .status\").textContent !== ''",
                             timeout=20000)
        assert "decisions made" in mine.locator(".status").inner_text()
        shot(pg, "lobby-my-games", tmp_path)
    finally:
        ctx.close()
