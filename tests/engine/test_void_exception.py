"""The school option ``void_exception``: 000:75's 旬空 without exception (default), or 002:147's X日Y不空 — the
void branch that is the day stem's 祿 is not void — in the chart, the reading, the CLI and the HTTP API."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import leishen
from leishen.cli.chart import chart as chart_command
from leishen.engine.calendar import BRANCHES, sexagenary_index
from leishen.engine.chart import ChartRequest
from leishen.engine.liuren.options import LiurenOptions, VoidException
from leishen.engine.liuren.shensha import void_branches, void_with_exception
from leishen.service.book import reader

LU = "寅卯巳午巳午申酉亥子"  # 甲 … 癸 祿 (臨官)
NOON = "T12:00:00+08:00"
RENSHEN, GENGCHEN, DINGHAI = "2024-01-09", "2024-01-17", "2024-01-24"  # 甲子旬 戌亥, 甲戌旬 申酉, 甲申旬 午未


def _lu_not_void() -> ChartRequest:
    return ChartRequest(liuren=LiurenOptions(void_exception=VoidException.LU_NOT_VOID))


@pytest.mark.parametrize("day", range(60))
def test_the_lu_of_the_day_stem_is_taken_out_of_the_void(day):
    void = [BRANCHES[b] for b in void_branches(day)]
    kept = [BRANCHES[b] for b in void_with_exception(day, VoidException.LU_NOT_VOID)]
    assert [BRANCHES[b] for b in void_with_exception(day, VoidException.NONE)] == void
    assert kept == [b for b in void if b != LU[day % 10]]


def test_the_cases_002_147_lists():
    """壬日亥不空 (甲子旬), 庚日申不空 辛日酉不空 (甲戌旬), 丁己日午不空 (甲申旬)."""
    for name, still in (("壬申", ["戌"]), ("庚辰", ["酉"]), ("辛巳", ["申"]), ("丁亥", ["未"]), ("己丑", ["未"])):
        assert [BRANCHES[b] for b in void_with_exception(sexagenary_index(name), VoidException.LU_NOT_VOID)] == still


def test_the_chart_carries_the_option_and_its_void():
    default, lu = leishen.chart(RENSHEN + NOON), leishen.chart(RENSHEN + NOON, request=_lu_not_void())
    assert default["liuren"]["day"] == "壬申" and default["liuren"]["void"] == ["戌", "亥"]
    assert default["liuren"]["options"]["void_exception"] == "none"
    assert lu["liuren"]["void"] == ["戌"] and lu["liuren"]["options"]["void_exception"] == "lu_not_void"
    assert all(t["void"] == (t["branch"] == "戌") for t in lu["liuren"]["transmission_details"])


def test_a_reading_follows_the_void_of_the_option():
    """On a 壬申 day 亥 is void by default and not with lu_not_void: void() and 旬空 follow the chart, and the
    002:147 row (壬日亥不空) is a finding either way."""
    r = reader()
    for request, void in ((None, True), (_lu_not_void(), False)):
        chart = leishen.chart(RENSHEN + NOON, request=request)
        assert r.test(chart, "eq(旬空, Branch.亥)", system="liuren")["holds"] is void
        assert r.test(chart, "some(位, all(eq(地, Branch.亥), void(地)))", system="liuren")["holds"] is void
        reading = r.read(chart)
        assert ("Branch:hai" in reading["bindings"]["旬空"]) is void
        assert any(f["rule"]["fact"] == "facts/002/xunzhong.csv#6" for f in reading["findings"])


def test_the_cli_flag_and_the_http_parameter(corpus_dir):
    from fastapi.testclient import TestClient

    from leishen.api import Settings, create_app
    client = TestClient(create_app(Settings(corpus=str(corpus_dir))))
    result = CliRunner().invoke(chart_command, [GENGCHEN + NOON, "--void-exception", "lu_not_void", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["liuren"]["void"] == ["酉"]
    assert CliRunner().invoke(chart_command, [GENGCHEN + NOON, "--void-exception", "some"]).exit_code == 2
    body = client.get("/charts", params={"moment": DINGHAI + NOON, "void_exception": "lu_not_void"}).json()
    assert body["liuren"]["void"] == ["未"]
    assert client.get("/charts", params={"moment": DINGHAI + NOON, "void_exception": "x"}).status_code == 422
