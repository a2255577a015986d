"""The chart's own trail: the 九宗門 steps a practitioner can check, and how the Qimen 局 was found."""

from __future__ import annotations

import leishen


def test_shehai_trail_shows_candidates_and_depths():
    """2017-09-21 05:00 +08:00, 辛亥 day: two 上剋下 (丑 over 亥, 卯 over 丑), both yin like the day, so
    涉害: 丑 on 亥 meets one 剋 on its way home (子, seat not counted: the 訂訛 count), 卯 on 丑 none
    (寅 and its 甲 are wood) — 丑 is the deeper and gives the 初傳."""
    reading = leishen.read("2017-09-21T05:00+08:00")
    trail = reading["trail"]["liuren"]
    assert trail["method"] == "涉害" and trail["transmissions"][0] == "丑"
    steps = {s["step"]: s for s in trail["steps"]}
    assert steps["賊剋"]["kind"] == "上剋下" and len(steps["賊剋"]["candidates"]) == 2
    assert len(steps["比用"]["like_day"]) == 2
    assert steps["涉害"]["seat_counted"] is False
    assert [(d["upper"], d["seat"], d["depth"]) for d in steps["涉害"]["depths"]] == [("丑", "亥", 1), ("卯", "丑", 0)]
    assert trail["options"]["shehai_seat"] == "exclude"


def test_qimen_trail():
    trail = leishen.read("2026-12-01T10:00+09:00")["trail"]["qimen"]
    assert (trail["term"], trail["yuan"], trail["fu_tou"], trail["dun"], trail["ju"], trail["method"]) == \
        ("小雪", "上元", "己酉", "陰", 5, "chai_bu")


def test_trail_steps_are_each_readings_own():
    """The steps of a board are worked out once; each trail gets its own copy, so changing one changes no other."""
    from leishen.engine.trail import chart_trail
    chart = leishen.chart("2017-09-21T05:00+08:00")
    first = chart_trail(chart)["liuren"]["steps"]
    again = chart_trail(chart)["liuren"]["steps"]
    assert first == again and len(first) == 3
    first[0]["candidates"].clear()
    first[2]["depths"][0]["depth"] = 99
    first.append({"step": "?"})
    assert chart_trail(chart)["liuren"]["steps"] == again and again[2]["depths"][0]["depth"] == 1
