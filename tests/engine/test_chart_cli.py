"""``leishen chart``: JSON and readable output, batch, hand-typed charts, errors → exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leishen.cli.chart import chart
from leishen.engine.handchart import validate_generals, validate_plate
from leishen.engine.typedcheck import check_typed_chart
from leishen.errors import ChartError

ISSUE_MOMENT = "1952-12-26T19:17:00+08:00"


@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args, stdin=None):
        return runner.invoke(chart, list(args), input=stdin)
    return invoke


def test_json_output(run):
    result = run(ISSUE_MOMENT, "--system", "liuren", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["liuren"]["method"] == "比用" and "qimen" not in data
    assert "丙午" in result.stdout                                  # ensure_ascii=False


def test_readable_output_draws_the_ring_and_the_grid(run):
    result = run(ISSUE_MOMENT)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    top = next(i for i, line in enumerate(lines) if line.split() == list("巳午未申"))
    assert lines[top + 1].split() == ["申蛇", "酉貴", "戌后", "亥陰"]
    assert lines[top + 2].split()[0] == "辰" and lines[top + 2].split()[-1] == "酉"
    assert lines[top + 5].split() == list("寅丑子亥")
    assert any("巽4" in line for line in lines) and "【奇門遁甲】" in result.stdout and "【九星】" in result.stdout


def test_naive_moment_is_an_error_with_exit_2(run):
    result = run("1952-12-26T19:17:00")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: moment: '1952-12-26T19:17:00' has no UTC offset")
    assert result.stdout == ""


def test_tz_option(run):
    result = run("1952-12-26T19:17", "--tz", "Asia/Shanghai", "--system", "liuren", "--json")
    assert json.loads(result.stdout)["moment"]["local"] == ISSUE_MOMENT


def test_liuren_options_on_the_command_line(run):
    result = run("2024-06-12T18:30+08:00", "--system", "liuren", "--noble-table", "tongshu", "--day-night",
                 "day", "--shehai", "meng_zhong_ji", "--json")
    options = json.loads(result.stdout)["liuren"]["options"]
    assert options["noble_table"] == "tongshu" and options["day_night"] == "day"
    assert run(ISSUE_MOMENT, "--shehai", "deep").exit_code == 2


def test_bad_peer_option_exits_2(run):
    result = run(ISSUE_MOMENT, "--qimen-opt", "colour=red", "--json")
    assert result.exit_code == 2 and "qimen.options.colour" in result.stderr


def test_at_most_one_input(run):
    assert run(ISSUE_MOMENT, "--batch", "-", stdin="").exit_code == 2


def test_batch_writes_one_chart_per_line_in_order(run):
    lines = [{"moment": "2024-01-01T00:30", "tz": "Asia/Shanghai"}, {"moment": ISSUE_MOMENT},
             {"moment": "2024-06-01T12:00+09:00"}]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n"
    result = run("--batch", "-", "--system", "liuren", "--json", stdin=stdin)
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [x["moment"]["local"] for x in out] == ["2024-01-01T00:30:00+08:00", ISSUE_MOMENT,
                                                   "2024-06-01T12:00:00+09:00"]


def test_batch_reports_each_bad_line_in_place_and_goes_on(run):
    stdin = "\n".join([json.dumps({"moment": ISSUE_MOMENT}), json.dumps({"moment": "2024-01-01T00:30"}),
                       "{not json", json.dumps({"moment": ISSUE_MOMENT, "colour": "red"}),
                       json.dumps({"moment": "2024-06-01T12:00+09:00"})]) + "\n"
    result = run("--batch", "-", "--json", "--system", "liuren", stdin=stdin)
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 5 and "liuren" in out[0] and "liuren" in out[4]
    assert out[1] == {"line": 2, "error": "-:2: moment: '2024-01-01T00:30' has no UTC offset; add one "
                                          "(e.g. +08:00) or pass tz (e.g. Asia/Shanghai)"}
    assert out[2]["line"] == 3 and "-:3: not JSON" in out[2]["error"]
    assert out[3] == {"line": 4, "error": "-:4: unknown key 'colour' (known: moment, tz, fold)"}
    assert result.stderr.strip() == "error: -: 3 of 5 lines could not be charted"


def test_batch_tz_is_the_default_zone(run):
    stdin = json.dumps({"moment": "2024-01-01T00:30"}) + "\n" + json.dumps({"moment": "2024-01-01T00:30", "tz": "UTC"})
    result = run("--batch", "-", "--json", "--system", "liuren", "--tz", "Asia/Seoul", stdin=stdin)
    assert result.exit_code == 0, result.output
    out = [json.loads(line)["moment"]["local"] for line in result.stdout.splitlines()]
    assert out == ["2024-01-01T00:30:00+09:00", "2024-01-01T00:30:00+00:00"]


def _typed(tmp_path, value) -> str:
    path = tmp_path / "chart.json"
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_hand_typed_chart_round_trip(run, tmp_path):
    computed = json.loads(run(ISSUE_MOMENT, "--json").stdout)
    path = _typed(tmp_path, computed)
    result = run("--chart", path, "--json")
    assert result.exit_code == 0, result.output
    checked = json.loads(result.stdout)
    assert checked["agrees"] is True
    for system in ("liuren", "qimen", "ninestar"):
        check = checked["checks"][system]
        assert check["computed_from"] == "moment" and check["differences"] == [] and check["not_given"] == []
    assert "liuren.transmissions" in checked["checks"]["liuren"]["agrees"]
    assert "qimen.palaces.1.star" in checked["checks"]["qimen"]["agrees"]
    readable = run("--chart", path)
    assert readable.exit_code == 0 and "agrees with the computed one" in readable.stdout


def test_hand_typed_chart_differences_exit_1_listing_every_field(run, tmp_path):
    computed = json.loads(run(ISSUE_MOMENT, "--json").stdout)
    computed["liuren"]["transmissions"] = ["申", "亥", "子"]
    computed["liuren"]["generals"] = {k: {"玄武": "元武"}.get(v, v) for k, v in computed["liuren"]["generals"].items()}
    computed["ninestar"]["day"] = "一白" if computed["ninestar"]["day"] != "一白" else "二黑"
    del computed["ninestar"]["plates"]
    computed["qimen"]["yuan"] = "上元" if computed["qimen"]["yuan"] != "上元" else "中元"
    result = run("--chart", _typed(tmp_path, computed), "--json")
    assert result.exit_code == 1
    checked = json.loads(result.stdout)
    assert checked["chart"]["liuren"]["generals"]["子"] == "玄武"                      # 元武 normalised
    fields = [d["field"] for c in checked["checks"].values() for d in c["differences"]]
    assert fields == ["liuren.transmissions", "qimen.yuan", "ninestar.day"]
    assert checked["checks"]["liuren"]["differences"][0] == {
        "field": "liuren.transmissions", "typed": ["申", "亥", "子"], "computed": ["申", "亥", "寅"]}
    assert checked["checks"]["ninestar"]["not_given"] == ["ninestar.plates"]
    readable = run("--chart", _typed(tmp_path, computed))
    assert readable.exit_code == 1 and "differs liuren.transmissions: typed" in readable.stdout


def test_a_missing_part_is_not_given_never_agrees(tmp_path):
    computed = check_typed_chart({"pillars": {"day": "丙午", "hour": "戊戌"},
                                  "liuren": {"plate": dict(zip("子丑寅卯辰巳午未申酉戌亥", "寅卯辰巳午未申酉戌亥子丑")),
                                             "lessons": [{"upper": "未", "lower": "丙"}, {"upper": "酉", "lower": "未"},
                                                         {"upper": "申", "lower": "午"}, {"upper": "戌", "lower": "申"}]}})
    check = computed["checks"]["liuren"]
    assert check["computed_from"] == "pillars.day, pillars.hour and the plate"
    assert "liuren.transmissions" in check["not_given"] and "liuren.transmissions" not in check["agrees"]
    assert check["agrees"] == [f"liuren.plate.{b}" for b in "子丑寅卯辰巳午未申酉戌亥"] + ["liuren.lessons"]
    assert check["differences"] == [] and computed["agrees"] is True


def test_hand_typed_chart_errors_exit_2(run, tmp_path):
    path = tmp_path / "bad.json"
    good_lessons = [{"upper": "子", "lower": "甲"}] * 4
    path.write_text(json.dumps({"liuren": {"plate": {"子": "X"}, "lessons": good_lessons}}), encoding="utf-8")
    result = run("--chart", str(path))
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: liuren.plate.子: 'X' is not a branch (one of 子丑寅卯辰巳午未申酉戌亥)"
    path.write_text("{", encoding="utf-8")
    assert "not JSON" in run("--chart", str(path)).stderr


ROTATION = {b: h for b, h in zip("子丑寅卯辰巳午未申酉戌亥", "卯辰巳午未申酉戌亥子丑寅")}


def test_plate_validation_messages():
    assert validate_plate(ROTATION)[1] == 3
    with pytest.raises(ChartError) as not_rotation:
        validate_plate({**ROTATION, "丑": "巳"})
    assert str(not_rotation.value) == "liuren.plate.丑: '巳' is not a rotation of the plate (卯 over 子 puts 辰 over 丑)"
    with pytest.raises(ChartError, match="missing earth branch 亥"):
        validate_plate({k: v for k, v in ROTATION.items() if k != "亥"})
    with pytest.raises(ChartError, match=r"^liuren.plate: 'Q' is not a branch"):
        validate_plate({**ROTATION, "Q": "子"})


def test_generals_validation_messages():
    good = {"酉": "貴人", "申": "螣蛇", "未": "朱雀", "午": "六合", "巳": "勾陳", "辰": "青龍", "卯": "天空",
            "寅": "白虎", "丑": "太常", "子": "玄武", "亥": "太陰", "戌": "天后"}
    assert validate_generals(good)["子"] == "玄武"
    with pytest.raises(ChartError, match=r"^liuren.generals.子: 貴人 appears twice"):
        validate_generals({**good, "子": "貴人"})
    with pytest.raises(ChartError, match="do not run in order"):
        validate_generals({**good, "子": "太陰", "亥": "玄武"})
    with pytest.raises(ChartError, match=r"^liuren.generals.子: '龍王' is not one of the twelve generals"):
        validate_generals({**good, "子": "龍王"})


def test_pillars_and_terms_are_checked():
    with pytest.raises(ChartError, match=r"^pillars.day: '甲丑' is not a stem-branch pair"):
        check_typed_chart({"pillars": {"day": "甲丑"}})
    assert check_typed_chart({"pillars": {"day": "甲子"}, "solar_term": {"name": "惊蛰"}})["chart"]["solar_term"]["name"] == "驚蟄"
    with pytest.raises(ChartError, match="nothing to check"):
        check_typed_chart({"moment": ISSUE_MOMENT})


def test_batch_lines_may_carry_fold(run):
    lines = [{"moment": "2024-11-03T01:30", "tz": "America/New_York", "fold": 1},
             {"moment": "2024-11-03T01:30", "tz": "America/New_York"},
             {"moment": "2024-11-03T01:30", "tz": "America/New_York", "fold": 2}]
    result = run("--batch", "-", "--json", "--system", "ninestar", stdin="\n".join(json.dumps(x) for x in lines))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 2 and out[0]["moment"]["local"] == "2024-11-03T01:30:00-05:00"
    assert "happened twice" in out[1]["error"] and out[2] == {"line": 3, "error": "-:3: fold: 2 is not 0 or 1"}
