"""The pages in a real headless Chromium, served by the live API at 127.0.0.1: the graph canvas
draws the expected nodes, the console stays clean and no request leaves 127.0.0.1."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from urllib.parse import urlsplit

from leishen_cdp import save_screenshot

MOMENT, TZ = "2026-12-01T09:00:00", "Asia/Shanghai"
LOCAL_SCHEMES = ("data", "about", "blob")


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


def assert_stayed_home(page) -> None:
    """Every request the page made went to 127.0.0.1, and nothing was logged as an error."""
    page.drain()
    urls = page.requested_urls()
    assert urls, "the page made no request at all"
    away = [u for u in urls if urlsplit(u).scheme not in LOCAL_SCHEMES and urlsplit(u).hostname != "127.0.0.1"]
    assert away == []
    assert page.console_errors() == []


def reading_nodes(reading: dict) -> int:
    """How many nodes the reading graph should draw: slots, path and evidence nodes, findings."""
    ids = set()
    for f in reading["findings"]:
        for hops in [f["path"], *(f.get("evidence") or [])]:
            ids |= {h["node"].get("id") or f"{h['node']['label']}:{h['node']['key']}" for h in hops if "node" in h}
        ids |= {f"slot:{f['system']}:{s}" for s, n in (f.get("bindings") or {}).items()}
        ids.add(f"finding:{f['id']}")
    return len(ids)


def test_symbol_view_page_draws_the_neighbourhood(live_server, browser, screenshots, nx_backend):
    rows = nx_backend.run("symbol_relations", node_id="Branch:zi")
    expected = len({"Branch:zi"} | {r["other"]["id"] for r in rows} | {r["via"]["id"] for r in rows if r["via"]})
    browser.open(f"{live_server}/views/symbol/{urllib.parse.quote('子')}", "document.body.dataset.ready === '1'")
    assert browser.evaluate("document.querySelector('#mynetwork canvas') !== null")
    assert browser.evaluate("network.body.data.nodes.length") == expected
    assert browser.evaluate("Number(document.body.dataset.nodes)") == expected
    save_screenshot(browser, screenshots, "view-symbol.png")
    assert_stayed_home(browser)


def test_schema_view_page(live_server, browser, screenshots, nx_backend):
    stats = nx_backend.run("stats")[0]
    browser.open(f"{live_server}/views/schema", "document.body.dataset.ready === '1'")
    drawn = browser.evaluate("network.body.data.nodes.getIds()")
    assert {f"label:{label}" for label in stats["nodes"]} <= set(drawn)
    save_screenshot(browser, screenshots, "view-schema.png")
    assert_stayed_home(browser)


def test_web_page_casts_the_moment_and_draws_its_reading(live_server, browser, screenshots):
    query = urllib.parse.urlencode({"moment": MOMENT, "tz": TZ})
    reading = get_json(f"{live_server}/readings?{query}")
    browser.open(f"{live_server}/?{query}&lang=zh", "document.body.dataset.ready === '1'")
    assert browser.evaluate("document.getElementById('status').textContent") == ""
    assert browser.evaluate("document.querySelectorAll('#liuren .cell').length") == 12
    assert browser.evaluate("document.querySelector('#liuren [data-earth=\"巳\"] b').textContent") == "寅"
    assert browser.evaluate("document.querySelectorAll('#qimen .palace').length") == 9
    assert browser.evaluate("document.querySelectorAll('#ninestar .palace').length") == 27
    assert browser.evaluate("Number(document.body.dataset.findings)") == len(reading["findings"])
    graph = "document.getElementById('graph').contentWindow"
    browser.evaluate(f"""new Promise(done => {{ const w = {graph};
        (function poll() {{ if (w.document.body && w.document.body.dataset.ready === '1') done(); else setTimeout(poll, 100); }})(); }})""")
    assert browser.evaluate(f"{graph}.document.querySelector('#mynetwork canvas') !== null")
    assert browser.evaluate(f"{graph}.network.body.data.nodes.length") == reading_nodes(reading)
    save_screenshot(browser, screenshots, "web-page.png")
    assert_stayed_home(browser)
