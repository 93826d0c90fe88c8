"""The browser client in a real browser: Playwright driving Debian's chromium
(/usr/bin/chromium, headless) against a real ``realms serve`` process.

Run by ``.ci/run`` with REALMS_BROWSER=1 (it installs chromium); without that variable
these tests are not collected as runnable, and with it a missing chromium is a failure.
Screenshots go to $REALMS_SCREENSHOTS (default: the test's temporary folder).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import httpx
import pytest

from .test_durability import start_server

CHROMIUM = os.environ.get("REALMS_CHROMIUM", "/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(os.environ.get("REALMS_BROWSER") != "1",
                       reason="browser tests run with REALMS_BROWSER=1 (set by .ci/run, which installs chromium)"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, url = start_server(str(tmp_path_factory.mktemp("browser") / "realms.db"))
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def shot(page, name: str, tmp_path) -> Path:
    folder = Path(os.environ.get("REALMS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def create_and_read_link(page, timeout: float | None = None):
    """Press the lobby's create button; the first seat's link, its game id and its token."""
    page.click("#create-button")
    link = page.locator("a.seat-link").first
    link.wait_for(timeout=timeout)
    href = link.get_attribute("href")
    return link, href.split("/games/")[1].split("#")[0], href.split("#token=")[1]


def create_in_lobby(page, url: str, game: str, seed: int, turns: int | None = None) -> tuple[str, str]:
    """Fill the lobby form (game, seats as offered, seed, turns) and return (game id, token) of seat 1."""
    page.goto(url + "/")
    page.select_option("#game", game)
    if turns is not None:
        page.fill("#opt-turns", str(turns))
    page.fill("#seed", str(seed))
    link, gid, token = create_and_read_link(page)
    link.click()
    page.wait_for_selector("#options button.option")
    wait_board(page)
    return gid, token


def wait_board(page) -> None:
    """Wait until the board shown is the one of the state shown (it loads after the state)."""
    page.wait_for_function("document.body.dataset.board === document.body.dataset.version", timeout=60000)


def state(url, gid, token) -> dict:
    return httpx.get(f"{url}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()


def at_rest(page, url, gid, token) -> dict:
    """The game once the bots have played up to a person's decision (or the end), and the
    page showing that state (its pushes may come a few versions at a time)."""
    deadline = time.monotonic() + 120
    while not ((s := state(url, gid, token))["pending"] or s["over"]):
        assert time.monotonic() < deadline, f"game {gid}: no decision for a person within 120 s"
        time.sleep(0.1)
    page.wait_for_function(f"Number(document.body.dataset.version) >= {s['version']}", timeout=60000)
    wait_board(page)
    return s


def answer_once(page, use_board: bool) -> None:
    """Answer the person's next decision: by clicking areas/towns on the board when asked
    (and when they name an option), else the first option button shown.  First the page
    is waited for until it offers a decision: after the person's last answer the bots play
    (pushed to the page), for many seconds on a loaded machine."""
    page.wait_for_selector("#options button.option:not(.hidden), #options button.source", timeout=120000)
    v = page.evaluate("document.body.dataset.version")
    changed = f"document.body.dataset.version !== '{v}'"
    idle = "document.body.dataset.gesture === undefined"  # a move of several units has sent them all
    if use_board:
        wait_board(page)
        for _ in range(3):
            clickable = page.locator("#board .target")  # a move's destinations, once its source is chosen
            if clickable.count() == 0:
                clickable = page.locator("#board .clickable")
            if clickable.count() == 0:
                break
            clickable.first.dispatch_event("click")
            try:
                page.wait_for_function(changed, timeout=1500)
                page.wait_for_function(idle, timeout=15000)
                return
            except Exception:
                continue
        if page.evaluate(changed):  # a click answered after its 1.5 s: the decision is gone
            page.wait_for_function(idle, timeout=15000)
            return
    if page.locator("#options button.source").count():  # a move: choose where from first
        page.locator("#options button.source").first.click()
    page.locator("#options button.option:not(.hidden)").first.click()
    page.wait_for_function(changed, timeout=15000)
    page.wait_for_function(idle, timeout=15000)


def test_hy_breasil_against_three_auto_bots(server, page, tmp_path):
    gid, token = create_in_lobby(page, server, "hy-breasil", seed=5, turns=3)
    assert page.locator("#board svg polygon[id^='area-']").count() > 10
    assert page.locator("#scores tr").count() == 5  # header + 4 players
    board_clicks = 0
    for i in range(400):
        s = state(server, gid, token)
        if s["over"] or s["view"]["turn"] >= 3:
            break
        before = s["version"]
        use_board = i % 2 == 0
        had_clickable = page.locator("#board .clickable").count() > 0
        answer_once(page, use_board)
        if use_board and had_clickable and state(server, gid, token)["version"] > before:
            board_clicks += 1
    s = state(server, gid, token)
    assert s["view"]["turn"] >= 3 or s["over"], "the first turns were not played through by clicking"
    assert board_clicks > 0, "no decision was answered on the board"
    shot(page, "hy-breasil-game", tmp_path)
    # the board shows nations' colours and unit counts
    assert page.locator("#board text.area-label").count() > 0
    # reload: the same state
    version, prompt = page.evaluate("document.body.dataset.version"), page.inner_text("#prompt")
    page.reload()
    page.wait_for_function(f"document.body.dataset.version === '{version}'")
    assert page.inner_text("#prompt") == prompt
    assert page.locator("#chronicle li").count() > 0


def test_undo_and_odds_in_the_page(server, page, tmp_path):
    """Play Hy Breasil by the option buttons until the page offers Undo (a move: no die,
    nobody else decided since), click it: the page goes back to the decision it showed
    before the gesture (one version, or as many as units it moved); on the way the Odds
    section shows a battle at stake."""
    gid, token = create_in_lobby(page, server, "hy-breasil", seed=7, turns=3)
    odds_seen = undone = False
    for _ in range(200):
        at_rest(page, server, gid, token)  # Undo and the odds are drawn with the state that offers them
        if not odds_seen and not page.locator("#odds-box").is_hidden():
            # a game new to the odds' worker: a note that they are coming, then the odds pushed
            page.wait_for_function("document.getElementById('odds-box').getAttribute('aria-busy') !== 'true'",
                                   timeout=60000)
        if not odds_seen and not page.locator("#odds-box").is_hidden():
            assert page.locator("#odds li").first.inner_text().startswith("Attack on")
            odds_seen = True
            shot(page, "hy-breasil-odds", tmp_path)
        if not undone and not page.locator("#undo").is_hidden():
            v = int(page.evaluate("document.body.dataset.version"))
            s = state(server, gid, token)
            assert s["can_undo"]
            page.click("#undo")  # a move of several units in one gesture is taken back whole
            page.wait_for_function(f"Number(document.body.dataset.version) < {v} && "
                                   "document.body.dataset.undoing === undefined", timeout=15000)
            wait_board(page)
            back = state(server, gid, token)
            assert back["version"] <= v - 1 and page.inner_text("#prompt").startswith(back["pending"][0]["prompt"])
            assert page.evaluate("document.body.dataset.version") == str(back["version"])
            assert page.inner_text("#error") == ""
            undone = True
        if odds_seen and undone:
            break
        answer_once(page, use_board=False)
    assert undone, "the page never offered Undo"
    assert odds_seen, "the page never showed battle odds"


def test_another_seats_token_cannot_answer(server, page):
    # two people: no seed may be sent, the server draws its own
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 2},
                                                 "seats": ["human", "human"]}, timeout=60)
    seats = {s["seat"]: s["token"] for s in r.json()["seats"]}
    gid = r.json()["id"]
    awaited = state(server, gid, seats[0])["awaiting"][0]
    other = 1 - awaited
    page.goto(f"{server}/games/{gid}#token={seats[other]}")
    page.wait_for_selector("#status")
    page.wait_for_function("document.body.dataset.version !== undefined")
    assert "Waiting for" in page.inner_text("#status")
    assert page.locator("#options button.option").count() == 0
    key = state(server, gid, seats[awaited])["pending"][0]["options"][0]["key"]
    version = int(page.evaluate("document.body.dataset.version"))
    status = page.evaluate(
        """async ([gid, token, key, version]) => (await fetch(`/api/games/${gid}/answers`, {method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: `Bearer ${token}`},
            body: JSON.stringify({key, version})})).status""",
        [gid, seats[other], key, version])
    assert status == 403
    assert state(server, gid, seats[awaited])["version"] == version
    # refusals count seats as the page does, from 1
    assert f"(seat {other + 1})" in page.inner_text("#who")
    refusal = httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {seats[other]}"},
                         json={"key": key, "version": version}, timeout=60).json()["detail"]
    assert refusal == f"seat {other + 1} has no decision to make now"
    wrong = httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {seats[awaited]}"},
                       json={"key": "no-such-option", "version": version}, timeout=60).json()["detail"]
    assert f"for seat {awaited + 1} " in wrong and "player" not in wrong


def test_brian_boru_through_a_draft_and_a_trick(server, page, tmp_path):
    gid, token = create_in_lobby(page, server, "brian-boru", seed=4)
    tricks_seen = trick_shown = False
    dealt = None  # hand size once the draft is over
    for _ in range(300):
        s = state(server, gid, token)
        if s["over"]:
            break
        v = s["view"]
        if dealt is None and v["phase"] == "action":
            dealt = len(v["hand"])
            shot(page, "brian-boru-after-draft", tmp_path)
        if dealt is not None and all(p["hand_size"] < dealt for p in v["players"]):
            tricks_seen = True  # every player has played a card: a trick is done
        if tricks_seen and trick_shown:
            break
        answer_once(page, use_board=True)
        after = state(server, gid, token)
        hand = after["view"]["hand"]
        page.wait_for_function("n => document.querySelectorAll('#panels section:first-child span').length === n",
                               arg=len(hand))
        assert page.locator("#panels h2").first.inner_text() == "Your hand"
        played = after["view"]["trick"]["played"]
        if played:  # the trick on the table beside the board, each card by its player
            page.wait_for_function(f"document.body.dataset.version === '{after['version']}'")
            panel = page.locator("#panels section", has_text="This trick")
            names = [p["name"] for p in after["view"]["players"]]
            assert panel.locator("span").all_inner_texts() == [f"{names[c['player']]}: {c['card']}" for c in played]
            trick_shown = True
    assert tricks_seen, "did not get through a draft and a trick"
    assert trick_shown, "no trick was shown beside the board"
    shot(page, "brian-boru-game", tmp_path)
    assert page.locator("#board circle[id^='town-']").count() > 10


def test_replay_viewer_of_a_finished_game_steps_by_decision(server, page, tmp_path):
    """A finished game's page has a slider over every decision (the replay stops at every
    decision, not only at turn starts) and buttons to the next turn: each
    stop shows the board as it was then (replayed on the server), the last one the end."""
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 3}, "seed": 11,
                                                "seats": ["auto", "auto", "random"]}, timeout=60)
    gid = r.json()["id"]
    until = time.monotonic() + 120  # the bots play in the background: wait for the end
    while (reply := httpx.get(f"{server}/api/games/{gid}/turns", timeout=60)).status_code != 200:
        if time.monotonic() > until:
            pytest.fail(f"the bots' game {gid} has no turns to replay after 120 s: {reply.status_code} {reply.text[:200]}")
        time.sleep(0.05)
    turns, answers = reply.json()["turns"], reply.json()["answers"]
    page.goto(f"{server}/games/{gid}")
    page.wait_for_selector("#replay:not([hidden])")
    page.wait_for_function(f"document.getElementById('replay-at').textContent.includes('decision {answers} of')")
    slider = page.locator("#replay-slider")
    assert int(slider.get_attribute("max")) == answers
    second = turns[1]
    slider.evaluate("(s) => { s.value = 0; s.dispatchEvent(new Event('input')); }")
    page.click("button[aria-label='next turn']")
    page.wait_for_function(f"document.body.dataset.board === 'at-{second['at']}'", timeout=15000)
    assert f"turn {second['turn']}, decision {second['at']} of {answers}" in page.inner_text("#replay-at")
    # the scores and the chronicle move with the board
    page.wait_for_function(f"document.body.dataset.replayed === '{second['at']}'", timeout=15000)
    past = httpx.get(f"{server}/api/games/{gid}", params={"at": second["at"]}, timeout=60).json()
    assert page.locator("#chronicle li").all_inner_texts() == past["chronicle"]
    shown = page.locator("#scores tr td:nth-child(3)").all_inner_texts()
    assert shown == [str(x) for x in past["scores"]]
    # one decision on: the board of the next answer
    page.click("button[aria-label='next decision']")
    page.wait_for_function(f"document.body.dataset.board === 'at-{second['at'] + 1}'", timeout=15000)
    end = httpx.get(f"{server}/api/games/{gid}", timeout=60).json()
    assert past["chronicle"] != end["chronicle"]
    shot(page, "replay-viewer", tmp_path)


def test_lobby_copies_a_seats_invitation_link(server, browser):
    """The lobby's "copy link" puts the seat's invitation link on the clipboard."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = ctx.new_page()
    try:
        page.goto(server + "/")
        page.select_option("#game", "hy-breasil")
        page.fill("#seed", "3")
        page.click("#create-button")
        link = page.locator("a.seat-link").first
        link.wait_for()
        page.locator("button", has_text="copy link").first.click()
        page.wait_for_function("[...document.querySelectorAll('button')].some(b => b.textContent === 'copied')")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == link.get_attribute("href") and "#token=" in copied
    finally:
        ctx.close()


