"""The lobby as a new visitor sees it, on a desktop and on a phone: every game's options
readable (each help button beside the control it explains), nothing wider than the
screen, an empty list of games saying so, and the clock's fields usable only with a clock.
Playwright driving chromium, as test_browser.py (REALMS_BROWSER=1)."""

from __future__ import annotations

import pytest

from .test_browser import browser, server, shot  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(__import__("os").environ.get("REALMS_BROWSER") != "1",
                                 reason="browser tests run with REALMS_BROWSER=1")]

#: each help button against the control it follows: [name, top, bottom, help top, help bottom]
_PLACES = """() => [...document.querySelectorAll('#option-groups button.help')].map(b => {
  const c = b.previousElementSibling.querySelector('input:not([type=checkbox]), select');
  if (!c) return null;
  const r = c.getBoundingClientRect(), h = b.getBoundingClientRect();
  return [c.id, r.top, r.bottom, h.top, h.bottom];
}).filter(x => x)"""


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_each_options_help_sits_beside_its_control(server, browser, tmp_path, width, height):  # noqa: F811
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("#game option", state="attached")
        games = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
        assert len(games) >= 2
        for g in games:
            page.select_option("#game", g)
            page.wait_for_selector("#option-groups button.help")
            for name, top, bottom, htop, hbottom in page.evaluate(_PLACES):
                assert htop < bottom and hbottom > top, (g, width, name, "help button on another line")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (g, width, wide)
        shot(page, f"lobby-{width}", tmp_path)
    finally:
        ctx.close()


def test_an_empty_list_of_games_says_so_and_the_clock_fields_follow_the_clock(server, browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    page = ctx.new_page()
    try:
        page.route("**/api/games", lambda route: route.fulfill(json={"games": []})
                   if route.request.method == "GET" else route.continue_())
        page.goto(server + "/")
        page.wait_for_selector("#recent li")
        assert "No game yet" in page.inner_text("#recent")
        assert page.is_disabled("#clock-minutes") and page.is_disabled("#clock-increment")
        page.select_option("#clock-kind", "turn")
        assert page.is_enabled("#clock-minutes") and page.is_disabled("#clock-increment")
        page.select_option("#clock-kind", "bank")
        assert page.is_enabled("#clock-minutes") and page.is_enabled("#clock-increment")
    finally:
        ctx.close()


def test_a_refused_body_reads_as_a_line_naming_the_field(server, browser):  # noqa: F811
    """A 422 whose detail lists the fields that were not as expected (FastAPI's shape)
    shows as "seed: …", not as JSON."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 800})
    page = ctx.new_page()
    detail = [{"type": "less_than_equal", "loc": ["body", "seed"],
               "msg": "Input should be less than or equal to 2147483647"}]
    try:
        page.route("**/api/games", lambda route: route.fulfill(status=422, json={"detail": detail})
                   if route.request.method == "POST" else route.continue_())
        page.goto(server + "/")
        page.wait_for_selector("#game option", state="attached")
        assert page.get_attribute("#seed", "max") == "2147483647"
        page.click("#create-button")
        page.wait_for_function("document.getElementById('create-error').textContent !== ''")
        assert page.inner_text("#create-error") == "seed: Input should be less than or equal to 2147483647"
    finally:
        ctx.close()
