"""The chart JSON shape (issue 4), the moment pipeline and hypothesis over 1900–2100."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from leishen.engine.calendar import BRANCHES, parse_moment
from leishen.engine.chart import ChartRequest, build_chart, parse_systems
from leishen.engine.liuren.options import LiurenOptions
from leishen.engine.liuren.tables import GENERALS
from leishen.errors import ChartError

ISSUE_MOMENT = "1952-12-26T19:17:00+08:00"
LIUREN_KEYS = {"month_general", "plate", "lessons", "transmissions", "method", "course", "generals", "void", "options"}


def test_issue_example_shape_and_values():
    chart = build_chart(parse_moment(ISSUE_MOMENT))
    assert {"moment", "pillars", "solar_term", "liuren", "qimen", "ninestar"} <= set(chart)
    assert chart["moment"] == {"local": ISSUE_MOMENT, "utc": "1952-12-26T11:17:00+00:00"}
    assert chart["pillars"] == {"year": "壬辰", "month": "壬子", "day": "丙午", "hour": "戊戌"}
    assert chart["solar_term"]["name"] == "冬至"
    liuren = chart["liuren"]
    assert LIUREN_KEYS <= set(liuren)
    assert liuren["month_general"] == "丑" and liuren["plate"]["子"] == "卯"
    assert liuren["lessons"][0] == {"upper": "申", "lower": "丙"}
    assert liuren["method"] == "比用" and liuren["generals"]["子"] == "玄武" and liuren["void"] == ["寅", "卯"]
    json.dumps(chart, ensure_ascii=False)   # JSON-ready


def test_systems_can_be_chosen():
    chart = build_chart(parse_moment(ISSUE_MOMENT), ChartRequest(systems=("liuren",)))
    assert "liuren" in chart and "qimen" not in chart and "ninestar" not in chart
    assert parse_systems("ninestar, liuren") == ("liuren", "ninestar")
    with pytest.raises(ChartError, match=r"^system: taiyi is not one of"):
        parse_systems("liuren,taiyi")


def test_unknown_peer_option_is_named():
    with pytest.raises(ChartError, match=r"^qimen\.options\.colour: unknown option"):  # refused when asked
        ChartRequest(systems=("qimen",), qimen={"colour": "red"})


def test_calendar_options_reach_every_system():
    request = ChartRequest(day_boundary="00:00", longitude=121.5)
    chart = build_chart(parse_moment(ISSUE_MOMENT), request)
    assert chart["calendar"] == {"day_boundary": "00:00", "longitude": 121.5}
    assert chart["qimen"]["options"]["day_boundary"] == "00:00"


def test_liuren_options_are_echoed():
    options = LiurenOptions.from_mapping({"noble_table": "yang_yin"})
    chart = build_chart(parse_moment(ISSUE_MOMENT), ChartRequest(systems=("liuren",), liuren=options))
    assert chart["liuren"]["options"]["noble_table"] == "yang_yin"


MOMENTS = st.datetimes(min_value=datetime(1900, 1, 2), max_value=datetime(2100, 12, 30),
                       timezones=st.sampled_from([timezone(timedelta(hours=h)) for h in (-8, 0, 8, 9, 5.5)]))


@settings(max_examples=150, deadline=None)
@given(MOMENTS)
def test_liuren_invariants_hold_for_any_moment(moment):
    liuren = build_chart(moment, ChartRequest(systems=("liuren",)))["liuren"]
    plate = liuren["plate"]
    offset = (BRANCHES.index(plate["子"])) % 12
    assert all(plate[b] == BRANCHES[(i + offset) % 12] for i, b in enumerate(BRANCHES))
    assert (BRANCHES.index(liuren["month_general"]) - BRANCHES.index(liuren["hour_branch"])) % 12 == offset
    assert sorted(liuren["generals"].values()) == sorted(GENERALS)
    lessons = liuren["lessons"]
    assert lessons[1]["lower"] == lessons[0]["upper"] and lessons[3]["lower"] == lessons[2]["upper"]
    assert lessons[2]["upper"] == plate[liuren["day"][1]]
    assert (liuren["method"] == "伏吟") == (offset == 0) and (liuren["method"] == "返吟") == (offset == 6)
    assert len(liuren["transmissions"]) == 3 and set(liuren["transmissions"]) <= set(BRANCHES)


@settings(max_examples=25, deadline=None)
@given(MOMENTS)
def test_whole_chart_never_crashes(moment):
    chart = build_chart(moment)
    assert {"liuren", "qimen", "ninestar"} <= set(chart)
    json.dumps(chart, ensure_ascii=False)