def test_lobby_draws_each_games_options_from_its_schema(server, page, tmp_path):
    """The lobby's option form comes from the catalog's schema (no game's form
    by hand): each game shows its own options, what is chosen reaches the game, and a value
    the server refuses comes back as an error line naming the option."""
    page.goto(server + "/")
    page.select_option("#game", "brian-boru")
    assert page.locator("#option-groups [id^='opt-']").evaluate_all("els => els.map(e => e.id)") == ["opt-names"]
    page.select_option("#game", "hy-breasil")
    for name in ("turns", "vp_target", "sets", "set_size", "map", "max_turns", "rules", "variant", "joins", "leaves"):
        assert page.locator(f"#opt-{name}").count() == 1, name
    assert page.get_attribute("#opt-turns", "max") == "100"
    page.fill("#opt-names", "Ann, Bob, Cy, Di")
    page.check(".opt-rules-choice[value=abilities]")
    page.check(".opt-rules-choice[value=races]")
    page.select_option("#opt-variant", "continuous")
    page.fill("#opt-joins", "3:Eve")
    page.fill("#opt-turns", "4")
    shot(page, "lobby-options", tmp_path)
    link, gid, token = create_and_read_link(page)
    options = state(server, gid, token)["view"]["options"]
    assert options["rules"] == ["races", "abilities"] and options["variant"] == "continuous" and options["turns"] == 4
    record = httpx.get(f"{server}/api/games/{gid}/record", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    assert record["options"]["names"] == ["Ann", "Bob", "Cy", "Di"] and record["options"]["joins"] == [[3, "Eve"]]
    page.fill("#opt-names", "Ann, Ann, Cy, Di")
    page.click("#create-button")
    page.wait_for_function("document.getElementById('create-error').textContent !== ''")
    assert "option 'names' has duplicate names" in page.inner_text("#create-error")


def test_a_draft_pick_that_passes_the_packets_offers_no_undo(server, page, tmp_path):
    """Brian Boru with three people; seat 3 picks last, in the page.  A pick
    that passes nothing on can be taken back (the page offers Undo); the pick after which
    the packets are passed, and seat 3 sees the packet passed to it, cannot: the page offers
    no Undo and the server refuses one."""
    r = httpx.post(f"{server}/api/games", json={"game": "brian-boru", "seats": ["human"] * 3}, timeout=60)
    gid = r.json()["id"]
    toks = {s["seat"]: s["token"] for s in r.json()["seats"]}
    page.goto(f"{server}/games/{gid}#token={toks[2]}")
    page.wait_for_function("document.body.dataset.version !== undefined")
    offered = False
    for _ in range(100):
        s = state(server, gid, toks[2])
        others = [p for p in s["awaiting"] if p != 2]
        if others:  # the other people answer through the API, so that seat 3 picks last
            mine = state(server, gid, toks[others[0]])
            httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {toks[others[0]]}"},
                       json={"key": mine["pending"][0]["options"][0]["key"], "version": mine["version"]}, timeout=60)
            continue
        page.wait_for_function(f"document.body.dataset.version === '{s['version']}'", timeout=15000)
        answer_once(page, use_board=False)
        after = state(server, gid, toks[2])
        page.wait_for_function(f"document.body.dataset.version === '{after['version']}'", timeout=15000)
        if s["pending"][0]["kind"] != "bb.draft":
            continue
        if set(after["view"]["packet"]) <= set(s["view"]["packet"]):
            assert page.locator("#undo").is_visible()  # nothing passed on: it may be taken back
            offered = True
            continue
        shot(page, "brian-boru-pass-no-undo", tmp_path)
        assert page.locator("#undo").is_hidden() and not after["can_undo"]
        status = page.evaluate(
            """async ([gid, token, version]) => (await fetch(`/api/games/${gid}/undo`, {method: 'POST',
                headers: {'Content-Type': 'application/json', Authorization: `Bearer ${token}`},
                body: JSON.stringify({version})})).status""",
            [gid, toks[2], after["version"]])
        assert status == 422 and state(server, gid, toks[2])["version"] == after["version"]
        break
    else:
        pytest.fail("the draft never passed the packets")
    assert offered, "no pick was offered for undo"


