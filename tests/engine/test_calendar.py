"""The calendar layer: moments, solar terms and pillars; tyme4py 1.5.0 as the oracle."""

from __future__ import annotations

import random
import warnings
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from leishen.engine.calendar import (
    CHINA_STANDARD_TIME, SIMPLIFIED_TERM_NAMES, SOLAR_TERMS, day_index, jie_term, middle_term, moment_facts,
    parse_moment, pillars, sexagenary_index, sexagenary_name, solar_term, term_start, terms_between,
    true_solar_time,
)
from leishen.errors import ChartError, MomentError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")           # tyme4py warns (FestivalType) on import
    tyme = pytest.importorskip("tyme4py.solar")

SHANGHAI = ZoneInfo("Asia/Shanghai")


def _random_moments(count: int, seed: int) -> list[datetime]:
    rng = random.Random(seed)
    start = datetime(1900, 1, 1, tzinfo=CHINA_STANDARD_TIME)
    span = int((datetime(2100, 12, 31, tzinfo=CHINA_STANDARD_TIME) - start).total_seconds())
    return [start + timedelta(seconds=rng.randrange(span)) for _ in range(count)]


def _tyme(moment: datetime):
    t = moment.astimezone(CHINA_STANDARD_TIME)
    return tyme.SolarTime.from_ymd_hms(t.year, t.month, t.day, t.hour, t.minute, t.second)


def _tyme_pillars(moment: datetime) -> tuple[str, str, str, str]:
    ec = _tyme(moment).get_lunar_hour().get_eight_char()
    return ec.get_year().get_name(), ec.get_month().get_name(), ec.get_day().get_name(), ec.get_hour().get_name()


# ---------------------------------------------------------------- moments

def test_parse_moment_with_offset_and_with_zone():
    assert parse_moment("1952-12-26T19:17:00+08:00").utcoffset() == timedelta(hours=8)
    seoul = parse_moment("2024-02-10T09:30", "Asia/Seoul")
    assert seoul.tzinfo == ZoneInfo("Asia/Seoul") and seoul.hour == 9
    shown = parse_moment("2024-02-10T00:30Z", "Asia/Shanghai")      # offset kept as an instant, shown in tz
    assert (shown.hour, shown.utcoffset()) == (8, timedelta(hours=8))


def test_parse_moment_errors_name_the_field():
    with pytest.raises(MomentError) as naive:
        parse_moment("1952-12-26T19:17:00")
    assert str(naive.value).startswith("moment: '1952-12-26T19:17:00' has no UTC offset")
    with pytest.raises(MomentError, match=r"^tz: 'Mars/Olympus'"):
        parse_moment("1952-12-26T19:17:00", "Mars/Olympus")
    with pytest.raises(MomentError, match=r"^moment: 'yesterday' is not an ISO 8601"):
        parse_moment("yesterday")
    with pytest.raises(MomentError, match="outside the supported range"):
        parse_moment("1700-01-01T00:00+08:00")


# ---------------------------------------------------------------- against tyme4py

@pytest.mark.parametrize("moment", _random_moments(300, seed=4), ids=lambda m: m.isoformat())
def test_pillars_and_term_agree_with_tyme4py(moment):
    p = pillars(moment)
    assert (p.year, p.month, p.day, p.hour) == _tyme_pillars(moment)
    term = _tyme(moment).get_term()
    start = term.get_julian_day().get_solar_time()
    expected_start = datetime(start.get_year(), start.get_month(), start.get_day(), start.get_hour(),
                              start.get_minute(), start.get_second(), tzinfo=CHINA_STANDARD_TIME)
    assert solar_term(moment) == (SIMPLIFIED_TERM_NAMES.get(term.get_name(), term.get_name()), expected_start)


@pytest.mark.parametrize("year", [1901, 1950, 1984, 2000, 2024, 2077, 2100])
def test_year_and_month_switch_at_the_exact_jie_instant(year):
    for name in SOLAR_TERMS[::2]:
        instant = term_start(name, year)
        for moment in (instant - timedelta(seconds=61), instant + timedelta(seconds=61)):
            p = pillars(moment)
            assert (p.year, p.month) == _tyme_pillars(moment)[:2], (name, moment)
        before, after = pillars(instant - timedelta(seconds=1)), pillars(instant)
        assert before.month != after.month
        assert (before.year != after.year) == (name == "立春")


