"""An error never repeats a large input whole: a 1 MB moment gave a 1 MB error line in ``chart --batch`` (and in
every other door that echoes the value). Now every LeishenError message is capped (leishen.errors.capped):
the field, the head and tail of the value, how much was left out, and the hint stay."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from leishen.errors import MAX_MESSAGE, ChartError, LeishenError, MomentError, capped

BIG = "x" * 1_000_000


def test_a_1mb_moment_in_a_batch_gives_a_short_error_line(tmp_path):
    from leishen.cli.main import main

    path = tmp_path / "moments.jsonl"
    path.write_text(json.dumps({"moment": BIG}) + "\n" + json.dumps({"moment": "2024-06-12T18:30+08:00"}) + "\n")
    result = CliRunner().invoke(main, ["chart", "--batch", str(path), "--json"])
    assert result.exit_code == 2
    first = json.loads(result.stdout.splitlines()[0])
    assert first["line"] == 1 and len(first["error"]) < 400, len(first["error"])
    assert "moment: 'xxx" in first["error"] and "999,8" in first["error"] and "characters left out" in first["error"]
    assert first["error"].endswith("is not an ISO 8601 date-time such as 1952-12-26T19:17:00+08:00")
    assert "pillars" in json.loads(result.stdout.splitlines()[1])  # the batch goes on


def test_a_1mb_moment_over_http_gives_a_short_error():
    from fastapi.testclient import TestClient

    import leishen
    from leishen.api import Settings, create_app

    typed = json.loads(json.dumps(leishen.chart("2024-06-12T18:30+08:00"), ensure_ascii=False))
    typed["moment"] = {"local": BIG}
    with TestClient(create_app(Settings(use_corpus=False, max_body=2_000_000)), raise_server_exceptions=False) as client:
        answer = client.post("/readings", json=typed)
    assert answer.status_code == 422, answer.text[:300]
    assert len(answer.text) < 1_000 and answer.json()["field"] == "moment.local", answer.text[:1_000]


def test_the_read_cli_caps_a_huge_typed_moment(tmp_path):
    from leishen.cli.main import main

    path = tmp_path / "chart.json"
    import leishen

    typed = json.loads(json.dumps(leishen.chart("2024-06-12T18:30+08:00"), ensure_ascii=False))
    typed["moment"] = "1" * 500_000
    path.write_text(json.dumps(typed, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["read", "--chart", str(path)])
    assert result.exit_code == 2
    assert len(result.stderr) < MAX_MESSAGE + 100 and result.stderr.count("\n") == 1, len(result.stderr)


@pytest.mark.parametrize("kind", [LeishenError, ChartError, MomentError])
def test_every_leishen_error_is_capped(kind):
    message = str(kind("field: " + "y " * 200_000 + "is wrong; do this"))
    assert len(message) <= MAX_MESSAGE + 40
    assert message.startswith("field: y y") and message.endswith("is wrong; do this")


def test_short_messages_are_unchanged():
    text = "pillars.year: '癸卯' contradicts moment 2024-06-12T18:30:00+08:00 (its year pillar is 甲辰)"
    assert capped(text) == text and str(ChartError(text)) == text
    known = "known: " + ", ".join(f"query_{i}" for i in range(60))  # a long list of short names stays whole
    assert len(known) < MAX_MESSAGE and capped(known) == known


def test_a_report_of_many_errors_keeps_each_line():
    """raise_errors (loaders/tables.py) puts up to 50 errors in one message, one a line: none is lost."""
    report = "\n".join(f"facts/000/x.csv row {i}, column object: 'y' is not a known symbol (known: a b c)"
                       for i in range(53))
    assert capped(report) == report and len(report) > MAX_MESSAGE
    lines = capped("\n".join(["z " * 2_000] * 500)).split("\n")
    assert len(lines) == 100 and lines[-1] == "…[401 more lines left out]"
    assert all(len(line) <= MAX_MESSAGE + 40 for line in lines)