def test_the_api_docs_work_without_internet(server, page):
    """/docs with every request to another host refused renders the API
    (Swagger UI's scripts come from the server itself)."""
    outside: list[str] = []

    def only_the_server(route):
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(server + "/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    assert "realms" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector('.opblock-summary-path[data-path="/api/games/{game_id}/undo"]', timeout=15000)
    assert outside == []


def _human_against_auto(server, seed: int) -> tuple[str, str]:
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 3}, "seed": seed,
                                                "seats": ["human", "auto", "auto", "auto"]}, timeout=60)
    return r.json()["id"], r.json()["seats"][0]["token"]


def _answer_until(server, gid, token, stop) -> dict:
    """Answer the first option through the API until ``stop(state)``; that state."""
    for _ in range(2000):
        s = state(server, gid, token)
        if stop(s):
            return s
        if not s["pending"]:  # the bots are still playing
            time.sleep(0.05)
            continue
        httpx.post(f"{server}/api/games/{gid}/answers", headers={"Authorization": f"Bearer {token}"},
                   json={"key": s["pending"][0]["options"][0]["key"], "version": s["version"]}, timeout=60)
    pytest.fail("the position looked for never came")


def _at_sea(s) -> str | None:
    """The sea the nation moving now must leave, if any."""
    d = s["pending"][0] if s["pending"] else None
    if d is None or d["kind"] != "hb.move":
        return None
    seas = [a for a in d["controls"]["moves"]["units"] if a.startswith(("muir", "tonn", "sruth"))]
    return seas[0] if seas else None


