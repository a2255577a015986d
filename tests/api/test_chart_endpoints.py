"""/charts, /readings and /find answer what the engine and the readings answer; bad input names the field."""

from __future__ import annotations

import pytest

import leishen
from leishen.api.models import ChartQuery

from apicheck import assert_error

MOMENT = "2026-12-01T10:00+09:00"


def test_chart_is_the_engine_chart(client):
    answer = client.get("/charts", params={"moment": MOMENT})
    assert answer.status_code == 200
    assert answer.json() == leishen.chart(MOMENT)


def test_chart_school_options_reach_the_engine(client):
    params = {"moment": "1952-12-26T19:17", "tz": "Asia/Shanghai", "systems": ["liuren", "qimen"],
              "day_boundary": "00:00", "noble_table": "tongshu", "qimen_method": "zhi_run",
              "qimen_centre_host": "kun2"}
    body = client.get("/charts", params=params).json()
    expected = leishen.chart(params["moment"], tz=params["tz"], request=ChartQuery(**params).request())
    assert body == expected and "ninestar" not in body and body["calendar"]["day_boundary"] == "00:00"
    assert body["qimen"]["options"]["method"] == "zhi_run"


@pytest.mark.parametrize("params, field", [
    ({"moment": ""}, "moment"),
    ({"moment": MOMENT, "fold": 2}, "fold"),
    ({"moment": MOMENT, "systems": ["astrology"]}, "systems"),
    ({"moment": MOMENT, "shehai": "bogus"}, "shehai"),
    ({"moment": MOMENT, "qimen_leap_threshold": 99}, "qimen_leap_threshold"),
    ({"moment": MOMENT, "longitude": 500}, "longitude"),
    ({"moment": MOMENT, "colour": "red"}, "colour"),
])
def test_chart_bad_options_name_the_field(client, params, field):
    assert assert_error(client.get("/charts", params=params), 422, field)["field"].startswith(field)


def test_no_moment_means_now(client):
    body = client.get("/charts", params={"systems": ["ninestar"]}).json()
    assert body["moment"]["utc"] and set(body) >= {"pillars", "ninestar"} and "liuren" not in body


@pytest.mark.parametrize("moment, tz", [("2026-13-01T10:00+09:00", None), ("2026-12-01T10:00", None),
                                        ("2026-12-01T10:00", "Mars/Olympus"), ("0001-01-01T00:00+14:00", None)])
def test_chart_bad_moments_are_4xx(client, moment, tz):
    answer = client.get("/charts", params={"moment": moment, **({"tz": tz} if tz else {})})
    assert answer.status_code in (400, 422) and answer.json()["error"]


def test_reading_of_a_moment_is_the_reading_of_its_chart(client, app):
    """GET /readings is the door's reading: the findings of the reader and the judgments of those findings."""
    from leishen.service import readings as door

    answer = client.get("/readings", params={"moment": MOMENT, "topic": "出行"})
    assert answer.status_code == 200
    expected = door.read(leishen.chart(MOMENT), topic="出行", reader=app.state.reader, typed=False)
    assert answer.json() == expected and expected["findings"]
    assert all(f["src"] for f in expected["findings"])
    found = app.state.reader.read(leishen.chart(MOMENT), topic="出行")["findings"]
    assert [f["id"] for f in answer.json()["findings"]] == [f["id"] for f in found]
    judged = answer.json()["judgments"]
    assert [j["topic"] for j in judged] == [None, "出行"] and all(j["verdict"] for j in judged)
    ids = {f["id"] for f in found}
    assert all(r["finding"] in ids for j in judged for r in j["reasons"])


