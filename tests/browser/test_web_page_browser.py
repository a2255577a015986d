"""The web page at / in a real headless Chromium (issue #28 item 8, issue #31 "Web page"): the verdict panel first,
the findings grouped, filtered and tallied, citations reached by the keyboard, the loading indicator, the school
options of /views/options (at a phone's 390 px with no horizontal overflow), a finding's own path drawn on click,
the boards' 六親, 將 and palace directions; screenshots at 1280 and 390 px."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest

from leishen_cdp import Browser, save_screenshot
from test_pages_browser import TZ, assert_stayed_home, get_json

from leishen.loaders.corpus import load_corpus, parse_citation

TOPIC = "天時"  # judged with 用神, facets, 應期 dates; its general reading has conflicts
MOMENT = "2026-12-02T09:00:00"  # rain found and dated (on 12-01 rain stands beside fine weather: 未定, undated)
READY = "document.body.dataset.ready === '1'"


def js(value) -> str:
    """*value* as a JavaScript literal (CJK kept as itself: it goes into CSS selectors too)."""
    return json.dumps(value, ensure_ascii=False)


def address(**extra) -> str:
    return urllib.parse.urlencode({"moment": MOMENT, "tz": TZ, **extra})


@pytest.fixture(scope="module")
def topic_reading(live_server) -> dict:
    return get_json(f"{live_server}/readings?{address(topic=TOPIC)}")


@pytest.fixture
def wide(chromium):
    with Browser(chromium) as page:
        page.viewport(1280, 1100)
        yield page


@pytest.fixture
def phone(chromium):
    with Browser(chromium) as page:
        page.viewport(390, 1600, mobile=True)
        yield page


def texts(page, selector: str) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll({js(selector)})].map((n) => n.textContent)")


def test_the_verdict_panel_comes_first_with_use_gods_facets_dates_and_conflicts(live_server, wide, topic_reading,
                                                                                  screenshots):
    wide.open(f"{live_server}/?{address(topic=TOPIC)}&lang=en", READY)
    assert wide.evaluate("document.getElementById('status').textContent") == ""
    assert wide.evaluate("document.querySelector('main').firstElementChild.id") == "verdicts"
    judgments = topic_reading["judgments"]
    cards = wide.evaluate("[...document.querySelectorAll('.judgment-card')].map((c) => c.dataset.topic)")
    assert cards == [TOPIC, ""]  # the asked topic first, the general reading after it
    for j, card in zip([next(j for j in judgments if j["topic"] == TOPIC), judgments[0]], cards):
        at = f".judgment-card[data-topic={js(card)}]"
        verdict = wide.evaluate(f"document.querySelector('{at} .verdict').textContent")
        assert verdict == f"{j['verdict']} {j['verdict_names']['en']}"
        assert len(texts(wide, f"{at} .usegod li")) == len(j["use_god"]) > 0
        assert wide.evaluate(f"[...document.querySelectorAll('{at} .facet')].map((f) => f.dataset.facet)") == \
            [f["facet"] for f in j["facets"]]
        for facet in j["facets"]:
            row = f"{at} .facet[data-facet={js(facet['facet'])}]"
            shown = texts(wide, f"{row} .answer b")
            assert shown[:len(facet["answer"])] == [a["en"] for a in facet["answer"]]
            cited = set(texts(wide, f"{row} a.cite"))
            assert {s for a in facet["answer"] + (facet["conflict"] or []) for s in a["src"]} <= cited
        dates = wide.evaluate(f"[...document.querySelectorAll('{at} .when')].map((w) => w.dataset.date)")
        assert dates == [w["date"] or "" for w in j["when"]]
        assert len(texts(wide, f"{at} .conflicts li")) == len(j["conflicts"])
    assert any(w["date"] for w in judgments[1]["when"]) and judgments[0]["conflicts"]  # both shown, not vacuous
    save_screenshot(wide, screenshots, "web-page.png")  # before a passage is shown: no source text in it
    wide.evaluate("(s => { s.value = 'ko'; s.dispatchEvent(new Event('change')); })(document.forms.ask.elements.lang)")
    general = judgments[0]
    assert wide.evaluate("document.querySelector('.judgment-card[data-topic=\"\"] .verdict').textContent") == \
        f"{general['verdict']} {general['verdict_names']['ko']}"
    assert "lang=ko" in wide.evaluate("location.search")
    assert_stayed_home(wide)


def test_findings_are_grouped_asked_topic_first_filtered_and_tallied(live_server, wide, topic_reading):
    wide.open(f"{live_server}/?{address(topic=TOPIC)}&lang=zh", READY)
    findings = topic_reading["findings"]
    groups = wide.evaluate("[...document.querySelectorAll('#findings .group')].map((g) => "
                           "[g.dataset.topic, g.dataset.system, g.querySelectorAll('li[data-id]').length])")
    assert groups[0][0] == TOPIC and {g[0] for g in groups} == {TOPIC, ""}
    expected = [(t, s, sum(1 for f in findings if (f["topic"] or "") == t and f["system"] == s))
                for t in (TOPIC, "") for s in ("liuren", "qimen", "ninestar")]
    assert [tuple(g) for g in groups] == [g for g in expected if g[2]]
    for topic, counts in topic_reading["tally"].items():
        row = f"#tally tr[data-topic={js(topic)}] td"
        assert [int(n) for n in texts(wide, row)] == [counts[p] for p in ("吉", "凶", "平", "混")]

    def untick(kind: str, value: str) -> int:
        wide.evaluate(f"(b => {{ b.checked = false; b.dispatchEvent(new Event('change', {{bubbles: true}})); }})"
                      f"(document.querySelector('#filters input[data-kind={kind}][value={js(value)}]'))")
        return int(wide.evaluate("document.body.dataset.shown"))

    assert int(wide.evaluate("document.body.dataset.shown")) == len(findings)
    assert untick("polarity", "凶") == sum(1 for f in findings if f["polarity"] != "凶")
    assert untick("system", "qimen") == sum(1 for f in findings if f["polarity"] != "凶" and f["system"] != "qimen")
    hidden = wide.evaluate("[...document.querySelectorAll('#findings .group[hidden]')].map((g) => g.dataset.system)")
    assert hidden and set(hidden) == {"qimen"}  # a group with nothing left to show is hidden
    visible = wide.evaluate("[...document.querySelectorAll('#findings li[data-id]:not([hidden])')]"
                            ".map((li) => li.dataset.polarity + li.dataset.system)")
    assert visible and not any(v.startswith("凶") or v.endswith("qimen") for v in visible)


def test_citations_are_reached_by_tab_and_opened_by_enter_and_a_cast_shows_it_is_busy(live_server, wide, corpus_dir):
    wide.open(f"{live_server}/?{address(topic=TOPIC)}&lang=en", READY)
    item = wide.evaluate("document.querySelector('#findings li[data-id] a.cite').closest('li').id")
    wide.evaluate(f"document.querySelector('#{item} .finding-path').focus()")
    wide.press("Tab")
    focused = wide.evaluate("[document.activeElement.className, document.activeElement.getAttribute('href'), "
                            "document.activeElement.dataset.src]")
    assert focused[0] == "cite" and focused[1] == "#src-" + focused[2].replace(":", "-")
    wide.press("Enter")
    wide.wait(f"document.getElementById('passage').textContent.startsWith({js(focused[2] + ' ')})")
    passage = load_corpus(corpus_dir).passage(parse_citation(focused[2]))
    assert wide.evaluate("document.getElementById('passage').textContent") == f"{focused[2]} {passage}"
    assert wide.evaluate("location.hash") == focused[1]
    wide.open("about:blank", "document.body !== null")  # a new document: nothing shown yet
    wide.open(f"{live_server}/?{address(topic=TOPIC)}&lang=en{focused[1]}", READY)  # the address names a passage
    wide.wait(f"document.getElementById('passage').textContent === {js(focused[2] + ' ' + passage)}")
    assert wide.evaluate("location.hash") == focused[1]  # a cast keeps it
    # while a cast is in flight the indicator shows and the page says it is busy; after it, neither
    during = wide.evaluate("document.forms.ask.requestSubmit(), [document.getElementById('busy').hidden, "
                           "document.body.dataset.busy, document.getElementById('main').getAttribute('aria-busy')]")
    assert during == [False, "1", "true"]
    wide.wait(READY)
    assert wide.evaluate("[document.getElementById('busy').hidden, document.body.dataset.busy]") == [True, None]
    assert_stayed_home(wide)


def test_school_options_come_from_views_options_and_fit_a_phone(live_server, phone, screenshots):
    options = get_json(f"{live_server}/views/options")
    phone.open(f"{live_server}/?{address()}&lang=ko", READY)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(phone, screenshots, "web-page-390.png")
    phone.evaluate("document.getElementById('schools').open = true")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert texts(phone, "#school-options label") == [o["names"]["ko"] for o in options]
    assert texts(phone, "#school-options .help") == [o["help"]["ko"] for o in options]
    for option in options:
        field = f"document.forms.ask.elements[{js(option['name'])}]"
        if option["kind"] == "choice":
            assert phone.evaluate(f"{field}.value") == ("" if option["default"] is None else str(option["default"]))
        else:
            assert phone.evaluate(f"[{field}.type, {field}.min, {field}.max]") == \
                ["number", str(option["min"]), str(option["max"])]
    assert {"birth_year", "longitude", "qimen_leap_threshold"} <= {o["name"] for o in options if o["kind"] != "choice"}
    phone.evaluate("document.forms.ask.elements.birth_year.value = '1984'; document.forms.ask.requestSubmit()")
    phone.wait(READY)
    sent = phone.evaluate("location.search")
    assert "birth_year=1984" in sent and "noble_table" not in sent  # a default is left out of the query
    phone.evaluate("document.forms.ask.elements.birth_year.value = '1700'; document.forms.ask.requestSubmit()")
    phone.wait("document.getElementById('status').textContent.startsWith('birth_year: ')")  # refused, named
    assert "birth_year=1984" in phone.evaluate("location.search")  # and not cast
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_panel_offers_every_option_of_the_table_with_its_choices_and_default(live_server, wide):
    """The panel the page built (from /views/options) has a field per row of engine/options.csv: a select of the
    table's choices set to its default, or a number input bounded as the table bounds it (issue #37 item 5)."""
    from leishen.engine.options import options
    wide.open(f"{live_server}/?{address()}&lang=en", READY)
    for spec in options():
        field = f"document.forms.ask.elements[{js(spec.name)}]"
        if spec.kind == "choice":
            shown = wide.evaluate(f"[{field}.value, [...{field}.options].map((o) => o.value)]")
            assert shown == [spec.default, list(spec.values)], spec.name
        else:
            shown = wide.evaluate(f"[{field}.type, {field}.min, {field}.max, {field}.placeholder]")
            assert shown == ["number", str(spec.low), str(spec.high), str(spec.default)], spec.name


