"""Malformed typed charts: exit 2 with one line naming the field, never a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leishen.cli.chart import chart

MOMENT = "2024-06-12T18:30:00+08:00"


@pytest.fixture(scope="module")
def computed() -> dict:
    return json.loads(CliRunner().invoke(chart, [MOMENT, "--json"]).stdout)


def check(tmp_path, value=None, raw: bytes | None = None):
    path = tmp_path / "typed.json"
    path.write_bytes(raw if raw is not None else json.dumps(value, ensure_ascii=False).encode("utf-8"))
    return CliRunner().invoke(chart, ["--chart", str(path)])


def _edit(chart_: dict, dotted: str, value):
    *parents, last = dotted.split(".")
    node = json.loads(json.dumps(chart_))
    target = node
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return node


CASES = [
    ("liuren.lessons", KeyError, "liuren.lessons: Field required"),
    ("liuren.plate", KeyError, "liuren.plate: Field required"),
    ("liuren.plate.子", ["寅"], "liuren.plate.子: Input should be a valid string, found list"),
    ("liuren.month_general", ["午"], "liuren.month_general: Input should be a valid string, found list"),
    ("liuren.void", 5, "liuren.void: Input should be a valid list, found int"),
    ("liuren.void", "子丑", "liuren.void: Input should be a valid list, found str"),
    ("liuren.options", {"method": "bogus"}, "liuren.options.method: unknown option"),
    ("liuren.options", {"shehai": "bogus"}, "liuren.options.shehai: 'bogus' is not one of"),
    ("qimen.horse", ["寅"], "qimen.horse: Input should be a valid string, found list"),
    ("qimen.ju", "²", "qimen.ju: Input should be a valid integer, found str"),
    ("qimen.ju", 10, "qimen.ju: Input should be less than or equal to 9"),
    ("qimen.options.method", "bogus", "qimen.options.method: 'bogus' is not one of chai_bu, zhi_run"),
    ("qimen.palaces.1.star", "天X", "qimen.palaces.1.star: '天X' is not"),
    ("ninestar.month", KeyError, "ninestar.month: Field required"),
    ("ninestar.year", 3, "ninestar.year: Input should be a valid string, found int"),
    ("ninestar.options.day_leap", "bogus", "ninestar.options.day_leap: 'bogus' is not one of"),
    ("pillars.year", "癸卯", "pillars.year: '癸卯' contradicts moment 2024-06-12T18:30:00+08:00 (its year pillar is 甲辰)"),
    ("moment", "1999-06-12T18:30+08:00", "pillars.year: '甲辰' contradicts moment 1999-06-12T18:30:00+08:00"),
    ("moment.local", "1999-02-30T18:30+08:00", "moment.local: '1999-02-30T18:30+08:00': no such date"),
    ("colour", "red", "colour: unknown key"),
    ("liuren.colour", "red", "liuren.colour: unknown key"),
    ("solar_term.name", "春天", "solar_term.name: '春天' is not one of the 24 solar terms"),
]


@pytest.mark.parametrize(("field", "value", "message"), CASES, ids=[f"{c[0]}={c[1]!r}" for c in CASES])
def test_malformed_typed_chart_exits_2_naming_the_field(tmp_path, computed, field, value, message):
    result = check(tmp_path, _edit(computed, field, value))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {message}"), result.stderr
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1


def test_text_mode_ninestar_with_one_star_is_an_error_not_a_traceback(tmp_path):
    result = check(tmp_path, {"ninestar": {"year": "三碧"}})
    assert result.exit_code == 2 and result.stderr.startswith("error: ninestar.month: Field required")


def test_not_utf8_names_the_byte(tmp_path):
    result = check(tmp_path, raw=b'{"liuren": "\xff"}')
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("typed.json: not UTF-8 (byte 12: b'\\xff')")


def test_deeply_nested_json_is_an_error(tmp_path):
    result = check(tmp_path, raw=b"[" * 10_000_000)
    assert result.exit_code == 2 and "typed.json: not" in result.stderr and result.exception.__class__ is SystemExit


@pytest.mark.parametrize("value", [[], "chart", 5, None])
def test_a_chart_must_be_an_object(tmp_path, value):
    result = check(tmp_path, value)
    assert result.exit_code == 2 and result.stderr.startswith("error: chart: expected a JSON object")


def test_a_part_of_another_moment_differs(tmp_path, computed):
    other = json.loads(CliRunner().invoke(chart, ["2024-06-13T18:30+08:00", "--json"]).stdout)
    typed = {**computed, "liuren": other["liuren"]}
    result = CliRunner().invoke(chart, ["--chart", "-", "--json"], input=json.dumps(typed, ensure_ascii=False))
    assert result.exit_code == 1
    differences = json.loads(result.stdout)["checks"]["liuren"]["differences"]
    assert "liuren.day" in [d["field"] for d in differences]


def test_text_mode_of_a_liuren_chart_with_only_the_day_plate_and_lessons(computed):
    """Before: KeyError 'transmissions' (a traceback) in text mode; --json handled it."""
    typed = {"pillars": {"day": computed["pillars"]["day"]},
             "liuren": {"plate": computed["liuren"]["plate"], "lessons": computed["liuren"]["lessons"]}}
    result = CliRunner().invoke(chart, ["--chart", "-"], input=json.dumps(typed, ensure_ascii=False))
    assert result.exit_code == 0 and result.exception.__class__ in (type(None), SystemExit), result.output
    assert "四課" in result.stdout and "初傳" not in result.stdout
    assert "not given: liuren.day, liuren.transmissions" in result.stdout


@pytest.mark.parametrize("system", ["liuren", "qimen", "ninestar"])
def test_text_mode_renders_every_typed_part_left_out(computed, system):
    """Each optional field of a section left out in turn: text mode answers (0, 1 or 2), never a traceback."""
    for key in computed[system]:
        typed = {"pillars": {k: computed["pillars"][k] for k in ("day", "hour")},
                 system: {k: v for k, v in computed[system].items() if k != key}}
        result = CliRunner().invoke(chart, ["--chart", "-"], input=json.dumps(typed, ensure_ascii=False))
        assert result.exit_code in (0, 1, 2) and isinstance(result.exception, (SystemExit, type(None))), \
            (key, repr(result.exception))


@pytest.fixture(scope="module")
def contradicting(computed) -> dict:
    """The chart of MOMENT with the 三傳 of the next day: its moment contradicts them."""
    other = json.loads(CliRunner().invoke(chart, ["2024-06-13T18:30+08:00", "--json"]).stdout)
    assert other["liuren"]["transmissions"] != computed["liuren"]["transmissions"]
    return {**computed, "liuren": {**computed["liuren"], "transmissions": other["liuren"]["transmissions"]}}


def test_chart_check_flags_three_transmissions_the_moment_contradicts(contradicting):
    result = CliRunner().invoke(chart, ["--chart", "-", "--json"], input=json.dumps(contradicting, ensure_ascii=False))
    assert result.exit_code == 1
    assert [d["field"] for d in json.loads(result.stdout)["checks"]["liuren"]["differences"]] == ["liuren.transmissions"]


def test_read_chart_refuses_three_transmissions_the_moment_contradicts(tmp_path, contradicting):
    """Before: read --chart read the typed 三傳 although chart --chart flagged them."""
    from leishen.cli.main import main

    path = tmp_path / "typed.json"
    path.write_text(json.dumps(contradicting, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["read", "--chart", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {path}: liuren.transmissions: typed [") and result.stderr.count("\n") == 1
    assert f"contradicts moment {MOMENT}" in result.stderr


def test_post_readings_refuses_three_transmissions_the_moment_contradicts(contradicting, computed):
    from fastapi.testclient import TestClient

    from leishen.api import Settings, create_app

    with TestClient(create_app(Settings(use_corpus=False)), raise_server_exceptions=False) as client:
        answer = client.post("/readings", json=contradicting)
        assert answer.status_code == 422, answer.text[:300]
        assert answer.json()["field"] == "liuren.transmissions" and "contradicts moment" in answer.json()["error"]
        assert client.post("/readings", json=computed).status_code == 200  # the chart of the moment itself reads


def test_the_library_and_a_chart_without_its_moment(contradicting):
    import leishen
    from leishen.engine.typedcheck import validate_typed_chart
    from leishen.errors import ChartError

    with pytest.raises(ChartError, match=r"^liuren\.transmissions: typed"):
        leishen.read(contradicting)
    untimed = {k: v for k, v in contradicting.items() if k != "moment"}  # no moment: read as typed
    assert validate_typed_chart(untimed)["liuren"]["transmissions"] == contradicting["liuren"]["transmissions"]


OTHER = {"qimen.horse": lambda v: "子" if v != "子" else "午", "ninestar.day": lambda v: "一白" if v != "一白" else "二黑"}


@pytest.mark.parametrize("dotted", sorted(OTHER))
def test_other_systems_contradicting_the_moment_are_refused_alike(computed, dotted):
    from leishen.engine.typedcheck import validate_typed_chart
    from leishen.errors import ChartError

    system, field = dotted.split(".")
    typed = json.loads(json.dumps(computed))
    typed[system].pop("plates", None)  # the flown plates follow from the centre stars: typed without them
    typed[system][field] = OTHER[dotted](typed[system][field])
    with pytest.raises(ChartError, match=rf"^{system}\.{field}"):
        validate_typed_chart(typed)
