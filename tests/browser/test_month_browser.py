"""The web page's month view of a 擇時 search (#38 item 6) in a real headless Chromium: a calendar grid of the month,
Monday first, each day with hours of the verdict asked coloured by that verdict and counting them as /find gives
them, the others grey and closed; a day opens its readings (the page cast on its first such hour); at a phone's
390 px nothing overflows; every request stays on 127.0.0.1."""

from __future__ import annotations

import urllib.parse
from collections import Counter

from leishen_cdp import Browser, save_screenshot
from test_pages_browser import MOMENT, TZ, assert_stayed_home, get_json

READY = "document.body.dataset.ready === '1'"
MONTH_READY = "document.getElementById('month').dataset.ready === '1'"


def search(page, month: str, topic: str, verdict: str) -> None:
    """Open the month view, fill its form and wait for the grid."""
    page.evaluate(f"""(() => {{ const box = document.getElementById('month'); box.open = true;
        const f = document.getElementById('month-ask'); f.elements.month.value = '{month}';
        f.elements.topic.value = '{topic}'; f.elements.verdict.value = '{verdict}'; f.requestSubmit(); }})()""")
    page.wait(MONTH_READY)


def expected_days(live_server: str, month: str, topic: str, verdict: str) -> Counter:
    query = urllib.parse.urlencode({"topic": topic, "verdict": verdict, "start": f"{month}-01T00:00:00",
                                    "end": f"{month}-31T23:00:00", "tz": TZ, "limit": 10000})
    return Counter(h["moment"]["local"][:10] for h in get_json(f"{live_server}/find?{query}"))


def test_the_month_grid_is_coloured_by_verdict_and_a_day_opens_its_readings(live_server, chromium, screenshots):
    with Browser(chromium) as page:
        page.viewport(1280, 1100)
        page.open(f"{live_server}/?" + urllib.parse.urlencode({"moment": MOMENT, "tz": TZ, "topic": "出行"}), READY)
        search(page, "2026-12", "出行", "吉")
        assert page.evaluate("document.getElementById('month-status').textContent") == ""
        cells = page.evaluate("""[...document.querySelectorAll('#month-grid .day')].map((d) =>
            [d.dataset.date, Number(d.dataset.hours || 0), d.className, d.disabled,
             getComputedStyle(d).backgroundColor])""")
        assert [c[0] for c in cells] == [f"2026-12-{d:02d}" for d in range(1, 32)]
        wanted = expected_days(live_server, "2026-12", "出行", "吉")
        assert {c[0]: c[1] for c in cells if c[1]} == dict(wanted) and wanted
        for date, hours, kind, disabled, colour in cells:
            assert (kind == "day v-吉") == bool(hours) and disabled == (not hours)
            assert (colour == "rgb(44, 160, 44)") == bool(hours), (date, colour)  # the page's 吉 green
        blanks = page.evaluate("document.querySelectorAll('#month-grid .blank').length")
        assert blanks == 1  # 2026-12-01 is a Tuesday: one blank after the Monday head
        if screenshots:
            save_screenshot(page, screenshots, "web-month")
        day = next(c[0] for c in cells if c[1])
        page.evaluate(f"document.querySelector('#month-grid .day[data-date=\"{day}\"]').click()")
        page.wait(f"{READY} && document.getElementById('ask').elements.moment.value.startsWith('{day}')")
        reading = page.evaluate("document.getElementById('ask').elements.moment.value")
        query = urllib.parse.urlencode({"moment": reading + ":00", "tz": TZ, "topic": "出行"})
        judged = {j["topic"]: j["verdict"] for j in get_json(f"{live_server}/readings?{query}")["judgments"]}
        assert judged["出行"] == "吉"
        assert "吉" in page.evaluate("document.getElementById('verdicts').textContent")
        assert_stayed_home(page)


def test_the_month_view_fits_a_phone_and_says_a_bad_search(live_server, chromium):
    with Browser(chromium) as page:
        page.viewport(390, 1600, mobile=True)
        page.open(f"{live_server}/?" + urllib.parse.urlencode({"moment": MOMENT, "tz": TZ}), READY)
        search(page, "2026-12", "no-such-topic", "凶")
        assert "topic" in page.evaluate("document.getElementById('month-status').textContent")
        assert page.evaluate("document.querySelectorAll('#month-grid .day').length") == 0
        search(page, "2026-02", "出行", "凶")
        assert page.evaluate("document.querySelectorAll('#month-grid .day').length") == 28
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