def _hue(colour: str) -> tuple[float, float, float]:
    import colorsys

    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)


def test_hy_breasil_colours_legend_and_units_at_sea(server, page, tmp_path):
    """Owned land is a strong colour while terrain is a pale texture; a
    player's nations are shades of one hue, other players' hues differ; the terrain legend
    is under the map and covers no sea's name; units at sea are drawn, in their nation's
    colour, with their count."""
    gid, token = _human_against_auto(server, 5)
    s = _answer_until(server, gid, token, lambda s: _at_sea(s) is not None and s["view"]["turn"] >= 2)
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.version !== undefined")
    wait_board(page)
    shot(page, "hy-breasil-colours", tmp_path)
    fills = dict(page.locator("#board polygon.land").evaluate_all(
        "els => els.map(e => [e.id.slice(5), e.getAttribute('fill')])"))
    view = s["view"]
    owner = {n["id"]: n["owner"] for n in view["nations"]}
    hues: dict[int, set] = {}
    for area, held in view["areas"].items():
        h, light, sat = _hue(fills[area])
        assert sat >= 0.5 and light <= 0.75, (area, fills[area])  # strong, unlike pale terrain
        hues.setdefault(owner[held["nation"]], set()).add(round(h * 360) % 360)
    empty = [fills[a] for a in fills if a not in view["areas"]]
    assert empty and all(f.startswith("url(#terrain-") for f in empty)
    for p, hs in hues.items():
        assert max(hs) - min(hs) <= 20, (p, hs)  # one family of shades
    firsts = sorted(min(hs) for hs in hues.values())
    assert len(firsts) >= 2 and min(b - a for a, b in zip(firsts, firsts[1:])) >= 30
    # the legend: terrain and each player's nations, below the map (it covers no sea name)
    legend = page.locator("#board #legend")
    assert "Forest" in legend.text_content() and "Hills" in legend.text_content()
    top = legend.bounding_box()["y"]
    for name in page.locator("#board text.sea-name").all():
        box = name.bounding_box()
        assert box["y"] + box["height"] <= top + 1
    # the nation at sea, drawn there with its count, in its colour
    sea = _at_sea(s)
    mover = view["current_nation"]
    count = next(n for n in view["nations"] if n["id"] == mover)["units"][sea]
    badge = page.locator(f"#board #sea-units-{sea}-{mover}")
    assert badge.locator("text").text_content() == str(count)
    assert _hue(badge.locator("rect:not(.seat-pattern)").get_attribute("fill"))[0] * 360 == pytest.approx(min(hues.get(owner[mover], {0})), abs=20) \
        or owner[mover] not in hues


