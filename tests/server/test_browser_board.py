"""The board crosses the wire once: the page fetches the drawing of the first state it
shows, then applies each new state's position (``Game.board``, from the seat's view) to it
in place (web/position.js).  Checked for every game in real chromium: while several
versions arrive the board is fetched once, areas' owners and units on the page change to
those of the new state, and what the page shows is what the whole drawing of that state
shows (``core.position`` draws it: the same rules, in Python)."""

from __future__ import annotations

import httpx
import pytest

from .test_browser import browser, page, server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

#: what the page and the whole drawing are compared by: each slot of a position
READ = """(root) => {
  const out = {};
  for (const el of root.querySelectorAll('[id^="area-"], [id^="town-"], [data-part-of]'))
    out[`shape ${el.id || el.dataset.partOf}`] = [el.dataset.gameColour ?? el.getAttribute('fill'), el.dataset.seat ?? null];
  for (const el of root.querySelectorAll('[id^="owner-"]'))
    out[el.id] = el.getAttribute('display') === 'none' ? null :
      [el.dataset.seat, el.dataset.gameColour ?? el.getAttribute(el.getAttribute('fill') === 'none' ? 'stroke' : 'fill')];
  for (const el of root.querySelectorAll('[id^="units-"]'))
    out[el.id] = [[...el.querySelectorAll('tspan')].map((t) => [t.textContent, t.getAttribute('dy')]), el.getAttribute('fill')];
  for (const el of root.querySelectorAll('[data-mark]'))
    out[`mark ${el.dataset.mark} ${el.dataset.area}`] = el.getAttribute('display') !== 'none';
  for (const id of ['panel', 'legend-rows', 'sea-units', 'battle', 'map-title'])
    if (root.getElementById?.(id) || root.querySelector(`#${id}`)) out[id] = (root.querySelector(`#${id}`)).textContent;
  for (const el of root.querySelectorAll('[id^="claim-"]')) out[el.id] = el.textContent;
  return out;
}"""

#: each game with a person and bots, and how long it is played for
GAMES = [("hy-breasil", {"turns": 2}, ["human", "auto", "auto"]),
         ("version2", {"players": 3}, ["human", "random", "random"]),
         ("brian-boru", {"players": 3}, ["human", "random", "random"]),
         ("brittania", {"players": 3}, ["human", "random", "random"])]


def _state(server: str, gid: str, token: str) -> dict:
    return httpx.get(f"{server}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()


def _areas(position: dict) -> dict:
    """What a position says of each area's owner and units."""
    return {a: (e.get("seat"), (e.get("owner") or {}).get("seat"), tuple(e.get("units", ())))
            for a, e in position["areas"].items()}


def _asked_and_shown(server: str, page, gid: str, token: str) -> dict:
    """The state once the bots have replied (the person is asked again, or the game is over)
    and the page shows its board."""
    for _ in range(300):
        s = _state(server, gid, token)
        if (s["over"] or 0 in s["awaiting"]) and page.evaluate("document.body.dataset.board") == str(s["version"]):
            return s
        page.wait_for_timeout(100)
    pytest.fail(f"the page never showed the board of version {s['version']} (it shows "
                f"{page.evaluate('document.body.dataset.board')})")


@pytest.mark.parametrize("game,options,seats", GAMES, ids=[g[0] for g in GAMES])
def test_the_board_is_fetched_once_and_each_new_state_is_applied_in_place(server, page, game, options, seats):
    r = httpx.post(f"{server}/api/games", json={"game": game, "options": options, "seed": 5, "seats": seats}, timeout=60)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    boards: list[str] = []
    page.on("request", lambda rq: boards.append(rq.url) if "board.svg" in rq.url else None)
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}#token={token}")
    first = _asked_and_shown(server, page, gid, token)
    seen = [first]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(12):
        s = seen[-1]
        if s["over"] or len({tuple(sorted(_areas(x["board"]).items())) for x in seen}) >= 3:
            break
        mine = [d for d in s["pending"] if d["player"] == 0]
        assert mine, f"{game}: the person has nothing to answer at version {s['version']}"
        r = httpx.post(f"{server}/api/games/{gid}/answers", headers=auth,
                       json={"key": mine[0]["options"][0]["key"], "version": s["version"]}, timeout=60)
        assert r.status_code == 200, r.text
        seen.append(_asked_and_shown(server, page, gid, token))
    assert len(seen) >= 3, f"{game}: too few versions came"
    changed = [a for a, v in _areas(seen[-1]["board"]).items() if _areas(first["board"])[a] != v]
    assert changed, f"{game}: no area's owner or units changed in {len(seen)} versions"
    assert len(boards) == 1, f"{game}: the board was fetched {len(boards)} times: {boards}"

    shown = page.evaluate(f"({READ})(document.querySelector('#board svg'))")
    whole = page.evaluate(f"""async () => {{
        const text = await (await fetch('/api/games/{gid}/board.svg?check')).text();
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return ({READ})(doc.documentElement);
    }}""")
    assert shown.keys() == whole.keys()
    differ = {k: (shown[k], whole[k]) for k in shown if shown[k] != whole[k]}
    assert not differ, f"{game}: the board in place differs from the whole drawing: {dict(list(differ.items())[:5])}"
    # the areas that changed show the new state's owner and units
    last = seen[-1]["board"]["areas"]
    for a in changed[:5]:
        units = page.evaluate("(id) => document.getElementById(id)?.textContent ?? null", f"units-{a}")
        if units is not None:
            assert units == "".join(last[a].get("units", ())), (game, a)
        seat = last[a].get("seat", (last[a].get("owner") or {}).get("seat"))
        owner = page.evaluate("(a) => (document.getElementById(`owner-${a}`) || document.getElementById(`area-${a}`) "
                              "|| document.getElementById(`town-${a}`)).dataset.seat ?? null", a)
        assert owner == (None if seat is None else str(seat)), (game, a, owner, seat)