def test_terms_are_traditional_and_in_order():
    found = terms_between(datetime(2024, 1, 1, tzinfo=SHANGHAI), datetime(2025, 1, 1, tzinfo=SHANGHAI))
    assert [name for name, _ in found] == list(SOLAR_TERMS[22:] + SOLAR_TERMS[:22])
    assert {"驚蟄", "穀雨", "小滿", "芒種", "處暑"} <= {name for name, _ in found}
    assert all(a[1] < b[1] for a, b in zip(found, found[1:]))


def test_middle_and_jie_term_in_force():
    moment = parse_moment("1952-12-26T19:17:00+08:00")
    assert middle_term(moment)[0] == "冬至" and jie_term(moment)[0] == "大雪"
    facts = moment_facts(moment)
    assert (facts.term, facts.middle, facts.jie) == ("冬至", "冬至", "大雪")
    assert facts.term_start.isoformat() == "1952-12-22T05:43:06+08:00"


# ---------------------------------------------------------------- day, hour and clocks

def test_issue_example_pillars():
    p = pillars(parse_moment("1952-12-26T19:17:00+08:00"))
    assert (p.year, p.month, p.day, p.hour) == ("壬辰", "壬子", "丙午", "戊戌")


def test_day_index_and_sexagenary_names():
    assert sexagenary_name(day_index(date(1952, 12, 26))) == "丙午"
    assert sexagenary_name(day_index(date(2000, 1, 1))) == "戊午"
    assert all(sexagenary_index(sexagenary_name(i)) == i for i in range(60))
    with pytest.raises(ChartError, match="not in the sexagenary cycle"):
        sexagenary_index("甲丑")


def test_day_boundary_option():
    late = parse_moment("2024-03-01T23:30+08:00")
    new_day = pillars(late, day_boundary="23:00")
    same_day = pillars(late, day_boundary="00:00")
    assert sexagenary_index(new_day.day) == (sexagenary_index(same_day.day) + 1) % 60
    assert new_day.hour == same_day.hour and new_day.hour[1] == "子"     # 夜子時 keeps the next day's 子 hour
    with pytest.raises(ChartError, match="day_boundary"):
        pillars(late, day_boundary="01:00")


def test_day_and_hour_follow_the_local_clock():
    """New York 23:30 on 1 March is 12:30 on 2 March in Beijing: the local day and hour are used."""
    ny = parse_moment("2024-03-01T10:30", "America/New_York")
    cst = ny.astimezone(CHINA_STANDARD_TIME)
    assert pillars(ny).hour[1] == "巳" and pillars(cst).hour[1] == "子"
    assert pillars(ny).month == pillars(cst).month


def test_true_solar_time_with_longitude():
    noon = parse_moment("2024-11-03T12:00+08:00")
    urumqi = true_solar_time(noon, 87.6)   # 32.4° west of 120°E: 129.6 min behind; early November EoT ≈ +16 min
    assert datetime(2024, 11, 3, 10, 0) <= urumqi <= datetime(2024, 11, 3, 10, 12)
    assert pillars(noon).hour[1] == "午" and pillars(noon, longitude=87.6).hour[1] == "巳"
    with pytest.raises(ChartError, match="longitude"):
        true_solar_time(noon, 200.0)


def test_term_start_accepts_simplified_names():
    assert term_start("惊蛰", 2024) == term_start("驚蟄", 2024)
    assert term_start("立春", 2024).isoformat() == "2024-02-04T16:27:07+08:00"
    with pytest.raises(ChartError, match="not one of the 24"):
        term_start("春節", 2024)


def test_utc_moment_and_cst_moment_are_the_same_instant():
    a = parse_moment("2024-02-04T08:27:07+00:00")
    assert solar_term(a) == solar_term(a.astimezone(timezone(timedelta(hours=-5))))
