"""Key → update latency of the review workspace in Chromium (``bench_review --browser``).

Serves the project with ``manage.py runserver`` in a separate process (static files
included), opens the review page of a transcript built by ``build_review_transcript`` in
Debian's Chromium (Playwright), and for each action presses its key the way an annotator
does. Times run from the page's own ``keydown`` event to the first animation frame after
the original pane, the pseudonymized pane and the progress counter all show the result
(a/x show their decision at once); "confirmed" runs until the server's answer has been
swapped in, "answered" until it arrived. The bytes of every answer are recorded too.
Optionally saves screenshots of the page at 1440×900 and 1280×720.
"""

import statistics
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.urls import reverse

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Installed in the page: starts a watch on keydown (capture, before the page's handler),
# resolves when ``window.__benchDone()`` holds after a DOM change, then waits one frame.
WATCH_JS = """
([cond]) => {
  window.__bench = {t0: null, t1: null, t2: null};
  const done = new Function('return (' + cond + ')();');
  const onKey = (e) => {
    window.__bench.t0 = performance.now();
    window.removeEventListener('keydown', onKey, true);
    window.__benchResult = document.getElementById('action-result');
    const answered = () => {  // the server's answer swapped in (its #action-result)
      const r = document.getElementById('action-result');
      return r && r !== window.__benchResult;
    };
    const obs = new MutationObserver(() => {
      const b = window.__bench;
      if (b.t1 === null && done()) {
        b.t1 = -1;
        requestAnimationFrame(() => { b.t1 = performance.now(); });
      }
      if (b.t2 === null && answered()) {
        b.t2 = -1;
        requestAnimationFrame(() => { b.t2 = performance.now(); });
      }
      if (b.t1 !== null && b.t2 !== null) obs.disconnect();
    });
    obs.observe(document.body, {subtree: true, childList: true, attributes: true,
                                characterData: true});
  };
  window.addEventListener('keydown', onKey, true);
}
"""


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p * (len(ordered) - 1))))]


def server_environment() -> dict[str, str]:
    """The environment of the benchmark's own server: this one, with plain HTTP forced
    (``HTTPS=0``). It listens on 127.0.0.1 without TLS, so the deployment's HTTPS setting
    (on by default when DEBUG is off) would redirect the browser to https."""
    import os

    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "anonreview.settings"),
        "HTTPS": "0",
    }


class _Server:
    """``manage.py runserver`` in its own process (as in production, the browser's driver
    does not share the server's interpreter), on a free local port."""

    def __enter__(self):
        import socket
        import subprocess
        import sys
        import time

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        manage = Path(settings.BASE_DIR) / "manage.py"
        self.process = subprocess.Popen(  # noqa: S603 (our own manage.py, fixed arguments)
            [sys.executable, str(manage), "runserver", "--noreload", "--insecure",
             f"127.0.0.1:{port}"],
            env=server_environment(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return f"http://127.0.0.1:{port}"
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.2)
        self.process.kill()
        raise RuntimeError("The benchmark's server did not start.")

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def session_cookie(user) -> str:
    """A session for ``user`` (made before Playwright starts: its event loop forbids the ORM)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def logged_in_page(browser, *, base: str, cookie: str, timeout_ms: int):
    """A 1440×900 page of ``browser`` that carries the session ``cookie`` for ``base``."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    return page


def run_browser_bench(
    *, transcript, user, repeat: int, chromium: str, screenshots: Path | None = None
) -> dict:
    """Median/p95 of key → update for j, a, x, u and relabel (digit key); answer sizes."""
    from playwright.sync_api import sync_playwright

    cookie = session_cookie(user)
    page_path = reverse("annotations:review", args=[transcript.pk])
    with _Server() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = logged_in_page(browser, base=base, cookie=cookie, timeout_ms=20_000)
            sizes: dict[str, list[int]] = {}
            last_action = {"name": None}

            server: dict[str, list[float]] = {}

            def on_response(response):
                if response.request.method == "POST" and last_action["name"]:
                    body = response.body()
                    sizes.setdefault(last_action["name"], []).append(len(body))
                    timing = response.headers.get("server-timing", "")
                    if "dur=" in timing:
                        server.setdefault(last_action["name"], []).append(
                            float(timing.split("dur=")[1].split(",")[0])
                        )

            page.on("response", on_response)
            interactive = _open(page, base + page_path)
            if screenshots:
                _screenshots(page, base + page_path, screenshots, "page")
            _measure(page, 2, last_action)  # warm-up: the server loads models on first use
            ROUND_TRIPS.clear()
            CONFIRMED.clear()
            for values in [*sizes.values(), *server.values()]:
                values.clear()
            timings = _measure(page, repeat, last_action)
            if screenshots:  # decided spans of every status beside undecided ones
                page.screenshot(path=str(screenshots / "review-decided-1440x900.png"))
        finally:
            browser.close()
    return {
        "interactive_ms": round(interactive, 1),
        "repeat": repeat,
        "timings": {
            name: {
                "median_ms": round(statistics.median(values), 1),
                "p95_ms": round(_pct(values, 0.95), 1),
                "max_ms": round(max(values), 1),
                "answer_bytes": round(statistics.median(sizes.get(name, [0]))),
                "answer_p95_bytes": _pct(sizes.get(name, [0]), 0.95),
                "answer_max_bytes": max(sizes.get(name, [0])),
                "answered_ms": round(statistics.median(ROUND_TRIPS.get(name, [0])), 1),
                "server_median_ms": round(statistics.median(server.get(name, [0])), 1),
                "server_p95_ms": round(_pct(server.get(name, [0]), 0.95), 1),
                "confirmed_median_ms": round(statistics.median(CONFIRMED.get(name, [0])), 1),
                "confirmed_p95_ms": round(_pct(CONFIRMED.get(name, [0]), 0.95), 1),
            }
            for name, values in timings.items()
        },
    }


def _open(page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("#review[data-ready='1']")
    # a then x on the same span: auto-advance off (the toggle's stored setting)
    page.evaluate("() => localStorage.setItem('review.autoAdvance', '0')")
    page.goto(url)
    page.wait_for_selector("#review[data-ready='1']")
    return page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return n.domContentLoadedEventEnd || n.domInteractive; }"
    )


