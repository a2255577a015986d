"""HTTP answers found wanting by probing the service: a repeated local time over HTTP, errors naming their
field, HEAD and 405 on API routes, unknown parameters, a body that is not JSON, the web page's files only."""

from __future__ import annotations

import pytest

REPEATED = {"moment": "2024-11-03T01:30", "tz": "America/New_York"}  # the clocks went back: 01:30 happened twice


@pytest.mark.parametrize("path", ["/charts", "/readings", "/views/reading"])
def test_fold_picks_either_reading_of_a_repeated_local_time(client, path):
    first = client.get(path, params={**REPEATED, "fold": "0", "systems": "liuren"})
    second = client.get(path, params={**REPEATED, "fold": "1", "systems": "liuren"})
    assert first.status_code == second.status_code == 200, (first.text, second.text)
    if path != "/views/reading":
        assert first.json()["moment"]["local"].endswith("-04:00")
        assert second.json()["moment"]["local"].endswith("-05:00")
    refused = client.get(path, params={**REPEATED, "fold": "2"})
    assert refused.status_code == 422 and refused.json()["field"] == "fold"


@pytest.mark.parametrize("params, status, field", [
    ({"moment": "2024-13-01T00:00+08:00"}, 422, "moment"),
    ({"moment": "2024-01-01T00:00", "tz": "Mars/Olympus"}, 422, "tz"),
    ({"moment": "2024-01-01T00:00-13:00"}, 422, "moment"),
    ({"moment": "2024-01-01T00:00+08:00", "topic": "no such topic"}, 400, "topic"),
])
def test_a_service_error_names_its_field(client, params, status, field):
    answer = client.get("/readings", params=params)
    assert answer.status_code == status, answer.text
    assert answer.json()["field"] == field and answer.json()["error"].startswith(f"{field}: ") | (field == "topic")


@pytest.mark.parametrize("params, field", [
    ({"start": "bad", "end": "2026-01-31T23:00+08:00"}, "start"),
    ({"start": "2026-01-01T00:00+08:00", "end": "bad"}, "end"),
    ({"start": "2026-01-02T00:00+08:00", "end": "2026-01-01T00:00+08:00"}, "end"),
    ({"start": "2024-11-03T01:30", "end": "2024-11-03T05:00", "tz": "America/New_York"}, "start"),
    ({"start": "2026-01-01T00:00", "end": "2026-01-01T05:00", "tz": "No/Such"}, "tz"),
    ({"start": "2026-01-01T00:00+08:00", "end": "2026-01-01T05:00+08:00", "rule": "no such rule"}, "rule"),
])
def test_find_names_the_end_at_fault(client, params, field):
    answer = client.get("/find", params={"rule": "斫輪", **params})
    assert 400 <= answer.status_code < 500, answer.text
    body = answer.json()
    assert body["field"] == field, body
    assert body["error"].startswith(f"{field}: ") or field == "rule", body
    if "happened twice" in body["error"]:
        assert "fold" not in body["error"] and "-04:00" in body["error"] and "-05:00" in body["error"]


@pytest.mark.parametrize("path", ["/health", "/topics", "/coverage", "/", "/app.js"])
def test_head_answers_as_get_without_a_body(client, path):
    get, head = client.get(path), client.head(path)
    assert get.status_code == head.status_code == 200
    assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]


def test_a_wrong_method_on_an_api_route_is_405_with_its_methods(client):
    put = client.put("/cypher", json={"query": "RETURN 1"})
    assert put.status_code == 405 and put.headers["allow"] == "POST"
    assert client.get("/cypher").status_code == 405
    options = client.options("/readings")
    assert options.status_code == 405 and options.headers["allow"] == "GET, HEAD, POST"


@pytest.mark.parametrize("path", ["/health", "/topics", "/facts", "/coverage", "/symbols/子", "/views/schema",
                                  "/readings?moment=2026-12-01T10:00%2B09:00"])
def test_an_unknown_parameter_is_refused_naming_it(client, path):
    answer = client.get(path, params={"bogus": "1"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "bogus"


@pytest.mark.parametrize("body", [b"{bad json", b"\xff\xfe\x00", b"[" * 5000 + b"]" * 5000])
def test_a_body_that_is_not_json_is_a_422_on_the_body(client, body):
    answer = client.post("/readings", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "body"


def test_only_the_web_pages_files_are_served(client):
    assert client.get("/").headers["content-type"].startswith("text/html")
    page = client.get("/", params={"moment": "2026-12-01T10:00", "tz": "Asia/Seoul", "lang": "zh"})  # its script's
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.get("/style.css").headers["content-type"].startswith("text/css")
    for path in ("/__init__.py", "/nothing-here", "/../pyproject.toml"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.headers["content-type"] == "application/json", path


@pytest.fixture(scope="module")
def typed(client):
    return client.get("/charts", params={"moment": "2026-12-01T10:00+09:00"}).json()


@pytest.mark.parametrize("change, field", [
    (lambda c: c.__setitem__("moment", "garbage"), "moment.local"),
    (lambda c: c["moment"].__setitem__("local", "2201-01-01T00:00+00:00"), "moment.local"),
    (lambda c: c["pillars"].__setitem__("day", "甲子"), "pillars.day"),
    (lambda c: c["calendar"].__setitem__("longitude", 500), "longitude"),
    (lambda c: c["qimen"].setdefault("options", {}).__setitem__("method", "bogus"), "qimen.options.method"),
    (lambda c: c["qimen"].setdefault("options", {}).__setitem__("leap_threshold", -5), "qimen.options.leap_threshold"),
])
def test_a_typed_chart_is_read_only_when_its_moment_options_and_calendar_hold(client, typed, change, field):
    import copy
    chart = copy.deepcopy(typed)
    change(chart)
    answer = client.post("/readings", json=chart)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"].startswith(f"{field}: ") and answer.json()["field"] == field, answer.json()
    assert client.post("/readings", json=typed).status_code == 200


def test_fold_is_a_number_not_a_boolean():
    from pydantic import ValidationError

    from leishen.api.models import ChartQuery
    assert ChartQuery(fold=1).fold == 1 and ChartQuery(fold="0").fold == 0
    with pytest.raises(ValidationError, match="not a boolean"):
        ChartQuery(fold=True)


def test_a_405_off_the_api_keeps_the_allow_of_what_answered(client):
    answer = client.post("/static-offline-docs/swagger-ui.css")
    assert answer.status_code == 405 and answer.headers.get("allow")
