"""命星 (#41 item 10): with a birth year the asker's natal 紫白 star — the year star of the birth year — is the
slot 命星, the 身命 lines of 003:3–11 are read on it, and 本命 / 行年 / 命星 show in the readable chart and reading."""

from __future__ import annotations

from click.testing import CliRunner

from leishen import readings
from leishen.cli.main import main
from leishen.engine.chart import ChartRequest, build_chart
from leishen.engine.moment import parse_moment
from leishen.service import book

MOMENT = "2026-12-01T10:00+09:00"


def _reading(birth_year):
    chart = build_chart(parse_moment(MOMENT), ChartRequest(birth_year=birth_year, sex="male" if birth_year else None))
    return chart, book.reader().read(chart)


def test_the_natal_star_is_the_year_star_of_the_birth_year():
    # 1980: 46 years before 2026 (一白), one star on for each 9 back: 二黑 (003:3 巨門二黑)
    chart, reading = _reading(1980)
    assert chart["ninestar"]["natal"] == "二黑" and reading["bindings"]["命星"] == "FlyingStar:er_hei"
    natal = [f for f in reading["findings"] if "命星" in (f.get("bindings") or {})]
    assert natal and {f["meaning"]["zh"] for f in natal} == {"終不利"} and natal[0]["src"] == ["003:3"]
    assert natal[0]["polarity"] == "凶"


def test_without_a_birth_year_no_natal_line_holds():
    chart, reading = _reading(None)
    assert "natal" not in chart["ninestar"] and "命星" not in reading["bindings"]
    assert not [f for f in reading["findings"] if "命星" in (f.get("bindings") or {})]


def test_the_readable_chart_and_reading_show_the_asker():
    runner = CliRunner()
    out = runner.invoke(main, ["chart", MOMENT, "--birth-year", "1980", "--sex", "male"])
    assert out.exit_code == 0 and "本命 庚申  行年 壬子  命星 二黑" in out.output
    out = runner.invoke(main, ["read", MOMENT, "--birth-year", "1980", "--sex", "male", "--lang", "en"])
    assert out.exit_code == 0 and "natal year 庚申  year of life 壬子  natal star 二黑" in out.output
    out = runner.invoke(main, ["read", MOMENT, "--lang", "en"])
    assert "natal star" not in out.output
