"""Inputs found wanting by probing: find's steps across a clock change and at the end of the years, the
Python API's datetimes and wrong types, typed charts at the edges of the range, the read command's --chart
and topic names, a birth year checked without the sex."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

import leishen
from leishen.cli.main import main as cli
from leishen.errors import BackendError, ChartError, MomentError
from leishen.errors import FindError

NEW_YORK = "America/New_York"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def _utc(hits):
    return [h["moment"]["utc"][11:16] for h in hits]


def test_find_by_hour_steps_every_real_hour_across_a_clock_change():
    spring = list(leishen.find("kin", "2026-03-08T01:00", "2026-03-08T03:00", tz=NEW_YORK))
    assert _utc(spring) == ["06:00", "07:00"]  # 02:00 never happened there: 01:00-05:00, then 03:00-04:00
    assert [h["moment"]["local"][11:] for h in spring] == ["01:00:00-05:00", "03:00:00-04:00"]
    autumn = list(leishen.find("kin", "2026-11-01T00:00", "2026-11-01T02:00", tz=NEW_YORK))
    assert _utc(autumn) == ["04:00", "05:00", "06:00", "07:00"]  # 01:00 comes twice, -04:00 then -05:00


def test_find_by_day_keeps_the_clock_time():
    hits = list(leishen.find("kin", "2026-03-07T10:00", "2026-03-09T10:00", tz=NEW_YORK, step="day"))
    assert [h["moment"]["local"] for h in hits] == ["2026-03-07T10:00:00-05:00", "2026-03-08T10:00:00-04:00",
                                                    "2026-03-09T10:00:00-04:00"]


def test_a_range_leaving_the_years_on_the_starts_clock_is_refused_before_any_moment():
    with pytest.raises(FindError, match="^end: on the clock of the start .* year 2201"):
        next(leishen.find("kin", "2200-12-31T22:00+08:00", "2200-12-31T23:00-12:00"))


def test_the_python_api_reads_a_datetime_as_the_cli_reads_text():
    aware = datetime(2026, 12, 1, 10, tzinfo=timezone.utc)
    assert leishen.chart(aware, tz="Asia/Seoul") == leishen.chart("2026-12-01T10:00+00:00", tz="Asia/Seoul")
    assert leishen.chart(datetime(2026, 12, 1, 19), tz="Asia/Seoul") == leishen.chart("2026-12-01T19:00+09:00")
    with pytest.raises(MomentError, match="^tz: "):
        leishen.chart(aware, tz="No/Such")


@pytest.mark.parametrize("call, error", [
    (lambda: list(leishen.find(None, "2026-01-01T00:00+08:00", "2026-01-01T03:00+08:00")), FindError),
    (lambda: list(leishen.find(5, "2026-01-01T00:00+08:00", "2026-01-01T03:00+08:00")), FindError),
    (lambda: list(leishen.find("kin", datetime(2026, 1, 1, tzinfo=timezone.utc), datetime(2026, 1, 1, 2))),
     MomentError),
    (lambda: leishen.read("2026-01-01T00:00+08:00", backend=5), BackendError),
    (lambda: leishen.chart("2026-01-01T00:00+08:00", request="x"), ChartError),
])
def test_the_python_api_answers_a_wrong_argument_with_its_own_error(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("moment", ["1800-01-01T00:30+14:00", "2200-12-31T20:00-12:00"])
def test_a_computed_chart_at_the_edge_of_the_years_reads_back(tmp_path, moment):
    """Its UTC instant lies in 1799 or 2201: the range is the moment's own clock's."""
    path = tmp_path / "chart.json"
    path.write_text(json.dumps(leishen.chart(moment), ensure_ascii=False), encoding="utf-8")
    typed = run("read", "--chart", str(path), "--json")
    assert typed.exit_code == 0, typed.output
    direct = json.loads(run("read", moment, "--json").stdout)
    assert [f["id"] for f in json.loads(typed.stdout)["findings"]] == [f["id"] for f in direct["findings"]]


@pytest.mark.parametrize("content, args, message", [
    ("[" * 100000 + "]" * 100000, (), "JSON nested too deeply"),
    ("[1]", (), "expected a JSON object (a chart), found list"),
    (None, (), "--chart: the file name is empty"),
    ("{}", ("--tz", "UTC"), "--tz, --fold and the chart options set how a MOMENT is charted"),
    ("{}", ("--system", "qimen"), "--tz, --fold and the chart options set how a MOMENT is charted"),
])
def test_read_chart_refuses_what_is_not_a_chart_to_read(tmp_path, content, args, message):
    path = ""
    if content is not None:
        path = str(tmp_path / "c.json")
        (tmp_path / "c.json").write_text(content, encoding="utf-8")
    result = run("read", "--chart", path, *args)
    assert result.exit_code == 2 and message in result.stderr, result.output


@pytest.mark.parametrize("name, zh", [("buying goods", "買貨"), ("weather divination", "天時"),
                                      ("collecting debts and seizing", "索債取捕")])
def test_an_english_topic_name_without_its_note(name, zh):
    assert leishen.read("2026-12-01T10:00+09:00", topic=name)["topic"] == zh


@pytest.mark.parametrize("year", ["3000", "1800", "-5"])
def test_a_birth_year_outside_the_askers_life_is_refused_without_the_sex(year):
    result = run("chart", "2026-12-01T10:00+09:00", "--birth-year", year, "--system", "liuren")
    assert result.exit_code == 2 and "birth_year: " in result.stderr, result.output


def test_find_takes_a_meaning_in_ko_or_en_and_a_findings_own_id():
    start, end = "2026-01-01T00:00+08:00", "2026-01-31T00:00+08:00"
    by_zh = list(leishen.find("仕祿", start, end))
    assert by_zh and list(leishen.find("사록", start, end)) == by_zh
    assert {h["moment"]["utc"] for h in by_zh} <= {h["moment"]["utc"] for h in leishen.find("Office and Salary", start, end)}
    finding = by_zh[0]["findings"][0]
    assert list(leishen.find(finding, start, end)) == by_zh


def test_a_kin_or_stage_finding_binds_the_day_stem_its_evidence_starts_from():
    reading = leishen.read("2026-12-01T10:00+09:00")
    for f in reading["findings"]:
        if f["query"] in ("kin", "stages"):
            starts = {h["slot"] for walk in (f["path"], *f["evidence"]) for h in walk[:1]}
            assert starts <= set(f["bindings"]) and "日干" in f["bindings"], f["id"]


def test_every_chart_hop_is_read_in_words_in_each_language():
    import re
    from leishen.cli.read_cmds import CHART_HOPS as WORDS
    from leishen.readings.bindings import CHART_HOPS
    assert set(CHART_HOPS) | {"IS_SLOT", "MEETS"} <= set(WORDS)
    for lang in ("zh", "ko", "en"):
        text = run("read", "2026-12-01T10:00+09:00", "--topic", "*", "--lang", lang, "--all").stdout
        assert not re.search(r"\[[A-Za-z]+_[A-Za-z_]+\]", text), lang  # no hop type shown as its code


@pytest.mark.parametrize("lang, header, tally, topic", [("zh", "占事: 求財", "吉凶統計: ", "求財"),
                                                        ("ko", "점사: 구재", "길흉 집계: ", "구재"),
                                                        ("en", "topic: seeking wealth", "tally: ", "seeking wealth")])
def test_the_readable_reading_speaks_its_language(lang, header, tally, topic):
    """--all: every finding grouped by system, topic and query, the headers in the chosen language."""
    from leishen.cli.render_judged import word
    text = run("read", "2026-12-01T10:00+09:00", "--topic", "求財", "--lang", lang, "--all").stdout
    assert text.splitlines()[0].endswith(header)
    assert f"· {topic} · {word('query.rules', lang)}】" in text and any(line.startswith(tally) for line in text.splitlines())
    judged = run("read", "2026-12-01T10:00+09:00", "--topic", "求財", "--lang", lang).stdout
    assert f"== {topic} ==" in judged and any(tally in line for line in judged.splitlines())


def test_read_charts_the_moment_with_the_options_chart_takes():
    args = ("2026-12-01T10:00+09:00", "--system", "qimen", "--birth-year", "1984", "--sex", "male",
            "--qimen-opt", "method=zhi_run", "--noble-table", "daquan", "--json")
    reading = json.loads(run("read", *args).stdout)
    chart = json.loads(run("chart", *args).stdout)
    assert reading["chart"] == chart and reading["systems"] == ["qimen"]
    assert {"本命", "行年"} <= set(reading["bindings"]) and chart["qimen"]["options"]["method"] == "zhi_run"
    assert run("read", "2026-12-01T10:00+09:00", "--qimen-opt", "nonsense").exit_code == 2


@pytest.mark.parametrize("moment, zone", [("1850-01-01T10:00", "America/Sitka"), ("1840-06-01T12:00", "Asia/Manila")])
def test_a_chart_in_a_zones_local_mean_time_reads_back(tmp_path, moment, zone):
    """Its moment is written with the zone's offset to the second (+14:58:47): read back as the same instant."""
    chart = leishen.chart(moment, tz=zone)
    path = tmp_path / "chart.json"
    path.write_text(json.dumps(chart, ensure_ascii=False), encoding="utf-8")
    typed = run("read", "--chart", str(path), "--json")
    assert typed.exit_code == 0, typed.output
    direct = leishen.read(moment, tz=zone)
    assert [f["id"] for f in json.loads(typed.stdout)["findings"]] == [f["id"] for f in direct["findings"]]
    assert run("chart", "2024-01-01T00:00+15:00").exit_code == 2  # a written whole-minute offset stays -12..+14


def test_find_names_its_ends_as_each_surface_calls_them():
    cli_error = run("find", "kin", "--from", "2200-12-31T22:00+08:00", "--to", "2200-12-31T23:00-12:00").stderr
    assert cli_error.startswith("error: to: on the clock of the start")
    with pytest.raises(MomentError, match="^start: 2024-11-03T01:30 happened twice .* write it with its UTC offset"):
        leishen.find("kin", "2024-11-03T01:30", "2024-11-03T03:00", tz=NEW_YORK)