def _screenshots(page, url: str, folder: Path, tag: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in ((1440, 900), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        page.wait_for_selector("#review[data-ready='1']")
        page.keyboard.press("j")
        page.wait_for_timeout(400)
        page.screenshot(path=str(folder / f"review-{tag}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    page.wait_for_selector("#review[data-ready='1']")


ROUND_TRIPS: dict[str, list[float]] = {}


CONFIRMED: dict[str, list[float]] = {}


def _timed_key(page, key: str, cond: str, name: str | None = None) -> float:
    page.evaluate(WATCH_JS, [cond])
    page.evaluate("() => performance.clearResourceTimings()")
    page.keyboard.press(key)
    page.wait_for_function("() => window.__bench.t1 > 0")
    if name:
        page.wait_for_function("() => window.__bench.t2 > 0")
        CONFIRMED.setdefault(name, []).append(
            page.evaluate("() => window.__bench.t2 - window.__bench.t0")
        )
    if name:
        trip = page.evaluate(
            "() => { const r = performance.getEntriesByType('resource')"
            ".filter(e => e.initiatorType === 'xmlhttprequest' && e.startTime >= window.__bench.t0);"
            " return r.length ? r[0].responseEnd - window.__bench.t0 : null; }"
        )
        if trip is not None:
            ROUND_TRIPS.setdefault(name, []).append(trip)
    return page.evaluate("() => window.__bench.t1 - window.__bench.t0")


def _current(page) -> str | None:
    return page.evaluate(
        "() => { const m = document.querySelector('#original mark.current');"
        " return m ? m.dataset.spanId : null; }"
    )


def _decided(page) -> int:
    return int(page.get_attribute("#progress", "data-decided"))


def _idle(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request') && !(window.__reviewBusy && window.__reviewBusy())"
    )


def _measure(page, repeat: int, last_action: dict) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {"j": [], "a": [], "x": [], "u": [], "relabel": []}
    both_panes = (
        "() => {{ const m = document.getElementById('s-{id}');"
        " return m && m.dataset.status === '{status}'"
        " && document.querySelector('#progress').dataset.decided === '{decided}'"
        " && {pseudo}; }}"
    )
    for _ in range(repeat):
        before = _current(page)
        last_action["name"] = None
        timings["j"].append(
            _timed_key(
                page,
                "j",
                "() => { const m = document.querySelector('#original mark.current');"
                f" return m && m.dataset.spanId !== '{before}'; }}",
            )
        )
        for key, status, name in (("a", "accepted", "a"), ("x", "rejected", "x")):
            span = _current(page)
            decided = _decided(page)
            last_action["name"] = name
            pseudo = (
                f"document.getElementById('p-{span}') !== null"
                if status == "accepted"
                else f"document.getElementById('p-{span}') === null"
            )
            cond = both_panes.format(
                id=span, status=status, decided=decided + (1 if name == "a" else 0), pseudo=pseudo
            )
            timings[name].append(_timed_key(page, key, cond, name))
            _idle(page)
        # x left the span rejected; undo brings it back to accepted.
        span = _current(page)
        decided = _decided(page)
        last_action["name"] = "u"
        cond = both_panes.format(
            id=span, status="accepted", decided=decided,
            pseudo=f"document.getElementById('p-{span}') !== null",
        )  # fmt: skip
        timings["u"].append(_timed_key(page, "u", cond, "u"))
        _idle(page)
        last_action["name"] = "relabel"
        label = page.get_attribute(f"#s-{span}", "data-label")
        key, new = ("6", "ORGANIZATION") if label == "LOCATION" else ("5", "LOCATION")
        cond = (
            f"() => {{ const m = document.getElementById('s-{span}');"
            f" return m && m.dataset.label === '{new}'"
            f" && document.querySelector('#p-{span}[data-label={new}]') !== null; }}"
        )
        timings["relabel"].append(_timed_key(page, key, cond, "relabel"))
        _idle(page)
    return timings
