"""qimen_chart: the JSON shape, options, errors, and properties over moments 1900–2100 (hypothesis)."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leishen.engine.calendar import CHINA_STANDARD_TIME, pillars, sexagenary_index, solar_term
from leishen.engine.qimen.chart import hour_and_day, qimen_chart, term_in_force
from leishen.engine.qimen.plate import build_plate
from leishen.engine.qimen.render import render_qimen_grid
from leishen.engine.qimen.symbols import DEITIES_MODERN, GATE_HOME, RING, STARS, TERM_JU, YI_QI_ORDER
from leishen.engine.qimen.validate import validate_qimen
from leishen.errors import ChartError, MomentError

CST = CHINA_STANDARD_TIME
ZONES = [CST, timezone.utc, timezone(timedelta(hours=9)), timezone(timedelta(hours=-5)), ZoneInfo("Europe/Berlin"),
         ZoneInfo("America/New_York"), timezone(timedelta(hours=5, minutes=45))]
moments = st.datetimes(min_value=datetime(1900, 1, 2), max_value=datetime(2100, 12, 30),
                       timezones=st.sampled_from(ZONES), allow_imaginary=False)


def _check_invariants(chart: dict) -> None:
    palaces = chart["palaces"]
    stars = [palaces[str(p)]["star"] for p in RING] + [palaces[str(p)].get("star_hosted") for p in range(1, 10)]
    assert sorted(filter(None, stars)) == sorted(STARS)
    assert sorted(palaces[str(p)]["gate"] for p in RING) == sorted(GATE_HOME.values())
    assert sorted(palaces[str(p)]["deity"] for p in RING) == sorted(DEITIES_MODERN)
    assert sorted(palaces[str(p)]["earth"] for p in range(1, 10)) == sorted(YI_QI_ORDER)
    assert chart["ju"] == TERM_JU[chart["term"]][("上元", "中元", "下元").index(chart["yuan"])]
    assert chart["xun_head"][0] == "甲" and len(chart["void"]) == 2
    validate_qimen(chart)


@settings(max_examples=300, deadline=None)
@given(moment=moments, boundary=st.sampled_from(["23:00", "00:00"]))
def test_any_moment_1900_2100_gives_a_valid_chart(moment, boundary):
    chart = qimen_chart(moment, day_boundary=boundary)
    _check_invariants(chart)
    four = pillars(moment, day_boundary=boundary)
    assert chart["hour_pillar"] == four.hour and chart["day_pillar"] == four.day
    assert chart["term"] == solar_term(moment)[0]
    assert chart["dun"] == ("陽" if chart["term"] in ("冬至", "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明",
                                                    "穀雨", "立夏", "小滿", "芒種") else "陰")


@settings(max_examples=120, deadline=None)
@given(moment=moments, longitude=st.floats(min_value=-179.0, max_value=179.0))
def test_true_solar_time_hour_and_day_follow_the_calendar(moment, longitude):
    hour, day = hour_and_day(moment, "23:00", longitude)
    four = pillars(moment, longitude=longitude)
    assert (hour, day) == (sexagenary_index(four.hour), sexagenary_index(four.day))


@settings(max_examples=120, deadline=None)
@given(moment=moments, host=st.sampled_from(["kun2", "gen8_kun2", "four_corners"]),
       deities=st.sampled_from(["modern", "by_dun"]))
def test_zhi_run_and_other_schools_keep_the_invariants(moment, host, deities):
    chart = qimen_chart(moment, method="zhi_run", centre_host=host, deities=deities)
    assert chart["options"]["method"] == "zhi_run" and "leap" in chart and isinstance(chart["lead_days"], int)
    validate_qimen(chart)


def test_term_switches_at_the_exact_instant():
    name, start = solar_term(datetime(2024, 6, 30, tzinfo=CST))           # 夏至 2024
    assert name == "夏至"
    before, after = start - timedelta(seconds=1), start + timedelta(seconds=1)
    assert term_in_force(before) == "芒種" and term_in_force(after) == "夏至"
    assert qimen_chart(before)["dun"] == "陽" and qimen_chart(after)["dun"] == "陰"
    berlin = after.astimezone(ZoneInfo("Europe/Berlin"))
    assert term_in_force(berlin) == "夏至"


def test_shape_and_keys():
    chart = qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CST))
    for key in ("dun", "ju", "xun_head", "duty_star", "duty_gate", "palaces", "void", "horse", "options"):
        assert key in chart
    assert list(chart["palaces"]) == [str(p) for p in range(1, 10)]
    assert set(chart["palaces"]["1"]) >= {"earth", "heaven", "star", "gate", "deity"}
    assert (chart["dun"], chart["ju"], chart["term"], chart["yuan"], chart["hour_pillar"]) == ("陽", 2, "立春", "下元", "庚午")
    assert chart["options"] == {"method": "chai_bu", "day_boundary": "23:00", "longitude": None,
                                "centre_host": "kun2", "deities": "modern"}
    assert json.loads(json.dumps(chart, ensure_ascii=False)) == chart


def test_shared_parts_are_read_only_and_deepcopy_gives_plain_dicts():
    chart = qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CST))
    chart["note"] = "the top level is the caller's"
    chart["void"].append("子")
    assert qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CST))["void"] == ["戌", "亥"]
    with pytest.raises(TypeError):
        chart["palaces"]["1"]["star"] = "天英"
    thawed = copy.deepcopy(chart)
    thawed["palaces"]["1"]["star"] = "天英"
    assert type(thawed["palaces"]) is dict and chart["palaces"]["1"]["star"] == "天沖"


def test_option_errors_name_the_option():
    moment = datetime(2024, 2, 10, 12, tzinfo=CST)
    for kwargs, field in (({"method": "lunar"}, "method"), ({"centre_host": "li9"}, "centre_host"),
                          ({"deities": "x"}, "deities"), ({"day_boundary": "01:00"}, "day_boundary"),
                          ({"longitude": 200.0}, "longitude"), ({"leap_threshold": 20}, "leap_threshold")):
        with pytest.raises(ChartError, match=rf"^{field}: "):
            qimen_chart(moment, **kwargs)


def test_moment_errors():
    with pytest.raises(MomentError, match="naive"):
        qimen_chart(datetime(2024, 2, 10, 12))
    with pytest.raises(MomentError, match="outside the supported range"):
        qimen_chart(datetime(1700, 2, 10, 12, tzinfo=CST))


def test_options_are_passed_to_the_plate():
    moment = datetime(2024, 2, 10, 12, tzinfo=CST)                         # 陽遁2局, 庚午: 旬首 戊 in 坤2
    assert qimen_chart(moment, centre_host="gen8_kun2")["centre_host"] == 8
    assert "勾陳" in [p["deity"] for p in qimen_chart(moment, deities="by_dun")["palaces"].values()]


def test_day_boundary_moves_the_late_zi_hour_into_the_next_day():
    late = datetime(2024, 2, 9, 23, 30, tzinfo=CST)
    assert qimen_chart(late)["day_pillar"] == "甲辰"                       # 子初換日
    assert qimen_chart(late, day_boundary="00:00")["day_pillar"] == "癸卯"
    assert qimen_chart(late)["hour_pillar"] == qimen_chart(late, day_boundary="00:00")["hour_pillar"] == "甲子"


def test_render_grid_layout():
    text = render_qimen_grid(qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CST)))
    lines = text.splitlines()
    assert lines[0].startswith("陽遁2局") and "旬首 甲子戊" in lines[0]
    assert lines[2].index("巽4") < lines[2].index("離9") < lines[2].index("坤2")
    assert lines[10].index("艮8") < lines[10].index("坎1") < lines[10].index("乾6")
    assert "天芮禽" in text                                                 # 天禽 riding with 天芮


def test_plate_cache_is_the_source_of_the_chart():
    chart = qimen_chart(datetime(2024, 2, 10, 12, tzinfo=CST))
    plate = build_plate("陽", 2, sexagenary_index("庚午"))
    assert all(chart["palaces"][str(p)]["star"] == plate.star[p] for p in range(1, 10))