def test_a_finding_draws_its_own_path_in_path_order_in_the_chosen_language(live_server, wide, topic_reading):
    wide.open(f"{live_server}/?{address(topic=TOPIC)}&lang=en", READY)
    finding = next(f for f in topic_reading["findings"] if f["query"] == "patterns" and len(f["path"]) >= 5)
    item = f"#findings li[data-id={js(finding['id'])}]"
    wide.evaluate(f"document.querySelector({js(item)} + ' .finding-path').click()")
    wide.wait(f"document.body.dataset.path === {js(finding['id'])}")
    assert wide.evaluate(f"document.querySelector({js(item)}).contains(document.getElementById('path'))")
    hops = [finding["path"], *finding["evidence"]]
    keys = {h["node"]["id"] for hop in hops for h in hop if "node" in h}
    drawn = wide.evaluate("[...document.querySelectorAll('#path .pv-node')].map((g) => g.dataset.key)")
    assert set(drawn) == keys | {"finding"}
    strips = wide.evaluate("document.querySelectorAll('#path .pv-strip').length")
    assert strips == 1 + sum(1 for e in finding["evidence"] if any("node" in h for h in e))
    path_keys = wide.evaluate("[...document.querySelectorAll('#path .pv-path .pv-node')].map((g) => g.dataset.key)")
    expected = [h["node"]["id"] for h in finding["path"] if "node" in h]
    assert path_keys == [k for i, k in enumerate(expected) if i == 0 or expected[i - 1] != k] + ["finding"]
    ys = wide.evaluate("[...document.querySelectorAll('#path .pv-path .pv-node')].map((g) => "
                       "g.transform.baseVal[0].matrix.f)")
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # each hop a step further down, the finding last
    words = get_json(f"{live_server}/views/words?ids={urllib.parse.quote(','.join(keys))}")["nodes"]
    labels = texts(wide, "#path .pv-label")
    first = finding["path"][0]["node"]["id"]
    assert words[first]["en"] in labels  # the English label, whole
    assert words[first]["en"] != words[first]["zh"]  # an English label, not the Chinese name
    assert wide.evaluate("document.getElementById('graph').getAttribute('src')") is None  # the graph: when asked


