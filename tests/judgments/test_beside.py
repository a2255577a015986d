"""The other art's lines named beside a judgment (judgments/beside.py): the class symbols of the topics read beside
(家宅 → 宮室 000:107, 疾病 → 臟腑 000:131, 射覆 → 器用 顏色 飛潛動植 飲食) and beside.csv's general lines (000:95 beside
天時, 000:59's 驛馬 beside 出行 and 行人, 000:27–43 beside 求財 科試 疾病) are named where they are seen, and never decide: a judgment's facets, reasons and
verdict are what they are with them left out."""

from __future__ import annotations

import pytest

import leishen
from leishen.judgments import judge
from leishen.judgments import beside as beside_mod
from leishen.judgments.prepared import topic_facts
from leishen.judgments.tables import JudgmentTableError

from tests.judgments.conftest import moments

TOPICS = ("家宅", "疾病", "天時", "出行", "行人", "求財", "科試", "射覆")


def test_the_house_names_its_liu_ren_building_beside(judged):
    _, js = judged("2025-05-20T19:00+08:00", "家宅")  # 初傳 子 ridden by 太常: 太常安樂宅 (000:107)
    named = {(tuple(b["at"]), b["meaning"]["zh"], tuple(b["src"])) for b in js["家宅"]["beside"]}
    assert (("子", "太常"), "安樂宅", ("000:107",)) in named
    assert all(b["topic"] == "宮室" or (b["topic"] is None and any(c.startswith("002:") for c in b["src"]))
               for b in js["家宅"]["beside"])  # 宮室's 類象, and 002's buildings by placement (beside.csv)


def test_the_heavenly_generals_illnesses_are_named_beside_illness(judged):
    _, js = judged("2027-05-24T12:00+08:00", "疾病")  # 日上 卯 ridden by 太陰 over 丑: 加丑為女子疾病 (002:139)
    named = {(tuple(b["at"]), b["meaning"]["zh"], tuple(b["src"])) for b in js["疾病"]["beside"]}
    assert (("卯", "太陰"), "女子疾病", ("002:139",)) in named


def test_weather_and_the_horse_are_named_beside_where_seen(judged):
    _, js = judged("2025-05-20T19:00+08:00", "天時")  # 亥 ridden by 玄武 in the 4th lesson and the 中傳
    assert {(tuple(b["at"]), b["meaning"]["zh"]) for b in js["天時"]["beside"]} >= {(("亥", "玄武"), "雨澤")}
    _, js = judged("2025-05-20T19:00+08:00", "出行")  # 己丑 day: 驛馬 亥, the 中傳
    assert [(b["at"][0], b["src"]) for b in js["出行"]["beside"]][0] == ("亥", ["000:59"])
    placements = [b for b in js["出行"]["beside"][1:]]  # the heavenly generals by placement (002:99–139), no matters
    assert placements and all(b["src"][0] in {f"002:{n}" for n in range(99, 140, 4)} for b in placements)
    assert not {b["meaning"]["zh"] for b in placements} & {"遠信", "財物", "田宅", "爭財利"}


def test_the_object_names_liu_ren_implements_colours_and_creatures_beside(judged):
    _, js = judged("2027-10-03T22:00+08:00", "射覆")  # 初傳 寅 ridden by 天空
    named = {(tuple(b["at"]), b["meaning"]["zh"], b["topic"]) for b in js["射覆"]["beside"]}
    assert {(("寅",), "青", "顏色"), (("寅", "天空"), "空虛物", "器用")} <= named


def test_wealth_and_illness_name_the_kin_and_stages_beside(judged):
    _, js = judged("2027-10-03T22:00+08:00", "求財")
    assert {(b["meaning"]["zh"], tuple(b["src"])) for b in js["求財"]["beside"]} == {
        ("財利", ("000:27",)), ("傷財", ("000:31",)), ("遺失", ("002:27",)),  # (青龍加申 失物: the 2nd lesson)
        ("財物", ("002:99",)), ("珍寶", ("002:99",)), ("遷官進財", ("002:111",)),
        ("求退官", ("002:99",)), ("火光怪", ("002:103",)), ("喜事", ("002:111",)), ("說事", ("002:115",)),
        ("美婦人", ("002:143",))}  # (天后, the twelfth general, 002:143)
    _, js = judged("2027-10-03T22:00+08:00", "疾病")
    assert {b["meaning"]["zh"] for b in js["疾病"]["beside"]} >= {"疾病", "喪亡", "膽"}


