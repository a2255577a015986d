"""Issue #29 item 5: under each void_exception choice a reading is consistent. 2024-04-10 00:00 +08:00 is a 甲辰 day
of the 甲辰旬 (void 寅卯) whose 初傳 is 寅, the 甲 day's 祿: under ``none`` (000:75) 寅 is void — 斬首 (000:15) holds
— and 002:147's 甲日寅不空 is the other school's finding, shown as the alternative; under ``lu_not_void`` 寅 is not
void, 斬首 does not hold and 甲日寅不空 is the school's own finding."""

from __future__ import annotations

from click.testing import CliRunner

import leishen
from leishen.cli.main import main as cli
from leishen.engine.chart import ChartRequest
from leishen.engine.liuren.options import LiurenOptions

MOMENT = "2024-04-10T00:00+08:00"
ZHANSHOU = "liuren/patterns/facts/000/patterns.csv#32"
NOT_VOID = "liuren/rules/facts/002/xunzhong.csv#41"


def _read(choice: str) -> dict:
    request = ChartRequest(liuren=LiurenOptions.from_mapping({"void_exception": choice}))
    return leishen.read(MOMENT, topic="*", request=request)


def _by_id(reading: dict) -> dict:
    return {f["id"]: f for f in reading["findings"]}


def test_none_reads_the_void_and_shows_the_exception_as_the_alternative():
    reading = _read("none")
    found = _by_id(reading)
    assert reading["chart"]["liuren"]["void"] == ["寅", "卯"] if "chart" in reading else True
    assert found[ZHANSHOU]["school"] == {"void_exception": "none"} and "alternative" not in found[ZHANSHOU]
    assert found[NOT_VOID]["src"] == ["002:147"]
    assert found[NOT_VOID]["alternative"] == {"void_exception": "lu_not_void"}
    # the void-dependent findings all say the school they follow; none of them is an alternative
    void_dependent = [f for f in reading["findings"] if "school" in f and f["id"] != NOT_VOID]
    assert void_dependent and all(f["school"] == {"void_exception": "none"} for f in void_dependent)
    # no judgment reads the alternative
    for j in reading["judgments"]:
        assert NOT_VOID not in {r["finding"] for r in j["reasons"]}
        assert all(NOT_VOID not in f["findings"] for f in j["facets"])


def test_lu_not_void_drops_the_void_findings_and_holds_the_exception():
    found = _by_id(_read("lu_not_void"))
    assert ZHANSHOU not in found
    assert found[NOT_VOID]["school"] == {"void_exception": "lu_not_void"} and "alternative" not in found[NOT_VOID]
    assert not [f for f in found.values() if (f.get("school") or {}).get("void_exception") == "none"]


def test_a_finding_of_no_void_has_no_school():
    reading = _read("none")
    kin = next(f for f in reading["findings"] if f["query"] == "kin")
    assert "school" not in kin and "alternative" not in kin


def test_the_readable_reading_marks_the_alternative():
    text = CliRunner().invoke(cli, ["read", MOMENT, "--topic", "*", "--lang", "en", "--all"]).output
    line = next(x for x in text.splitlines() if "[002:147]" in x and "NOT" not in x and "寅" in x)
    assert "(alternative: void_exception=lu_not_void)" in line
