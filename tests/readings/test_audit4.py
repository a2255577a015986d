"""The fourth audit's mends (docs/audit-4.md), each on the audit's own moment: the exact finding, its path and src."""

from __future__ import annotations

import leishen


def _finding(moment: str, fid: str) -> dict | None:
    return next((f for f in leishen.read(moment, topic="*")["findings"] if f["id"] == fid), None)


def test_qinglong_on_mao_a_doubtful_matter_is_neutral_002_119():
    """002:119 加卯為術士事喜又疑事: 疑事 is no word of ill and the clause gives 喜 beside it, so 平 (it was 凶).
    Moment 10 of the audit: 青龍 rides 申, and 申 stands over the earth 卯."""
    f = _finding("2049-02-24T11:15+02:00", "liuren/rules/facts/002/tianjiang_placements.csv#68@Branch:mao")
    assert f is not None and f["polarity"] == "平" and f["src"] == ["002:119"] and f["meaning"]["zh"] == "疑事"
    nodes = [h["node"]["name"] for h in f["path"] if "node" in h]
    assert nodes[:3] == ["卯", "申", "青龍"]
    assert [h["rel"] for h in f["path"] if "rel" in h][:3] == ["PLATE_OVER", "RIDDEN_BY", "PLACEMENT_MEANS"]


def test_the_hour_stem_hosted_in_a_palace_is_met_there_004_131():
    """004:131 震三 宜溫涼: the illness's palace is the hour stem's. Moment 2 of the audit: the hour stem 癸 stands in
    震3 as the stem carried with 天禽 (天寄), the plain heaven stem there is 庚 — the row tested 天 only and missed it.
    A pillar stem is met where it stands as the heaven stem or as the hosted one (docs/conventions-qm004.md)."""
    reading = leishen.read("2015-06-13T13:00-08:00", topic="疾病")
    f = next(f for f in reading["findings"] if f["id"] == "qimen/rules/facts/004/jibing.csv#77@Palace:p3")
    assert f["src"] == ["004:131"] and f["meaning"]["zh"] == "溫涼"
    assert [(h.get("node") or {}).get("name") or h.get("rel") for h in f["path"]] == ["震三", "FAVOURS", "溫涼"]
    hosted = f["evidence"][0]
    assert [(h.get("node") or {}).get("name") or h.get("rel") for h in hosted] == ["震三", "HEAVEN_STEM_HOSTED", "癸"]
    assert f["evidence"][1][0]["slot"] == "時干"


def test_a_stem_not_standing_there_is_still_not_met():
    """The negative: on the same chart no other 004:131 treatment row holds (the hour stem stands only in 震3)."""
    reading = leishen.read("2015-06-13T13:00-08:00", topic="疾病")
    treatments = {f["id"] for f in reading["findings"] if f["src"] == ["004:131"] and f["query"] == "rules"
                  and f["meaning"] and f["meaning"]["zh"] in ("開導", "溫補", "針灸", "和解")}
    assert treatments == set()
