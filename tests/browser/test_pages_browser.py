"""The pages in a real headless Chromium, served by the live API at 127.0.0.1: the graph canvas
draws the expected nodes, the console stays clean and no request leaves 127.0.0.1."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from urllib.parse import urlsplit

from leishen_cdp import save_screenshot

from leishen.cli.view_cmd import node_count
from leishen.loaders.corpus import load_corpus, parse_citation

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


PAINTED = """(() => {{ const c = {doc}.querySelector('#mynetwork canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; }})()"""


def painted(page, doc: str = "document") -> int:
    """How many pixels of the graph canvas are drawn on (the canvas is transparent where empty),
    once vis-network has painted it and its layout stands still."""
    page.wait(f"{doc}.body.dataset.drawn === '1' && {doc}.body.dataset.settled === '1'")
    return page.evaluate(PAINTED.format(doc=doc))


def test_symbol_view_page_draws_the_neighbourhood(live_server, browser, screenshots, nx_backend):
    rows = nx_backend.run("symbol_relations", node_id="Branch:zi")
    expected = len({"Branch:zi"} | {r["other"]["id"] for r in rows} | {r["via"]["id"] for r in rows if r["via"]})
    browser.open(f"{live_server}/views/symbol/{urllib.parse.quote('子')}", "document.body.dataset.ready === '1'")
    assert browser.evaluate("document.querySelector('#mynetwork canvas') !== null")
    assert browser.evaluate("network.body.data.nodes.length") == expected
    assert browser.evaluate("Number(document.body.dataset.nodes)") == expected
    assert painted(browser) > 0
    save_screenshot(browser, screenshots, "view-symbol.png")
    assert_stayed_home(browser)


def test_schema_view_page(live_server, browser, screenshots, nx_backend):
    stats = nx_backend.run("stats")[0]
    browser.open(f"{live_server}/views/schema", "document.body.dataset.ready === '1'")
    drawn = browser.evaluate("network.body.data.nodes.getIds()")
    assert {f"label:{label}" for label in stats["nodes"]} <= set(drawn)
    assert painted(browser) > 0
    save_screenshot(browser, screenshots, "view-schema.png")
    assert_stayed_home(browser)


def test_web_page_casts_the_moment_and_draws_its_reading(live_server, browser, screenshots, corpus_dir):
    query = urllib.parse.urlencode({"moment": MOMENT, "tz": TZ})
    reading = get_json(f"{live_server}/readings?{query}")
    with urllib.request.urlopen(f"{live_server}/views/reading?{query}", timeout=60) as answer:
        graph_nodes = node_count(answer.read().decode("utf-8"))
    browser.open(f"{live_server}/?{query}&lang=zh", "document.body.dataset.ready === '1'")
    assert browser.evaluate("document.getElementById('status').textContent") == ""
    assert browser.evaluate("document.querySelectorAll('#liuren .cell').length") == 12
    assert browser.evaluate("document.querySelector('#liuren [data-earth=\"巳\"] b').textContent") == "寅"
    assert browser.evaluate("document.querySelectorAll('#qimen .palace').length") == 9
    assert browser.evaluate("document.querySelectorAll('#ninestar .palace').length") == 27
    assert browser.evaluate("document.querySelectorAll('#school-options select').length") >= 6
    assert browser.evaluate("Number(document.body.dataset.findings)") == len(reading["findings"]) > 0
    assert browser.evaluate("document.getElementById('graph').getAttribute('src')") is None  # drawn when asked
    browser.evaluate("document.getElementById('graph-view').open = true")
    frame = "document.getElementById('graph').contentDocument"
    browser.wait(f"{frame}.body.dataset.ready === '1'")
    assert browser.evaluate("document.getElementById('graph').contentWindow.network.body.data.nodes.length") == graph_nodes
    assert browser.evaluate(f"Number({frame}.body.dataset.nodes)") == graph_nodes
    assert painted(browser, frame) > 0
    src = browser.evaluate("document.querySelector('#findings a.cite').dataset.src")  # the first citation link
    assert src in {s for f in reading["findings"] for s in f["src"]}
    browser.evaluate("document.querySelector('#findings a.cite').click()")
    browser.wait(f"document.getElementById('passage').textContent.startsWith({json.dumps(src + ' ')})")
    passage = load_corpus(corpus_dir).passage(parse_citation(src))
    assert browser.evaluate("document.getElementById('passage').textContent") == f"{src} {passage}"
    assert_stayed_home(browser)


def test_web_page_refuses_a_moment_that_is_not_one_and_names_topics_in_the_query_language(live_server, browser):
    """A bad moment in the address is an error on the page, never a reading of now; lang=ko names the topics
    in Korean; a lore finding is named in the page's language (a relation with its two slots)."""
    browser.open(f"{live_server}/?moment=garbage&tz=Asia/Seoul&lang=en", "document.body.dataset.ready === '1'")
    assert "moment: 'garbage'" in browser.evaluate("document.getElementById('status').textContent")
    assert browser.evaluate("document.body.dataset.findings") is None
    query = urllib.parse.urlencode({"moment": MOMENT, "tz": TZ})
    browser.open(f"{live_server}/?{query}&lang=ko", "document.body.dataset.ready === '1'")
    labels = browser.evaluate("[...document.querySelectorAll('#topics option')].map((o) => o.textContent)")
    assert "인물" in labels and "人物" not in labels
    names = browser.evaluate("[...document.querySelectorAll('#findings li .finding-path')].map((b) => b.textContent)")
    assert not {"kin", "relations", "stages", "vigour"} & set(names)
    assert any(n.startswith("형충파해합 ") and "–" in n for n in names)


def test_web_page_reads_now_and_says_what_of_the_address_it_cannot_read(live_server, browser):
    browser.open(f"{live_server}/?moment=now&tz=Asia/Seoul&lang=en&no_such_option=1",
                 "document.body.dataset.ready === '1'")
    assert int(browser.evaluate("document.body.dataset.findings")) > 0
    assert "no_such_option" in browser.evaluate("document.getElementById('status').textContent")
