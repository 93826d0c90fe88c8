"""The board readable by every eye: the palette the player picks (the game's own,
Okabe–Ito's, Paul Tol's) repaints every seat-coloured part of each game's board, keeps
each owner's pattern over it, survives a reload, and keeps the labels at 4.5:1 against
their halo; a twelve-seat Brittania game's seats stay pairwise distinct in every palette."""

from __future__ import annotations

import itertools

import httpx
import pytest

from .test_browser import browser, server, shot, wait_board  # noqa: F401 (fixtures)
from .test_browser import page  # noqa: F401
from .test_browser_over import _finished, _open as _open_finished

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

GAMES = {"hy-breasil": {"turns": 2}, "brian-boru": {}, "brittania": {}, "version2": {"turn_limit": 4}}

#: each seat-coloured part: its seat, the colour painted (fill, or stroke for an outline), and
#: whether a pattern of its seat lies over it (not over an outline or a text: those keep the colour alone)
PARTS = """() => [...document.querySelectorAll('#board svg [data-seat]')].map(e => {
  const outline = e.getAttribute('fill') === 'none';
  const next = e.nextElementSibling;
  return {seat: Number(e.dataset.seat), shade: Number(e.dataset.shade || 0), outline: outline || e.tagName === 'text',
          colour: (e.getAttribute(outline ? 'stroke' : 'fill') || '').toLowerCase(),
          pattern: !!next && next.classList.contains('seat-pattern')
                   && next.getAttribute('fill') === `url(#seat-pattern-${Number(e.dataset.seat) % 12})`};
})"""


def _open(server, page, game: str, seats: list[str]) -> None:
    r = httpx.post(f"{server}/api/games", json={"game": game, "options": GAMES[game], "seed": 3, "seats": seats}, timeout=60)
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    page.add_init_script("localStorage.setItem('realms-pace', '0')")
    page.goto(f"{server}/games/{gid}#token={token}")
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=20000)
    # the bots done (the person asked) and that state's board shown: nothing moves under the test
    for _ in range(300):
        s = httpx.get(f"{server}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
        if 0 in s["awaiting"] and page.evaluate("document.body.dataset.board") == str(s["version"]):
            return
        page.wait_for_timeout(100)
    pytest.fail(f"the page never showed the board of the person's turn (version {s['version']})")


def _palette(page, name: str) -> list[str]:
    return page.evaluate(f"""async () => (await import('/static/palette.js')).PALETTES
                             .find(([id]) => id === {name!r})[2].map(c => c.toLowerCase())""")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_palette_switch_repaints_the_board_and_keeps_the_patterns(server, page, tmp_path, game):
    seats = ["human"] + ["auto" if game == "hy-breasil" else "random"] * 2
    _open(server, page, game, seats)
    before = page.evaluate(PARTS)
    assert before, f"{game}'s board marks no part with data-seat"
    assert all(p["pattern"] for p in before if not p["outline"]), [p for p in before if not p["pattern"]][:3]
    okabe = _palette(page, "okabe-ito")
    page.select_option("#pace-box select.palette", "okabe-ito")
    page.wait_for_function("document.body.dataset.palette === 'okabe-ito'")
    after = page.evaluate(PARTS)
    assert [p["seat"] for p in after] == [p["seat"] for p in before]
    assert all(p["colour"] == okabe[p["seat"] % 12] for p in after if not p["shade"]), after[:3]
    assert any(a["colour"] != b["colour"] for a, b in zip(after, before)), "no colour changed"
    assert all(p["pattern"] for p in after if not p["outline"])
    # the key beside the board shows the same colours
    key = page.evaluate("[...document.querySelectorAll('.seat-swatch rect:first-of-type')].map(r => r.getAttribute('fill').toLowerCase())")
    assert key == okabe[:len(seats)]
    shot(page, f"palette-{game}-okabe-ito", tmp_path)
    # kept across a reload; the labels still read at 4.5:1 against their halo
    page.reload()
    wait_board(page)
    page.wait_for_function("document.body.dataset.palette === 'okabe-ito'")
    assert page.input_value("#pace-box select.palette") == "okabe-ito"
    assert all(p["colour"] == okabe[p["seat"] % 12] for p in page.evaluate(PARTS) if not p["shade"])
    contrast = page.evaluate("document.body.dataset.labelContrast")
    assert contrast and float(contrast) >= 4.5, contrast
    # back to the game's own colours: the drawing's own, as before
    page.select_option("#pace-box select.palette", "game")
    page.wait_for_function("document.body.dataset.palette === 'game'")
    assert [p["colour"] for p in page.evaluate(PARTS)] == [p["colour"] for p in before]


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of "#rrggbb"."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """CIE76 colour distance (2.3 is a just-noticeable difference)."""
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


def test_delta_e_tells_near_from_far():
    assert delta_e("#ffffff", "#ffffff") == 0
    assert delta_e("#000000", "#ffffff") > 99
    assert delta_e("#777777", "#787878") < 2.3


def test_twelve_brittania_seats_stay_distinct_in_every_palette(server, page, tmp_path):
    _open(server, page, "brittania", ["human"] + ["random"] * 11)
    for name in ("game", "okabe-ito", "tol-muted"):
        page.select_option("#pace-box select.palette", name)
        page.wait_for_function(f"document.body.dataset.palette === {name!r}")
        key = page.evaluate("[...document.querySelectorAll('.seat-swatch rect:first-of-type')]"
                            ".map(r => r.getAttribute('fill').toLowerCase())")
        assert len(key) == 12
        worst = min((delta_e(a, b), a, b) for a, b in itertools.combinations(key, 2))
        assert worst[0] >= 20, f"{name}: seats {worst[1]} and {worst[2]} are only ΔE {worst[0]:.1f} apart"
        # the board's states are painted in the key's colours
        parts = page.evaluate(PARTS)
        assert parts and all(p["colour"] == key[p["seat"]] for p in parts), parts[:3]
    shot(page, "palette-brittania-12-tol-muted", tmp_path)


def test_a_players_nations_keep_their_own_shades_in_every_palette(server, page, tmp_path):
    """Hy Breasil's nations of one player are shades of the player's colour: under a palette
    the player picks, each nation keeps a shade of its own (``data-shade``), at least ΔE 15
    from the player's others, on the map, at sea and in the legend alike."""
    gid = _finished(server, "hy-breasil", ["greedy", "greedy", "greedy"], {"turns": 3})
    _open_finished(page, server, gid)
    for name in ("okabe-ito", "tol-muted"):
        page.select_option("#pace-box select.palette", name)
        page.wait_for_function(f"document.body.dataset.palette === {name!r}")
        palette = _palette(page, name)
        shades: dict[tuple[int, int], set[str]] = {}
        for p in page.evaluate(PARTS):
            if not p["outline"]:
                shades.setdefault((p["seat"], p["shade"]), set()).add(p["colour"])
        assert all(len(c) == 1 for c in shades.values()), (name, shades)
        assert all(c == {palette[seat]} for (seat, shade), c in shades.items() if shade == 0), (name, shades)
        seats = {seat for seat, _ in shades}
        several = [seat for seat in seats if sum(s == seat for s, _ in shades) > 1]
        assert several, f"no player holds two nations at the end: nothing to tell apart ({shades})"
        for seat in several:
            mine = [next(iter(c)) for (s, _), c in shades.items() if s == seat]
            worst = min(delta_e(a, b) for a, b in itertools.combinations(mine, 2))
            assert worst >= 15, f"{name}: seat {seat}'s nations {mine} only ΔE {worst:.1f} apart"
    shot(page, "palette-hy-breasil-nations-tol-muted", tmp_path)
