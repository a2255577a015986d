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
