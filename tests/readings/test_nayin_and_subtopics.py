"""The 納音 slots (年納 月納 日納 時納) and the sub-topics (SUBTOPIC_OF), positive and negative, on real
charts and the real graph (issue #8).

The charts: 2024-02-10 01:30 +08:00 — year 甲辰 (覆燈火), month 丙寅 (爐中火), day 甲辰 (火), hour 乙丑
(海中金): the day 納音 fire overcomes the hour 納音 metal. 2024-02-10 12:00 +08:00 — the same day, hour
庚午 (路旁土): the day 納音 generates the hour's, neither overcomes the other.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import leishen
from leishen.cli.main import main
from leishen.service.book import reader
from leishen.readings.bindings import chart_bindings
from leishen.readings.standard import nayin_names

NIGHT, NOON = "2024-02-10T01:30+08:00", "2024-02-10T12:00+08:00"


@pytest.fixture(scope="module")
def r():
    return reader()


@pytest.fixture(scope="module")
def night():
    return leishen.chart(NIGHT)


@pytest.fixture(scope="module")
def noon():
    return leishen.chart(NOON)


def _names(walk: list) -> list:
    return [h["node"]["name"] if "node" in h else h["rel"] for h in walk]


def test_the_nayin_phase_is_lunar_pythons_last_character():
    assert [nayin_names()[p][-1] for p in ("甲子", "丙寅", "甲辰", "庚午", "乙丑", "壬戌")] == ["金", "火", "火", "土", "金", "水"]


def test_each_pillar_binds_its_nayin_chained_from_the_stem_slot(r, night):
    b = chart_bindings(night, r.lex, r.seasons)
    phases = {k: r.props[b.slots[k].value]["name"] for k in ("年納", "月納", "日納", "時納")}
    assert phases == {"年納": "火", "月納": "火", "日納": "火", "時納": "金"}
    assert b.slots["時納"].chain == (("Stem:yi", "時干"), ("PILLAR", "Branch:chou"),
                                     ("NAYIN", "Element:metal", "facts/std/nayin.csv#3"))  # 乙丑 海中金, the table's row


def test_nayin_predicates_positive_and_negative(r, night):
    t = lambda w: r.test(night, w, system="qimen")  # noqa: E731
    assert t("overcomes(日納, 時納)")["holds"] and not t("overcomes(時納, 日納)")["holds"]
    assert t("same_phase(年納, 月納)")["holds"] and not t("same_phase(日納, 時納)")["holds"]
    assert t("same_phase(Element.金, 時納)")["holds"] and not t("same_phase(Element.火, 時納)")["holds"]
    assert t("generates(時納, 日干)")["holds"] is False  # 金 overcomes the 甲 day stem (wood), it does not generate it
    assert t("overcomes(時納, 日干)")["holds"]
    walk = t("overcomes(日納, 時納)")["walks"][0]
    assert _names(walk) == ["甲", "PILLAR", "辰", "NAYIN", "火", "OVERCOMES", "金"] and walk[0]["slot"] == "日干"
    assert walk[5]["src"] == ["000:27"]  # the 剋 cycle, a real edge with its citation
    same = t("same_phase(年納, 月納)")["walks"]
    assert [_names(w) for w in same] == [["甲", "PILLAR", "辰", "NAYIN", "火"], ["丙", "PILLAR", "寅", "NAYIN", "火"]]


def test_the_day_nayin_overcoming_the_hour_nayin_is_found_with_its_path(r, night, noon):
    found = {f["rule"]["item"]: f for f in r.read(night, topic="求財")["findings"] if f["rule"]["item"]}
    f = found["4.06.13"]  # 日納如若尅時納 → 倍息
    assert _names(f["path"]) == ["甲", "PILLAR", "辰", "NAYIN", "火", "IS_SLOT", "日納", "SIGNIFIES", "倍息"]
    assert f["path"][0]["slot"] == "日干" and f["src"] == ["004:23"] and f["polarity"] == "吉"
    assert f["certainty"] == "holds" and _names(f["evidence"][0])[-2:] == ["OVERCOMES", "金"]
    assert "4.06.14" not in found  # 時納若尅於日納: the hour metal does not overcome the day fire
    at_noon = {f["rule"]["item"] for f in r.read(noon, topic="求財")["findings"]}
    assert "4.06.13" not in at_noon and "4.06.14" not in at_noon


def test_the_hour_nayin_rules_of_chuxing(r, night, noon):
    """4.18.06 不傷人元 (the hour 納音 does not overcome the day stem) and 4.18.07 再來生日元; where it does overcome
    it, the converse row of the same line (傷人元)."""
    at_night = {(f["rule"]["item"], f["meaning"]["zh"]) for f in r.read(night, topic="出行")["findings"]}
    at_noon = {f["rule"]["item"]: f for f in r.read(noon, topic="出行")["findings"] if f["rule"]["item"]}
    assert ("4.18.06", "堪策驥") not in at_night and ("4.18.06", "傷人元") in at_night  # 金 overcomes the 甲 day
    assert "4.18.06" in at_noon and "4.18.07" not in at_noon  # 土 neither harms nor generates 甲 wood
    assert _names(at_noon["4.18.06"]["path"]) == ["庚", "PILLAR", "午", "NAYIN", "土", "IS_SLOT", "時納", "SIGNIFIES",
                                                  "堪策驥"]


def test_subtopics_are_topics_with_their_parent_in_the_graph(r):
    g = leishen.graph()
    edges = {(u, v): d for u, v, d in g.edges(data=True) if d["type"] == "SUBTOPIC_OF"}
    assert edges[("Topic:買貨", "Topic:求財")]["src"] == ["004:23"]
    assert edges[("Topic:投托", "Topic:出行")]["src"] == ["004:79"]
    parents = {t["zh"]: t["parent"] for t in r.topics()}
    assert parents["買貨"] == "求財" and parents["賣貨"] == "求財" and parents["圖謀"] == "出行"
    assert parents["求財"] is None
    assert r.topic_scope(r.topic_id("買貨")) == {"Topic:買貨", "Topic:求財"}


def test_topic_predicate_holds_for_the_topic_a_subtopic_is_a_case_of(r, night):
    assert r.test(night, "topic(Topic.求財)", topic="買貨", system="qimen")["holds"]
    assert r.test(night, "topic(Topic.買貨)", topic="買貨", system="qimen")["holds"]
    assert not r.test(night, "topic(Topic.買貨)", topic="求財", system="qimen")["holds"]
    assert not r.test(night, "topic(Topic.賣貨)", topic="買貨", system="qimen")["holds"]


def test_a_subtopic_reads_its_own_rules_and_its_parents_and_not_its_siblings(r, night):
    items = lambda topic: {f["rule"]["item"] for f in r.read(night, topic=topic)["findings"]}  # noqa: E731
    buying, wealth, selling = items("買貨"), items("求財"), items("賣貨")
    assert {"4.06.01", "4.06.13", "4.07.01"} <= wealth <= buying  # every 求財 finding, in a 買貨 reading too
    assert {"4.06.09", "4.07.03"} <= buying - wealth  # 買貨 only
    assert "4.06.09" not in selling and "4.06.11" in selling and "4.06.11" not in wealth | buying
    f = next(f for f in r.read(night, topic="買貨")["findings"] if f["rule"]["item"] == "4.07.03")
    assert f["topic"] == "買貨" and f["src"] == ["004:27"] and f["certainty"] == "holds"
    assert _names(f["path"])[-2:] == ["SIGNIFIES", "當速成"] and f["path"][0]["slot"] == "值符"


def test_every_topic_at_once_reads_the_topic_rules(r, night):
    every = {f["rule"]["item"] for f in r.read(night, topic="*")["findings"]}
    assert {"4.06.01", "4.06.09", "4.06.11", "4.06.13"} <= every


def test_topics_cli_and_the_unknown_topic_message_show_the_subtopics():
    out = CliRunner().invoke(main, ["topics"]).output.splitlines()
    wealth = next(i for i, line in enumerate(out) if line.startswith("求財\t"))
    assert any(line.startswith("  買貨\t") for line in out[wealth + 1:wealth + 5])
    bad = CliRunner().invoke(main, ["read", NOON, "--topic", "bartering"])
    # the refusal lists every topic whole (#39 item 10): the subtopics 買貨 and 賣貨 among them, their ko and en
    # names one command away (leishen topics)
    assert bad.exit_code == 2 and " 買貨 賣貨 " in bad.output and "leishen topics" in bad.output
    assert "left out" not in bad.output


def test_a_korean_reading_two_subtopics_share_is_refused_naming_both(r):
    from leishen.readings.read import TopicError
    with pytest.raises(TopicError, match=r"ambiguous topic '매화': 買貨 \(buying goods \(in 求財\)\), 賣貨"):
        r.topic_id("매화")
    assert r.topic_id("買貨") == "Topic:買貨" and r.topic_id("selling goods (in 求財)") == "Topic:賣貨"