def test_judgment_options_are_parameters(client):
    """The judgment's school options reach the judgment; a bad value is 422 naming the parameter."""
    params = {"moment": MOMENT, "topic": "出行", "timing_stem": "heaven", "verdict_conflict": "mixed"}
    judged = client.get("/readings", params=params).json()["judgments"]
    assert all(j["options"]["timing_stem"] == "heaven" and j["options"]["verdict_conflict"] == "mixed"
               for j in judged)
    plain = client.get("/readings", params={"moment": MOMENT, "topic": "出行"}).json()["judgments"]
    assert all(j["options"]["timing_stem"] == "earth" for j in plain)
    assert_error(client.get("/readings", params={**params, "timing_stem": "moon"}), 422, "timing_stem")
    chart = leishen.chart(MOMENT)
    posted = client.post("/readings", params={"topic": "出行", "nianjing_chart": "asked"}, json=chart).json()
    assert all(j["options"]["nianjing_chart"] == "asked" for j in posted["judgments"])
    assert_error(client.post("/readings", params={"nianjing_chart": "x"}, json=chart), 422, "nianjing_chart")


def test_reading_of_a_typed_in_chart(client, app):
    """A typed chart is read as its values are checked and normalised (a computed chart's findings are its own),
    by the door's one typed-chart loader."""
    from leishen.service import readings as door

    chart = leishen.chart(MOMENT)
    answer = client.post("/readings", json=chart)
    assert answer.status_code == 200 and answer.json() == door.read(chart, reader=app.state.reader)
    assert [(f["id"], f["path"], f["src"]) for f in answer.json()["findings"]] == \
           [(f["id"], f["path"], f["src"]) for f in app.state.reader.read(chart)["findings"]]
    assert answer.json()["judgments"][0]["topic"] is None


@pytest.mark.parametrize("change, field", [(("liuren", "day", "甲丑"), "liuren.day"),
                                           (("liuren", "xun", "乙丑"), "liuren.xun"),
                                           (("liuren", "hour_branch", "午時"), "liuren.hour_branch"),
                                           (("qimen", "duty_star_palace", 99), "qimen.duty_star_palace"),
                                           (("qimen", "day_pillar", "X"), "qimen.day_pillar")])
def test_a_typed_chart_with_a_bad_value_is_422_naming_the_field(client, change, field):
    """Values the shape allows but a reading cannot bind (not a stem-branch pair, not the head of a 旬,
    not a palace number) are refused naming the field, never a 500."""
    chart = leishen.chart(MOMENT)
    section, key, value = change
    chart[section][key] = value
    error = assert_error(client.post("/readings", json=chart), 422)["error"]
    assert error.startswith(field), error


@pytest.mark.parametrize("body, field", [({}, "chart"), ({"liuren": "a plate"}, "liuren"),
                                         ({"qimen": {"palaces": 3}}, "qimen"), ([1, 2], None),
                                         ({"ninestar": {"year": "三碧"}}, "ninestar")])
def test_a_malformed_typed_chart_is_422_naming_the_field(client, body, field):
    error = assert_error(client.post("/readings", json=body), 422)["error"]
    assert field is None or error.startswith(field), error


def test_unknown_topic_is_4xx_listing_topics(client):
    assert_error(client.get("/readings", params={"moment": MOMENT, "topic": "no-such-topic"}), 400, "no-such-topic", "求財")


def test_find_is_what_the_readings_find(client, app):
    from leishen.engine.calendar import parse_moment
    from leishen.service.readings import find_rule as find

    params = {"rule": "relations", "start": "2026-01-01T00:00+08:00", "end": "2026-01-01T05:00+08:00"}
    answer = client.get("/find", params=params)
    assert answer.status_code == 200
    expected = list(find(app.state.reader, "relations", parse_moment(params["start"]), parse_moment(params["end"])))
    assert answer.json() == expected and expected
    assert client.get("/find", params={**params, "limit": 2}).json() == expected[:2]


