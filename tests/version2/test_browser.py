"""version² in a real browser (REALMS_BROWSER=1, Debian's chromium): a person against
three ``general`` bots plays his first two turns on the hex board — a recruit chosen by
clicking its field, an attack by clicking the target and then the field it comes from,
troops moved with one gesture: their field, a count and the destination (V2-Q105) — and
sees his own mission in a panel, nobody else's (2.4)."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from server.test_browser import browser, page, server, shot, state, wait_board  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]


def _my_turn(server, gid, token) -> dict:
    """The state once seat 0 (the person) is asked for an action."""
    for _ in range(600):
        s = state(server, gid, token)
        d = s["pending"][0] if s["pending"] else None
        if d and d["player"] == 0 and d["kind"] == "v2.action":
            return s
        assert not s["over"], "the game ended before the person's turns"
        time.sleep(0.05)
    pytest.fail("the person's turn never came")


def _shown(page, s) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) >= {s['version']}", timeout=15000)
    wait_board(page)


def _click_field(page, f) -> None:
    page.locator(f"#board #area-{f}").dispatch_event("click")


def _press(page, key: str, version: int) -> None:
    """Click the button of option ``key`` (shown once the board click filtered them)."""
    page.locator(f"button[data-key='{key}']").click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=15000)


def _recruit_by_board(page, server, gid, token, s) -> int:
    key = next(o["key"] for o in s["pending"][0]["options"] if o["key"].startswith("recruit:") and o["key"].endswith(":i"))
    f = int(key.split(":")[1])
    before = len(s["view"]["units"][f])
    _click_field(page, f)
    assert page.locator(f"#board #area-{f}.selected").count() == 1
    visible = page.locator("#options button.option:not(.hidden)")
    keys = visible.evaluate_all("els => els.map(e => e.dataset.key)")
    assert all(str(f) in re.split("[:>]", k) for k in keys)      # the options naming the field
    _press(page, key, s["version"])
    after = state(server, gid, token)
    assert len(after["view"]["units"][f]) == before + 1
    return f


def _movable(s, f: int) -> int:
    return sum(1 for u in s["view"]["units"][f] if u[1] > 0)


def _move_by_gesture(page, server, gid, token, s, tmp_path) -> dict:
    """V2-Q105: the turn's action offers the move gesture at once: the source clicked,
    the count of units able to move filled in, the destination clicked, and that many
    ``F>T`` answers go (the first from ``v2.action``, the rest from ``v2.move``)."""
    moves = [o["key"] for o in s["pending"][0]["options"] if ">" in o["key"]]
    if not moves:
        return s
    key = max(moves, key=lambda k: _movable(s, int(k.split(">")[0])))
    f, t = (int(x) for x in key.split(">"))
    left = _movable(s, f)
    before = len(s["view"]["units"][t])
    _click_field(page, f)                                            # the source …
    page.wait_for_selector("#move-box:not([hidden])")
    assert page.locator(f"#board #area-{t}.target").count() == 1     # … where it may go …
    page.fill("#move-count", str(left))                              # … how many …
    shot(page, "version2-move-gesture", tmp_path)
    _click_field(page, t)                                            # … and where to
    page.wait_for_function(f"document.body.dataset.moved === '{left}'", timeout=15000)
    after = state(server, gid, token)
    assert after["version"] == s["version"] + left and len(after["view"]["units"][t]) == before + left
    assert after["pending"][0]["kind"] == "v2.move" and after["pending"][0]["player"] == 0
    _shown(page, after)
    return after


def test_person_against_three_generals_two_turns(server, page, tmp_path):
    r = httpx.post(f"{server}/api/games", json={"game": "version2", "options": {}, "seed": 3,
                                                "seats": ["human", "general", "general", "general"]}, timeout=60)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    s = _my_turn(server, gid, token)
    page.goto(f"{server}/games/{gid}#token={token}")
    _shown(page, s)
    assert page.locator("#board svg polygon[id^='area-']").count() > 50
    panels = page.locator("#panels").inner_text()
    assert "Your secret mission" in panels and s["view"]["mission"]["text"] in panels
    assert "Missions" not in panels.replace("Your secret mission", "")
    assert page.locator("#keep button[data-key='end']").count() == 1   # ending the turn kept at hand
    # turn 1: a recruit by its field, then an attack by its target and the field it comes from
    _recruit_by_board(page, server, gid, token, s)
    s = state(server, gid, token)
    _shown(page, s)
    attack = next((o["key"] for o in s["pending"][0]["options"] if o["key"].startswith("attack:")), None)
    if attack is not None:
        t = int(attack.split(":")[1])
        _click_field(page, t)                                        # the only option naming t: answered
        page.wait_for_function(f"Number(document.body.dataset.version) > {s['version']}", timeout=15000)
        s = state(server, gid, token)
        d = s["pending"][0]
        assert d["kind"] == "v2.attack-units" and d["player"] == 0
        _shown(page, s)
        src = next(o["key"] for o in d["options"] if o["key"].startswith(("all:", "add:")))
        f = int(src.split(":")[1])
        _click_field(page, f)
        if page.locator(f"button[data-key='{src}']:not(.hidden)").count():
            _press(page, src, s["version"])
        else:
            page.wait_for_function(f"Number(document.body.dataset.version) > {s['version']}", timeout=15000)
        s = state(server, gid, token)
        _shown(page, s)
        shot(page, "version2-attack-picked", tmp_path)
        _press(page, "go", s["version"])
        for _ in range(50):                                          # the battle's questions, if any
            s = state(server, gid, token)
            d = s["pending"][0] if s["pending"] else None
            if d is None or d["kind"] == "v2.action" or d["player"] != 0:
                break
            _shown(page, s)
            _press(page, d["options"][0]["key"], s["version"])
    s = state(server, gid, token)
    if s["pending"] and s["pending"][0]["player"] == 0 and s["pending"][0]["kind"] == "v2.action":
        _shown(page, s)
        _press(page, "end", s["version"])
    # turn 2: the bots have played; a recruit by the board again, and the end
    s = _my_turn(server, gid, token)
    assert s["view"]["turn"] == 2
    _shown(page, s)
    _recruit_by_board(page, server, gid, token, s)
    s = state(server, gid, token)
    _shown(page, s)
    s = _move_by_gesture(page, server, gid, token, s, tmp_path)
    shot(page, "version2-turn-2", tmp_path)
    _press(page, "end", s["version"])
    s = _my_turn(server, gid, token)
    assert s["view"]["turn"] == 3


def test_a_battle_s_rounds_show_their_dice_and_the_odds_after_each(server, page, tmp_path):
    """A finished game of three bots, opened by a spectator: the chronicle's line of a battle
    that lasted several fight-turns opens its panel, where each fight-turn shows each side's
    attack rolls as dice, those that destroyed their target framed (2.3.4.3), and the exact
    odds worked out after its last fight-turn (the calculator counting on from there)."""
    battle = None
    for seed in (1, 3, 2):
        r = httpx.post(f"{server}/api/games", json={"game": "version2", "options": {"players": 3}, "seed": seed,
                                                    "seats": ["random", "random", "random"]}, timeout=60)
        gid = r.json()["id"]
        for _ in range(1200):
            if httpx.get(f"{server}/api/games/{gid}", timeout=60).json()["over"]:
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"the bots' game (seed {seed}) did not end in 120 s")
        events = httpx.get(f"{server}/api/games/{gid}/events", timeout=60).json()["events"]
        opened = {}
        for e in events:
            b = e.get("battle") or {}
            if b.get("open"):
                opened[b["area"]] = e
            elif b.get("round") and "odds" in b:
                battle = (opened[b["area"]], [x for x in events if x["n"] >= opened[b["area"]]["n"]
                                              and (x.get("battle") or {}).get("area") == b["area"]])
        if battle:
            break
    assert battle, "no battle of several fight-turns in three games"
    first, steps = battle
    steps = steps[:next((i + 1 for i, x in enumerate(steps) if x["battle"].get("close")), len(steps))]
    rounds = [x["battle"] for x in steps if x["battle"].get("round") and "dice" in x["battle"]]
    page.goto(f"{server}/games/{gid}")
    page.wait_for_function("document.body.dataset.events !== undefined", timeout=20000)
    page.locator(f"#chronicle li[data-n='{first['n']}'] button.battle-line").dispatch_event("click")
    page.wait_for_function(f"document.body.dataset.battle === '{first['n']}'", timeout=20000)
    panel = page.locator("#battle-panel")
    shown = panel.locator(".battle-round")
    assert shown.count() == len(rounds) >= 2
    for k in (0, len(rounds) - 1):
        for side in (0, 1):
            line = shown.nth(k).locator(".battle-side").nth(side)
            assert [int(v) for v in line.locator("svg.die").evaluate_all("ds => ds.map((d) => d.dataset.value)")] \
                == rounds[k]["dice"][side]
            assert line.locator("svg.die.hit").count() == sum(rounds[k]["hit"][side])
    last_odds = [x for x in steps if "odds" in x["battle"]][-1]["battle"]
    page.wait_for_selector("#battle-panel .battle-odds[data-ready='yes']", timeout=60000)
    title = panel.locator(".battle-odds h3").inner_text()
    assert title.startswith(f"Exact odds after round {last_odds['round']}") or \
        (last_odds.get("round") is None and "as it began" in title), title
    shot(page, "version2-battle-panel", tmp_path)
