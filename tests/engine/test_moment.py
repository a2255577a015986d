"""Moments: ISO text, now, no such date, DST gaps and folds, the supported range, true solar time."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from leishen.cli.chart import chart
from leishen.engine.calendar import moment_facts, parse_moment
from leishen.engine.chart import build_chart
from leishen.engine.moment import MAX_YEAR, MIN_YEAR, equation_of_time, true_solar_time
from leishen.errors import MomentError

NEW_YORK = "America/New_York"


def run(*args):
    return CliRunner().invoke(chart, list(args))


def test_no_moment_or_now_means_now():
    before = datetime.now(timezone.utc).replace(microsecond=0)
    for text in (None, "now", " NOW "):
        moment = parse_moment(text, "Asia/Seoul")
        assert moment.utcoffset() == timedelta(hours=9)
        assert before <= moment <= datetime.now(timezone.utc) + timedelta(seconds=1)
    result = run("--system", "liuren", "--json")
    assert result.exit_code == 0, result.output and '"liuren"' in result.stdout


@pytest.mark.parametrize("text", ["2023-02-29", "2023-02-29T10:00+08:00", "2024-13-01T00:00+08:00"])
def test_no_such_date(text):
    with pytest.raises(MomentError, match=r"^moment: .*no such date"):
        parse_moment(text, "Asia/Shanghai")
    result = run(text, "--tz", "Asia/Shanghai")
    assert result.exit_code == 2 and "no such date" in result.stderr


def test_a_local_time_in_a_dst_gap_is_an_error():
    with pytest.raises(MomentError, match=r"^moment: 2024-03-10T02:30:00 does not exist in America/New_York"):
        parse_moment("2024-03-10T02:30", NEW_YORK)
    result = run("2024-03-10T02:30", "--tz", NEW_YORK)
    assert result.exit_code == 2 and "does not exist" in result.stderr and result.stdout == ""


def test_an_ambiguous_local_time_needs_fold():
    with pytest.raises(MomentError, match=r"happened twice in America/New_York; pass fold 0 .*UTC-04:00.* 1 .*UTC-05:00"):
        parse_moment("2024-11-03T01:30", NEW_YORK)
    assert parse_moment("2024-11-03T01:30", NEW_YORK, fold=0).isoformat() == "2024-11-03T01:30:00-04:00"
    assert parse_moment("2024-11-03T01:30", NEW_YORK, fold=1).isoformat() == "2024-11-03T01:30:00-05:00"
    assert run("2024-11-03T01:30", "--tz", NEW_YORK).exit_code == 2
    result = run("2024-11-03T01:30", "--tz", NEW_YORK, "--fold", "1", "--json", "--system", "liuren")
    assert result.exit_code == 0 and '"2024-11-03T01:30:00-05:00"' in result.stdout
    assert parse_moment("2024-07-01T12:00", NEW_YORK, fold=1).utcoffset() == timedelta(hours=-4)  # no effect


@pytest.mark.parametrize("offset", [-12, -5, 0, 8, 14])
def test_the_whole_documented_range_charts(offset):
    zone = timezone(timedelta(hours=offset))
    for moment in (datetime(MIN_YEAR, 1, 1, tzinfo=zone), datetime(MAX_YEAR, 12, 31, 23, 59, 59, tzinfo=zone)):
        chart_ = build_chart(moment)
        assert {"liuren", "qimen", "ninestar"} <= set(chart_)


@pytest.mark.parametrize("args", [["0001-01-01T00:00+14:00", "--tz", "UTC"], ["9999-12-31T23:59-14:00"],
                                  ["1799-12-31T23:59+08:00"], ["2201-01-01T00:00+08:00"],
                                  ["1800-01-01T00:00+14:00", "--tz", "UTC"], ["9999-12-31T23:59", "--tz", "Asia/Tokyo"]])
def test_outside_the_range_is_a_clear_error(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: moment: ") and "outside the supported range 1800-2200" in result.stderr


@pytest.mark.parametrize("args", [["2024-01-01T00:00-13:00"], ["2024-01-01T00:00-12:30"], ["2024-01-01T00:00+14:30"],
                                  ["2024-01-01T00:00-14:00", "--tz", "UTC"]])
def test_a_written_offset_outside_minus_12_to_plus_14_is_refused(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "is outside -12:00..+14:00" in result.stderr


@pytest.mark.parametrize("moment, zone, offset", [("1850-06-01T12:00", "America/Sitka", "+14:58:47"),
                                                  ("1830-06-01T12:00", "Asia/Manila", "-15:56:08")])
def test_a_zone_local_mean_time_beyond_those_offsets_is_charted(moment, zone, offset):
    parsed = parse_moment(moment, zone)
    assert parsed.isoformat().endswith(offset)
    assert {"liuren", "qimen", "ninestar"} <= set(build_chart(parsed))


def _meeus_equation_of_time(utc: datetime) -> float:
    """Independent check: Meeus, Astronomical Algorithms ch. 28 (Smart's series), minutes."""
    jd = (utc - datetime(2000, 1, 1, 12)).total_seconds() / 86400 + 2451545.0
    t = (jd - 2451545.0) / 36525
    l0 = math.radians((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360)
    m = math.radians(357.52911 + t * (35999.05029 - 0.0001537 * t))
    e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    eps = math.radians(eps0 + 0.00256 * math.cos(math.radians(125.04 - 1934.136 * t)))
    y = math.tan(eps / 2) ** 2
    value = (y * math.sin(2 * l0) - 2 * e * math.sin(m) + 4 * e * y * math.sin(m) * math.cos(2 * l0)
             - 0.5 * y * y * math.sin(4 * l0) - 1.25 * e * e * math.sin(2 * m))
    return 4 * math.degrees(value)


def test_equation_of_time_at_100_dates_agrees_with_meeus():
    rng = random.Random(11)
    for _ in range(100):
        utc = datetime(1800, 1, 1) + timedelta(seconds=rng.randrange(int(401 * 365.25 * 86400)))
        assert abs(equation_of_time(utc) - _meeus_equation_of_time(utc)) * 60 < 6, utc


def test_true_solar_time_moves_the_hour_by_longitude_and_equation_of_time():
    moment = parse_moment("2024-02-11T12:00+08:00")          # EoT about -14.2 min in mid-February
    clock = true_solar_time(moment, 120.0)
    assert timedelta(minutes=-14.5) < clock - datetime(2024, 2, 11, 12) < timedelta(minutes=-14.0)
    facts = moment_facts(parse_moment("2024-02-11T13:05+08:00"), longitude=120.0)
    assert facts.clock.hour == 12 and facts.pillars.hour[1] == "午"   # 13:05 on the clock is 午 by the sun