def test_moving_several_units_in_one_gesture(server, page, tmp_path):
    """A nation at sea: click the sea, choose 3, click a destination shown as
    one: three answers are sent (each a normal POST), three units land; the frequent answers
    (End movement) stay in view at the top of the decision."""
    gid, token = _human_against_auto(server, 5)
    s = _answer_until(server, gid, token, lambda s: _at_sea(s) is not None)
    sea, mover = _at_sea(s), s["view"]["current_nation"]
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.version !== undefined")
    wait_board(page)
    page.locator(f"#board #area-{sea}").dispatch_event("click")
    page.wait_for_selector("#move-box:not([hidden])")
    targets = page.locator("#board .target")
    assert targets.count() == len(s["pending"][0]["options"])  # every destination shown, no more
    assert page.locator("#board .clickable:not(.target):not(.selected)").count() == 0  # the only source
    empty = [t for t in targets.evaluate_all("els => els.map(e => e.id.slice(5))") if t not in s["view"]["areas"]]
    page.fill("#move-count", "3")
    shot(page, "hy-breasil-move-gesture", tmp_path)
    page.locator(f"#board #area-{empty[0]}").dispatch_event("click")
    page.wait_for_function("document.body.dataset.moved === '3'", timeout=15000)
    after = state(server, gid, token)
    assert after["version"] == s["version"] + 3
    nation = next(n for n in after["view"]["nations"] if n["id"] == mover)
    assert nation["units"][empty[0]] == 3
    # land the rest: then "End movement" is offered, at the top, in view
    left = nation["units"].get(sea, 0)
    if left:
        wait_board(page)
        assert page.locator("#move-box").is_visible()  # the sea stays chosen while units are left
        assert page.input_value("#move-count") == str(left)
        page.fill("#move-count", str(left))
        page.locator(f"#board #area-{empty[0]}").dispatch_event("click")
        page.wait_for_function(f"document.body.dataset.moved === '{left}'", timeout=15000)
    wait_board(page)
    end = page.locator("#keep button", has_text="End movement")
    end.wait_for()
    box = end.bounding_box()
    assert 0 <= box["y"] < 400
    assert page.locator("#options button.option").count() <= 20  # sources, not every move


