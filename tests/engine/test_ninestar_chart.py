"""Nine Star (紫白九星): centre stars of year, month and day, flying plates, validation, rendering."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lunar_python import Solar

from leishen.engine.calendar import CHINA_STANDARD_TIME, term_start
from leishen.engine.ninestar import STARS, fly, month_star, ninestar_chart, render_ninestar, validate_ninestar, year_star
from leishen.errors import ChartError

CST = CHINA_STANDARD_TIME


def _lunar_python(star) -> str:
    return (star.getNumber() + star.getColor()).replace("绿", "綠").replace("黄", "黃")


def _noon(d: date) -> datetime:
    return datetime(d.year, d.month, d.day, 12, tzinfo=CST)


def test_year_star_runs_back_from_1864():
    assert [year_star(y) for y in (1864, 1865, 1873, 2024, 2025, 2026, 2027)] == \
        ["一白", "九紫", "一白", "三碧", "二黑", "一白", "九紫"]
    for year in range(1900, 2101, 7):
        lunar = Solar.fromYmd(year, 6, 1).getLunar()
        assert year_star(year) == _lunar_python(lunar.getYearNineStar()), year


def test_year_turns_at_li_chun():
    li_chun = term_start("立春", 2024)
    assert ninestar_chart(li_chun - timedelta(minutes=1))["year"] == "四綠"
    assert ninestar_chart(li_chun + timedelta(minutes=1))["year"] == "三碧"


def test_month_star_against_lunar_python():
    """Compared on the 20th of each month (no 節 falls then: lunar-python changes month by the day of the 節)."""
    for year in range(2000, 2025):
        for month in range(1, 13):
            d = date(year, month, 20)
            chart = ninestar_chart(_noon(d))
            assert chart["month"] == _lunar_python(Solar.fromYmd(year, month, 20).getLunar().getMonthNineStar()), d


def test_month_star_openings():
    assert month_star("子", "寅") == "八白" and month_star("辰", "寅") == "五黃" and month_star("寅", "寅") == "二黑"
    assert month_star("子", "卯") == "七赤" and month_star("子", "子") == "七赤" and month_star("子", "丑") == "六白"


def test_flight_paths():
    assert fly("五黃") == {str(p): STARS[p - 1] for p in range(1, 10)}          # 五黃 in the centre: 洛書 itself
    forward = fly("一白")
    assert [forward[str(p)] for p in (5, 6, 7, 8, 9, 1, 2, 3, 4)] == list(STARS)
    backward = fly("九紫", forward=False)
    assert [backward[str(p)] for p in (5, 6, 7, 8, 9, 1, 2, 3, 4)] == list(reversed(STARS))
    with pytest.raises(ChartError, match=r"^centre: '十白'"):
        fly("十白")


@settings(max_examples=100, deadline=None)
@given(moment=st.datetimes(min_value=datetime(1900, 2, 1), max_value=datetime(2100, 11, 30),
                           timezones=st.sampled_from([CST, timezone.utc, timezone(timedelta(hours=-7))])),
       leap=st.sampled_from(["continue", "end_anchored"]), flight=st.sampled_from(["by_dun", "forward"]))
def test_any_moment_gives_valid_plates(moment, leap, flight):
    chart = ninestar_chart(moment, day_leap=leap, day_flight=flight)
    for key in ("year", "month", "day"):
        plate = chart["plates"][key]
        assert sorted(plate.values()) == sorted(STARS) and plate["5"] == chart[key]
    assert validate_ninestar(chart)["plates"] == chart["plates"]
    if flight == "by_dun" and chart["day_dun"] == "陰":
        assert chart["plates"]["day"] == fly(chart["day"], forward=False)
    else:
        assert chart["plates"]["day"] == fly(chart["day"])


def test_shape():
    chart = ninestar_chart(datetime(2024, 3, 10, 12, tzinfo=CST))
    assert (chart["year"], chart["month"], chart["day"], chart["day_dun"]) == ("三碧", "四綠", "七赤", "陽")
    assert set(chart["plates"]) == {"year", "month", "day"}
    assert chart["options"] == {"day_boundary": "23:00", "longitude": None, "day_leap": "continue", "day_flight": "by_dun"}


def test_options_are_checked():
    moment = datetime(2024, 3, 10, 12, tzinfo=CST)
    with pytest.raises(ChartError, match=r"^day_leap: 'x'"):
        ninestar_chart(moment, day_leap="x")
    with pytest.raises(ChartError, match=r"^day_flight: 'y'"):
        ninestar_chart(moment, day_flight="y")


@pytest.mark.parametrize("mutate, message", [
    (lambda c: c.update(year="十白"), r"^ninestar\.year: '十白' is not a star"),
    (lambda c: c["plates"]["year"].update({"1": c["plates"]["year"]["2"]}), r"^ninestar\.plates\.year\.2: .* appears twice"),
    (lambda c: c["plates"]["month"].update({"5": c["plates"]["month"]["9"], "9": c["plates"]["month"]["5"]}),
     r"^ninestar\.plates\.month\.5: centre is '八白' but ninestar\.month is '四綠'"),
    (lambda c: c["plates"]["day"].update({"1": c["plates"]["day"]["2"], "2": c["plates"]["day"]["1"]}),
     r"^ninestar\.plates\.day\.1: .* breaks the flight"),
    (lambda c: c["plates"].update(hour={}), r"^ninestar\.plates\.hour: unknown plate"),
    (lambda c: c["plates"]["year"].pop("9"), r"^ninestar\.plates\.year: expected palaces"),
])
def test_validation_errors_name_the_field(mutate, message):
    chart = ninestar_chart(datetime(2024, 3, 10, 12, tzinfo=CST))
    chart["plates"] = {k: dict(v) for k, v in chart["plates"].items()}
    mutate(chart)
    with pytest.raises(ChartError, match=message):
        validate_ninestar(chart)


def test_validation_accepts_simplified_names():
    chart = ninestar_chart(datetime(2024, 3, 10, 12, tzinfo=CST))
    typed = {"year": "三碧", "month": "四绿", "plates": {"month": {k: v.replace("綠", "绿") for k, v in chart["plates"]["month"].items()}}}
    assert validate_ninestar(typed)["plates"]["month"] == chart["plates"]["month"]


def test_render_three_grids():
    text = render_ninestar(ninestar_chart(datetime(2024, 3, 10, 12, tzinfo=CST)))
    lines = text.splitlines()
    assert len(lines) == 4 and "年 三碧" in lines[0] and "日 七赤" in lines[0]
    assert lines[2].split()[1] == "三碧"                                   # the year's centre star in the middle row