def _without_beside(judgment: dict) -> dict:
    return {k: v for k, v in judgment.items() if k not in ("beside", "counts", "also")}


@pytest.mark.parametrize("moment", moments(12, 4141))
def test_lines_named_beside_decide_nothing(reader, moment):
    """Each judgment equals the judgment of a reading without the beside topics' findings; every line named beside
    cites 000 (or, beside 射覆, 002's placements), holds and names where it is seen."""
    chart = leishen.chart(moment)
    for topic in TOPICS:
        reading = reader.read(chart, topic=topic)
        j = next(x for x in judge(reading, chart, reader) if x["topic"] == topic)
        beside_ids = {b["finding"] for b in j["beside"]}
        for b in j["beside"]:
            assert b["at"] and all(c[:4] in ("000:", "002:") for c in b["src"]), b
        beside_names = topic_facts(reader).table(reader.topic_id(topic)).beside
        bare = {**reading, "findings": [f for f in reading["findings"] if f.get("topic") not in beside_names]}
        alone = next(x for x in judge(bare, chart, reader) if x["topic"] == topic)
        assert _without_beside(j) == _without_beside(alone)
        assert not beside_ids & {r["finding"] for r in j["reasons"]}


@pytest.mark.parametrize("reads", ["000:95", "lines 002:23", "row 000:95"])
def test_a_bad_beside_row_is_refused_naming_row_and_column(tmp_path, monkeypatch, reads):
    from leishen.judgments import tables
    (tmp_path / "beside.csv").write_text(f"topic,reads,seen_at,category,src,note\nTopic:天時,{reads},,,000:95,x\n",
                                         encoding="utf-8")
    monkeypatch.setattr(tables, "TABLES", tmp_path)
    beside_mod.beside_table.cache_clear()
    try:
        with pytest.raises(JudgmentTableError, match=r"beside.csv row 2, column reads: expected"):
            beside_mod.beside_table()
    finally:
        beside_mod.beside_table.cache_clear()


def test_the_month_and_heavenly_generals_by_placement_are_named_beside_the_object_where_002_151_reads(judged):
    """002:23–91 and 002:103–139 beside 射覆, only at 干上 支上 and the 初傳 (2025-04-30 01:00: 初傳 卯 ridden by
    白虎, 002:127)."""
    reading, js = judged("2025-04-30T01:00+08:00", "射覆")
    named = {(tuple(b["at"]), b["meaning"]["zh"], tuple(b["src"])) for b in js["射覆"]["beside"]}
    assert (("卯", "白虎"), "匍卒", ("002:127",)) in named
    places = {reading["bindings"][s] for s in ("課1上", "課3上", "初傳")}
    for b in js["射覆"]["beside"]:
        if b["src"][0].startswith("002:"):
            f = next(x for x in reading["findings"] if x["id"] == b["finding"])
            assert any(h["node"]["id"] in places for h in f["path"] if "node" in h and h.get("slot") != "地"), b


@pytest.mark.parametrize("moment, topic, meaning, src", [
    ("2025-05-10T11:00+08:00", "天時", "陰天", "002:27"),  # 子加酉 (weather)
    ("2026-12-28T18:00+08:00", "疾病", "赤眼", "002:75"),  # 酉 (illness)
    ("2027-05-24T12:00+08:00", "行人", "信至", "002:59"),  # 午加魁罡 (event)
])
def test_placements_of_a_rows_category_are_named_beside(judged, moment, topic, meaning, src):
    """002:23–139 by category: weather beside 天時, illness beside 疾病, events beside 行人 (round 11's misses)."""
    _, js = judged(moment, topic)
    assert (meaning, [src]) in [(b["meaning"]["zh"], b["src"]) for b in js[topic]["beside"]]
    assert all(b["at"] for b in js[topic]["beside"])