def test_events_explained_and_the_battle_marked(server, page, tmp_path):
    """An event's question says what the event does and what a reroll
    costs; while hits are allocated or a retreat is asked, the battle's area is outlined on
    the board; the odds list shows at most three lines, without outcomes under 0.1%."""
    gid, token = _human_against_auto(server, 7)
    s = _answer_until(server, gid, token, lambda s: bool(s["pending"]) and s["pending"][0]["kind"] == "hb.event")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function(f"document.body.dataset.version === '{s['version']}'")
    prompt = page.inner_text("#prompt")
    assert re.search(r"civilization tokens: [A-Z][a-z ]+ \(.{10,}\)\. Accept or reroll\?", prompt), prompt
    assert "civilization token" in page.locator("#options button", has_text="Reroll").inner_text()
    s = _answer_until(server, gid, token, lambda s: bool(s["pending"])
                      and s["pending"][0]["kind"] in ("hb.retreat", "hb.assign-hits"))
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function(f"document.body.dataset.version === '{s['version']}'")
    wait_board(page)
    shot(page, "hy-breasil-battle", tmp_path)
    battle = s["view"]["battle"]
    assert page.locator("#board #battle-mark").get_attribute("data-area") == battle["area"]
    attackers = battle["attacker_units"]["unhurt"] + battle["attacker_units"]["wounded"]
    assert page.locator("#board #attackers text").text_content() == str(attackers)  # beside the defenders
    shown = [t for t in page.locator("#odds li").all_inner_texts() if t]
    assert len(shown) <= 3 and all("<0.1%" not in t for t in shown)


