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