def test_boards_show_kin_and_generals_beside_the_course_and_palace_directions(live_server, wide):
    reading = get_json(f"{live_server}/readings?{address()}")
    chart = get_json(f"{live_server}/charts?{address()}")
    wide.open(f"{live_server}/?{address()}&lang=zh", READY)
    kin = {slot: f["meaning"]["zh"] for f in reading["findings"] if f["query"] == "kin" for slot in f["bindings"]}
    for slot in ("初傳", "中傳", "末傳"):
        row = f"#liuren-course [data-slot={slot}]"
        assert wide.evaluate(f"document.querySelector('{row} .kin').textContent") == kin[slot]
    details = chart["liuren"]["transmission_details"]
    assert texts(wide, "#liuren-course .general") == [d["general"] for d in details]
    lessons = chart["liuren"]["lessons"][::-1]
    assert texts(wide, ".lessons .general") == [chart["liuren"]["generals"][x["upper"]] for x in lessons]
    assert texts(wide, ".lessons .upper") == [x["upper"] for x in lessons]
    plate = texts(wide, "#ninestar [data-plate=year] .palace .name")
    assert plate == ["巽4東南", "離9南", "坤2西南", "震3東", "中5中", "兌7西", "艮8東北", "坎1北", "乾6西北"]
    assert texts(wide, "#ninestar [data-plate=year] .palace b")[7] == chart["ninestar"]["plates"]["year"]["1"]


def test_redoc_loads_nothing_from_another_host(live_server, wide):
    wide.open(f"{live_server}/redoc", "document.querySelector('.api-info') !== null")
    assert any(u.endswith("/assets/redoc-logo.svg") for u in wide.requested_urls()) or \
        "redoc-logo.svg" in wide.evaluate("document.documentElement.innerHTML")
    assert_stayed_home(wide)