def test_invitation_links_carry_the_address_reached(server, browser):
    """The lobby's links use the address the page was opened at; at a
    loopback address it says they work on this computer only (README: --host 0.0.0.0)."""
    for host in ("127.0.0.1", "localhost"):
        ctx = browser.new_context(viewport={"width": 1200, "height": 800})
        page = ctx.new_page()
        try:
            origin = server.replace("127.0.0.1", host)
            page.goto(origin + "/")
            page.select_option("#game", "hy-breasil")
            page.click("#create-button")
            page.locator("a.seat-link").first.wait_for()
            assert page.locator("a.seat-link").first.get_attribute("href").startswith(origin + "/games/")
            assert page.locator("#loopback-note").is_visible()
            assert "--host 0.0.0.0" in page.inner_text("#loopback-note")
        finally:
            ctx.close()


def test_a_bad_link_says_why_and_stops_trying(server, browser):
    """An unknown game, or a token that is no seat of the game, is said in
    the page, which then stops (no WebSocket reconnecting every 1.5 s forever)."""
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seed": 2,
                                                "seats": ["human", "auto"]}, timeout=60)
    gid = r.json()["id"]
    for url, why in ((f"{server}/games/0123456789abcdef", "no such game"),
                     (f"{server}/games/{gid}#token=not-a-seat", "not a seat of this game")):
        ctx = browser.new_context()
        page = ctx.new_page()
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        try:
            page.goto(url)
            page.wait_for_function("document.body.dataset.failed === 'true'", timeout=15000)
            assert why in page.inner_text("#error").lower()
            page.wait_for_timeout(4000)
            assert len(sockets) <= 1
        finally:
            ctx.close()


