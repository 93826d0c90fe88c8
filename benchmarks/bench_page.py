"""The game page on the wire: bytes and time to interactive.

Starts ``realms serve`` from the sources given (``--src``, default this checkout's) on a
loopback port, opens a Hy Breasil game page (a person and two auto bots, two turns) in
headless chromium (/usr/bin/chromium) and measures

- the page: the bytes received (compressed as sent: the Network domain's encoded length,
  HTTP and WebSocket frames) and the time from navigation to interactive (the decision's
  buttons shown and the board of the state drawn);
- the whole two-turn game played through the page (the answer kept in view, "End
  movement", else the first option; others' moves shown at once): the bytes received in all, and
  the number of board pictures fetched (a loop bounded in steps and seconds: a page that
  stops moving is reported with a screenshot, not waited on for ever);
- the worst contrast of a board label with its halo (``data-label-contrast``).

    .venv/bin/python benchmarks/bench_page.py [--src /path/to/src] [--seed 7]

Times depend on the machine's load: the script prints ``uptime`` with them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(HERE.parent / "src"), help="the sources to serve (PYTHONPATH)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--max-steps", type=int, default=400, help="the most steps of the game loop before it gives up")
    ap.add_argument("--seconds", type=float, default=600, help="the longest the game may take before it gives up")
    args = ap.parse_args()
    os.environ["PYTHONPATH"] = args.src
    from server.test_durability import start_server
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    db = f"/tmp/bench-page-{os.getpid()}.db"
    proc, url = start_server(db)
    try:
        r = httpx.post(f"{url}/api/games", json={"game": "hy-breasil", "options": {"turns": args.turns},
                                                 "seed": args.seed, "seats": ["human", "auto", "auto"]})
        gid, token = r.json()["id"], r.json()["seats"][0]["token"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.add_init_script("localStorage.setItem('realms-pace', '0')")
            page.on("dialog", lambda d: d.accept())
            cdp = page.context.new_cdp_session(page)
            cdp.send("Network.enable")
            got = {"http": 0, "ws": 0, "boards": 0}
            cdp.on("Network.loadingFinished", lambda e: got.__setitem__("http", got["http"] + e["encodedDataLength"]))
            cdp.on("Network.webSocketFrameReceived",
                   lambda e: got.__setitem__("ws", got["ws"] + len(e["response"]["payloadData"].encode())))
            page.on("request", lambda rq: got.__setitem__("boards", got["boards"] + ("board.svg" in rq.url)))
            start = time.perf_counter()
            page.goto(f"{url}/games/{gid}#token={token}")
            page.wait_for_selector("#options button, #keep button", timeout=60000)
            page.wait_for_function("document.body.dataset.board === document.body.dataset.version", timeout=60000)
            tti = time.perf_counter() - start
            page.wait_for_timeout(500)
            first = dict(got)
            contrast = page.evaluate("document.body.dataset.labelContrast")
            print(f"game page: {first['http'] + first['ws']:,} bytes ({first['http']:,} HTTP, {first['ws']:,} "
                  f"WebSocket), interactive in {tti:.2f} s", flush=True)
            answers = 0
            over = ("!!document.querySelector('#results:not([hidden])') || "
                    "document.getElementById('status').textContent.startsWith('The game is over')")
            deadline = time.monotonic() + args.seconds
            steps = 0

            def moved(v: str, seconds: float = 15) -> bool:
                """Whether the page shows a new version (its gesture done) or the game's end
                within ``seconds``; if not, the loop looks at the page again (a click the
                page dropped while it drew its controls anew is clicked again)."""
                try:
                    page.wait_for_function(f"(document.body.dataset.version !== '{v}' && "
                                           f"document.body.dataset.gesture === undefined) || {over}",
                                           timeout=seconds * 1000)
                    return True
                except PlaywrightTimeout:
                    return False

            while not page.evaluate(over):
                steps += 1
                if steps > args.max_steps or time.monotonic() > deadline:
                    page.screenshot(path="/tmp/bench-page-stuck.png", full_page=True)
                    raise RuntimeError(f"the game did not end within {args.max_steps} steps and {args.seconds} s "
                                       f"(at version {page.evaluate('document.body.dataset.version')}, {answers} "
                                       f"clicks): {page.inner_text('#prompt')!r} {page.inner_text('#error')!r} "
                                       f"{page.inner_text('#status')!r}; /tmp/bench-page-stuck.png")
                v = page.evaluate("document.body.dataset.version")
                buttons = page.locator("#options button.option:not(.hidden):visible")
                keep = page.locator("#keep button:visible")
                sources = page.locator("#options button.source:visible")
                back = page.locator("#move-back:visible")
                if keep.count() == 0 and sources.count():  # a move: a source, then a destination
                    sources.first.click()
                    targets = page.locator("#board .target")
                    if targets.count():
                        targets.first.dispatch_event("click")
                        answers += moved(v)
                elif buttons.count() + keep.count() == 0 and back.count():  # a source chosen: choose again
                    back.click()
                elif buttons.count() + keep.count() == 0:  # the bots' turn, or the page still drawing
                    moved(v)
                else:
                    (keep.last if keep.count() else buttons.first).click()
                    answers += moved(v)
            page.wait_for_timeout(500)
            browser.close()
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        print(f"sources: {args.src}")
        print(f"whole {args.turns}-turn game through the page ({answers} clicks): {got['http'] + got['ws']:,} bytes "
              f"({got['http']:,} HTTP, {got['ws']:,} WebSocket), {got['boards']} board pictures")
        print(f"worst label contrast: {contrast or 'not measured (no halo in these sources)'}")
        print(f"load: {load}")
    finally:
        proc.terminate()
        proc.wait(10)
        for suffix in ("", "-wal", "-shm"):
            Path(db + suffix).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
