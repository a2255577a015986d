"""擇時: the moments whose judgment for a topic has the asked verdict and facet answers; the same with two
processes as with one (no process left); bad requests (a facet value never answered, --jobs past the cores)
refused naming the field, before the scan."""

from __future__ import annotations

import multiprocessing

import pytest

import leishen
from leishen.engine.moment import parse_moment
from leishen.errors import LeishenError
from leishen.judgments import judge
from leishen.judgments.choose import ChooseError, choose, parse_facets

START, END = parse_moment("2026-12-01T00:00+08:00"), parse_moment("2026-12-02T23:00+08:00")


def test_chosen_moments_have_the_verdict(reader):
    hits = list(choose(reader, "出行", START, END, verdict="吉"))
    assert hits and all(h["verdict"] == "吉" and h["reasons"] for h in hits)
    for h in hits[:3]:  # the full judgment of the same moment agrees
        chart = leishen.chart(h["moment"]["local"])
        j = judge(reader.read(chart, topic="出行"), chart, reader)[1]
        assert j["verdict"] == "吉"
        # the reasons lead with the findings that decide the verdict facet (not the significators read first)
        deciding = next(f for f in j["facets"] if f["facet"] == h["verdict_by"])
        assert [r["finding"] for r in h["reasons"][:len(deciding["findings"])]] == deciding["findings"][:8]
        assert h["reasons"][0]["polarity"] == "吉"


def test_two_jobs_find_the_same_moments(reader):
    one = list(choose(reader, "出行", START, END, verdict="凶"))
    two = list(choose(reader, "出行", START, END, verdict="凶", jobs=2))
    assert one == two and one
    assert not multiprocessing.active_children()


def test_facet_filter(reader):
    hits = list(choose(reader, "射覆", START, END, facets=parse_facets(["可食否=可食"])))
    assert all("可食" in h["facets"]["可食否"] for h in hits)


@pytest.mark.parametrize("kwargs, field", [({"verdict": "good"}, "verdict"), ({"facets": {"顏色": "白"}}, "facet"),
                                           ({"facets": {"可食否": "maybe"}}, "facet"), ({"jobs": 0}, "jobs"),
                                           ({"jobs": 10**9}, "jobs")])
def test_bad_requests_name_the_field(reader, kwargs, field):
    with pytest.raises(LeishenError) as info:
        list(choose(reader, "射覆", START, END, **kwargs))
    assert info.value.field == field


def test_bad_facet_item():
    with pytest.raises(ChooseError, match="FACET=VALUE"):
        parse_facets(["可食否"])


def test_a_facet_value_never_answered_is_refused_listing_the_answers(reader):
    with pytest.raises(ChooseError, match="可食否 is never answered 'maybe'; its answers: 可食, 不可食"):
        choose(reader, "射覆", START, END, facets={"可食否": "maybe"}).__next__()


def test_hits_carry_the_judgments_summary(reader):
    hit = next(choose(reader, "出行", START, END, verdict="吉"))
    assert set(hit["summary"]) == {"zh", "ko", "en"} and hit["summary"]["zh"].startswith("出行")