def test_the_game_page_on_a_phone(server, browser, tmp_path):
    """At 390 px the game page is one column no wider than the screen, the
    whole board in view; the header names the game; no request fails (favicon included)."""
    r = httpx.post(f"{server}/api/games", json={"game": "hy-breasil", "options": {"turns": 2}, "seed": 3,
                                                "seats": ["human", "auto", "auto"]}, timeout=60)
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = ctx.new_page()
    failed: list[str] = []
    page.on("response", lambda resp: failed.append(resp.url) if resp.status >= 400 else None)
    try:
        page.goto(f"{server}/games/{gid}#token={token}")
        page.wait_for_selector("#options button")
        wait_board(page)
        shot(page, "phone-game", tmp_path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#board svg").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.inner_text("#title").startswith("Hy Breasil")
        assert failed == []
    finally:
        ctx.close()


# -- The server answers at once; generated maps and bot levels in the lobby ------------
def test_the_answer_shows_at_once_and_the_bots_moves_arrive_over_the_websocket(server, page, tmp_path):
    """The person's answer is answered as soon as it is stored, before the bots reply (its
    200 carries it alone; a page that shows it says whom it waits for); the bots' answers,
    played in the background, reach the page over its WebSocket (no reload, no polling)
    until the person's turn comes back; a reload shows the same."""
    gid, token = _human_against_auto(server, 9)
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_selector("#options button.option, #options button.source")
    wait_board(page)
    # every state the page shows: its version, what it says, whether it asks anything
    page.evaluate("""() => {
        window.shown = [];
        new MutationObserver(() => window.shown.push([Number(document.body.dataset.version),
            document.getElementById('status').textContent, document.querySelectorAll('#options button, #keep button').length]))
          .observe(document.body, {attributes: true, attributeFilter: ['data-version']});
    }""")
    answered: list = []  # the 200s of the page's answers
    page.on("response", lambda r: answered.append(r) if r.url.endswith("/answers") and r.status == 200 else None)
    for _ in range(300):
        s = state(server, gid, token)
        if s["over"]:
            pytest.fail("no answer of the person's was followed by the bots' in the game")
        answer_once(page, use_board=False)
        after = state(server, gid, token)
        if after["version"] > s["version"] + 1 or after["awaiting"] != [0]:
            break
    else:
        pytest.fail("the bots never replied")
    page.wait_for_function(f"Number(document.body.dataset.version) > {s['version'] + 1}"
                           " && document.querySelectorAll('#options button, #keep button').length > 0", timeout=30000)
    shown = page.evaluate("window.shown")
    # the person's own answer came back alone, the bots to play, before any of their moves
    mine = answered[-1].json()
    assert mine["version"] == s["version"] + 1 and mine["pending"] == [] and 0 not in mine["awaiting"]
    # shown, if the bots' first moves did not overtake it (a page shows the newest state it
    # has), it waited for the bots by name; their moves came over the WebSocket
    alone = [x for x in shown if x[0] == s["version"] + 1]
    assert all("Waiting for" in status and buttons == 0 for _, status, buttons in alone), shown
    assert max(v for v, _, _ in shown) > s["version"] + 1
    shot(page, "hy-breasil-bots-pushed", tmp_path)
    version = page.evaluate("document.body.dataset.version")
    assert int(version) == state(server, gid, token)["version"]
    page.reload()
    page.wait_for_function(f"document.body.dataset.version === '{version}'")


def test_the_lobby_makes_a_game_on_an_island_of_a_seed(server, page, tmp_path):
    """The lobby's form (drawn from the game's schema) has the map seed; the game's board is
    the island ``realms map generate hy-breasil --seed 3`` makes."""
    page.goto(server + "/")
    page.select_option("#game", "hy-breasil")
    assert page.get_attribute("#opt-map_seed", "type") == "number"
    page.fill("#opt-map_seed", "3")
    page.fill("#opt-turns", "2")
    link, gid, token = create_and_read_link(page, timeout=120000)  # an island made, then the bots play
    link.click()
    page.wait_for_selector("#options button.option, #options button.source", timeout=120000)
    wait_board(page)
    assert "Hy Breasil (48 areas, seed 3)" in page.inner_html("#board")
    assert state(server, gid, token)["view"]["options"]["map"] == "seed:3"
    shot(page, "hy-breasil-island-of-seed-3", tmp_path)


def test_the_lobby_offers_the_auto_bots_levels(server, page, tmp_path):
    """Each seat's menu lists the bots' declared levels (the catalog's seat choices); the
    game is made with the chosen ones and its page names them."""
    page.goto(server + "/")
    page.select_option("#game", "hy-breasil")
    seats = page.locator("select.seat-kind")
    labels = seats.nth(1).locator("option").all_inner_texts()
    assert {"auto (easy)", "auto (normal)", "auto (steady)"} <= set(labels)
    page.select_option("select.seat-kind >> nth=1", label="auto (easy)")
    page.select_option("select.seat-kind >> nth=2", label="auto (steady)")
    shot(page, "lobby-bot-levels", tmp_path)
    link, gid, token = create_and_read_link(page)
    kinds = [s["kind"] for s in state(server, gid, token)["seats"]]
    assert kinds[:3] == ["human", "auto:level=easy", "auto:level=hard"]
    link.click()
    page.wait_for_selector("#scores tr >> nth=3")
    assert "auto (steady)" in page.inner_text("#scores") and "auto (easy)" in page.inner_text("#scores")
