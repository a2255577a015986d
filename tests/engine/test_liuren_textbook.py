"""Printed and hand-checked Liu Ren charts (tests/engine/data/liuren_textbook.json)."""

from __future__ import annotations

import json

from leishen.engine.liuren.methods import METHODS


def _cases(engine_data):
    return json.loads((engine_data / "liuren_textbook.json").read_text(encoding="utf-8"))["cases"]


def test_textbook_chart(textbook_case, cast):
    case = textbook_case
    given, want = case["input"], case["expected"]
    chart = cast(given["day"], given["hour"], given["general"], **case.get("options", {}))
    assert chart["transmissions"] == want["transmissions"]
    assert chart["method"] == want["method"]
    for name in want.get("course", []):
        assert name in chart["course"]
    if "lessons" in want:
        assert [[x["upper"], x["lower"]] for x in chart["lessons"]] == want["lessons"]
    if "void" in want:
        assert chart["void"] == want["void"]
    for branch, general in want.get("generals", {}).items():
        assert chart["generals"][branch] == general


def test_every_method_has_two_cases_with_a_named_source(engine_data):
    by_method: dict[str, list[dict]] = {}
    for case in _cases(engine_data):
        by_method.setdefault(case["method"], []).append(case)
        assert case["source"]["book"] and case["source"]["checked"]
    assert sorted(by_method) == sorted(METHODS)
    assert all(len(found) >= 2 for found in by_method.values())


def test_worked_example_of_002_163(cast):
    chart = cast("甲子", "卯", "亥")
    assert chart["transmissions"] == ["戌", "午", "寅"]
    assert chart["void"] == ["戌", "亥"]
    assert chart["transmission_details"][0]["void"] is True  # 初傳 戌 is void (斬首 in doc 000)


def test_cunyan_guiyou_needs_daytime(cast):
    """《六壬存驗》 癸酉日 辛酉時 芒種: the book leads from 巳 (day noble); by the hour 酉 is night."""
    by_hour = cast("癸酉", "酉", "申")
    assert by_hour["noble"] == {"branch": "卯", "daytime": False, "direction": "順"}
    assert by_hour["generals"]["巳"] != "貴人"
    book = cast("癸酉", "酉", "申", day_night="day")
    assert book["generals"]["巳"] == "貴人"


def test_renchen_noble_differs_between_tables(cast):
    """壬 at a 巳 hour (晝): 《大全》's 壬癸蛇兔 gives 巳; the 甲羊戊庚牛 rhyme's 壬兔 gives 卯."""
    assert cast("壬辰", "巳", "辰")["noble"]["branch"] == "巳"
    assert cast("壬辰", "巳", "辰", noble_table="yang_yin")["noble"] == {"branch": "卯", "daytime": True,
                                                                       "direction": "順"}
    assert cast("壬辰", "巳", "辰", noble_table="tongshu")["noble"]["branch"] == "卯"


def test_bazhuan_example_needs_bazhuan_before_remote(cast):
    """The 《大全》 八專 example 甲寅日 辰時 丑將 becomes 遙剋 (申 overcomes 甲) if 遙剋 is tried first."""
    assert cast("甲寅", "辰", "丑")["transmissions"][0] == "丑"
    other = cast("甲寅", "辰", "丑", special_order="remote_first")
    assert other["method"] == "遙剋" and other["transmissions"][0] == "申"
