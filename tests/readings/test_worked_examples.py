"""End-to-end readings checked against lists made by hand from the texts, with the reasoning.

Liu Ren: the worked example of 002:163 is tests/data/test_facts_tj002.py::test_worked_example_of_002_163.
"""

from __future__ import annotations

import leishen


def _rules(reading: dict, system: str) -> dict[tuple, dict]:
    return {(f["rule"]["item"], f["meaning"]["zh"]): f for f in reading["findings"]
            if f["system"] == system and f["query"] == "rules"}


def test_nine_star_day_of_liu_bai():
    """2026-12-01: the day star in the centre is 六白 (003:7 gives its day fortunes, 值日).

    By hand: 六白 值日 favours 求財 (3.A.25, 吉) and means 事事諧 (3.A.26, 吉) for every question;
    亨通 (3.A.26) only for 出入; its 身命 rows (3.A.27-28) are about a natal star, not the day; no
    rule of another star holds."""
    general = leishen.read("2026-12-01T10:00+09:00")
    got = _rules(general, "ninestar")
    assert set(got) == {("3.A.25", "求財"), ("3.A.26", "事事諧")}
    assert all(f["polarity"] == "吉" and f["src"] == ["003:7"] for f in got.values())
    walk = [h.get("node", {}).get("name") or h["rel"] for h in got[("3.A.25", "求財")]["path"]]
    assert walk == ["六白", "FAVOURS", "求財"] and got[("3.A.25", "求財")]["path"][0]["slot"] == "日星"
    travel = _rules(leishen.read("2026-12-01T10:00+09:00", topic="出入"), "ninestar")
    assert {f["meaning"]["zh"] for f in travel.values()} == {"求財", "事事諧", "亨通"}


def test_qimen_stem_patterns_of_a_chart_read_by_hand():
    """2026-12-01 10:00 +09:00 (陰遁 5局). The heaven stem over the earth stem in each palace, read off
    the plate: 坎一 庚/壬, 坤二 乙/辛, 震三 癸/庚, 巽四 辛/己, 乾六 丁/乙, 兌七 壬/丙, 艮八 己/丁,
    離九 丙/癸. By the 格 of 003/004: 庚加壬 is 小格 (004:119) in 坎一; 乙加辛 is 青龍逃走 (003:147) in
    坤二; no palace has 丙加庚 (熒入白), 庚加丙 (白入熒), 庚加癸 (大格), 庚加己 (刑格), 辛加乙 (白虎猖狂)
    or 癸加丁 (螣蛇夭矯). The gate 生門 (earth) in 坎一 (water) overcomes its palace: 門迫 (004:19)."""
    reading = leishen.read("2026-12-01T10:00+09:00")
    held = {(f["rule"]["name"], f["id"].rsplit("@", 1)[-1]) for f in reading["findings"]
            if f["system"] == "qimen" and f["query"] == "patterns"}
    assert {("小格", "Palace:p1"), ("青龍逃走", "Palace:p2"), ("門迫", "Palace:p1")} <= held
    names = {name for name, _ in held}
    assert not names & {"熒入白", "白入熒", "大格", "刑格", "白虎猖狂", "螣蛇夭矯", "朱雀投江"}
    small = next(f for f in reading["findings"] if f["rule"]["name"] == "小格" and f["query"] == "patterns")
    walk = [h.get("node", {}).get("name") or h["rel"] for h in small["path"]]
    assert walk[0] == "坎一" and small["path"][0]["slot"] == "宮" and walk[-1] == "小格"
    assert small["polarity"] == "凶" and small["src"] == ["004:119"]