def test_find_by_verdict_is_what_choose_finds(client, app):
    """/find with topic and verdict (擇時) answers the moments :func:`leishen.judgments.choose.choose` chooses,
    each with its verdict and deciding reasons; a facet narrows them."""
    from leishen.engine.calendar import parse_moment
    from leishen.judgments.choose import choose

    params = {"topic": "出行", "verdict": "吉", "start": "2026-12-01T00:00+09:00", "end": "2026-12-01T23:00+09:00"}
    answer = client.get("/find", params=params)
    assert answer.status_code == 200
    expected = list(choose(app.state.reader, "出行", parse_moment(params["start"]), parse_moment(params["end"]),
                           verdict="吉"))
    assert answer.json() == expected and expected
    assert all(hit["verdict"] == "吉" and hit["reasons"] for hit in expected)
    facet, values = next((k, v) for hit in expected for k, v in hit["facets"].items())
    narrowed = client.get("/find", params={**params, "facet": f"{facet}={values[0]}"}).json()
    assert narrowed and all(values[0] in hit["facets"][facet] for hit in narrowed)


@pytest.mark.parametrize("params, field", [
    ({"topic": "出行", "verdict": "大吉"}, "verdict"),
    ({"topic": "出行", "verdict": "吉", "facet": "可行否"}, "facet"),
    ({"topic": "出行", "verdict": "吉", "facet": "顏色=紅"}, "facet"),
    ({"verdict": "吉"}, "topic"),
    ({"topic": "*", "verdict": "吉"}, "topic"),
    ({"topic": "no-such-topic", "verdict": "吉"}, "no-such-topic"),
    ({"rule": "relations", "topic": "出行", "verdict": "吉"}, "rule"),
    ({}, "rule"),
])
def test_find_by_verdict_bad_input_names_the_parameter(client, params, field):
    params = {"start": "2026-12-01T00:00+09:00", "end": "2026-12-01T03:00+09:00", **params}
    error = assert_error(client.get("/find", params=params), 422 if field == "verdict" else 400)
    assert field in error["error"] or error["field"] == field, error


def test_find_runs_under_the_server_limits(client):
    """One limits policy: /find scans at most the server door's moments (a month of hours) in either form."""
    from leishen.service.readings import SERVER

    for extra in ({"rule": "relations"}, {"topic": "出行", "verdict": "吉"}):
        params = {"start": "2026-01-01T00:00+08:00", "end": "2026-02-01T01:00+08:00", **extra}
        error = assert_error(client.get("/find", params=params), 400)["error"]
        assert f"at most {SERVER.max_moments}" in error, error


@pytest.mark.parametrize("params, status", [
    ({"rule": "relations", "start": "2026-01-01T00:00+08:00", "end": "2027-01-01T00:00+08:00"}, 400),
    ({"rule": "relations", "start": "2026-01-02T00:00+08:00", "end": "2026-01-01T00:00+08:00"}, 400),
    ({"rule": "no-such-rule", "start": "2026-01-01T00:00+08:00", "end": "2026-01-01T01:00+08:00"}, 400),
    ({"rule": " ", "start": "2026-01-01T00:00+08:00", "end": "2026-01-01T01:00+08:00"}, 400),
    ({"rule": "relations", "start": "2026-01-01T00:00+08:00", "end": "2026-01-01T01:00+08:00", "step": "week"}, 422),
    ({"rule": "relations", "start": "2026-01-01T00:00+08:00"}, 422),
])
def test_find_bad_input(client, params, status):
    assert_error(client.get("/find", params=params), status)


def test_every_school_option_of_the_engine_is_a_parameter():
    """Each keyword option of the Qimen and Nine Star engines is a row of engine/options.csv, and each row a
    parameter (tests/api/test_option_doors.py checks the doors agree on them)."""
    import inspect

    from leishen.engine.chart import CALENDAR_KEYS
    from leishen.engine.ninestar import ninestar_chart
    from leishen.engine.options import system_options
    from leishen.engine.qimen.chart import qimen_chart

    params = set(ChartQuery.model_fields)
    for system, func in (("qimen", qimen_chart), ("ninestar", ninestar_chart)):
        keywords = set(inspect.signature(func).parameters) - {"moment", *CALENDAR_KEYS}
        assert keywords == {o.key for o in system_options(system)}
    assert {o.name for o in system_options("liuren")} | {o.name for o in system_options("qimen")} <= params