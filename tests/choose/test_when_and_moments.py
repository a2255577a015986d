"""``find --when EXPR``: the moments where a condition in the rule vocabulary holds are those where
:meth:`Reader.test` says it holds, hour by hour; a bad condition is refused naming its position (CLI exit 2,
HTTP 400, MCP a tool error) and nothing is executed. ``moments --pillars``: the spans whose four pillars match,
with their solar term, and no matching hour left out; bad pillars refused naming the one at fault."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import leishen
from leishen.api import Settings, create_app
from leishen.engine.calendar import moment_facts
from leishen.engine.moment import moments, parse_moment
from leishen.service import readings as door

CLI = [sys.executable, "-m", "leishen.cli.main"]
START, END = "2026-12-01T00:00+08:00", "2026-12-04T23:00+08:00"
WHEN = "all(vigour(初傳, Vigour.旺), not(void(初傳)))"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(use_corpus=False)), raise_server_exceptions=False) as test_client:
        yield test_client


def test_when_finds_the_moments_the_condition_holds_hour_by_hour(reader):
    hits = list(door.find(reader, parse_moment(START), parse_moment(END), when=WHEN))
    held = [t for t in moments(parse_moment(START), parse_moment(END), "hour")
            if reader.test(leishen.chart(t.isoformat()), WHEN)["holds"]]
    assert [h["moment"]["local"] for h in hits] == [t.isoformat() for t in held]
    assert 0 < len(hits) < 96 and all(h["when"] == WHEN for h in hits)


def test_when_on_two_jobs_and_the_cli_give_the_same(reader):
    alone = list(door.find(reader, parse_moment(START), parse_moment(END), when=WHEN))
    assert list(door.find(reader, parse_moment(START), parse_moment(END), when=WHEN, jobs=2)) == alone
    done = run("find", "--when", WHEN, "--from", START, "--to", END)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == alone


@pytest.mark.parametrize("when, at, words", [
    ("all(pattern(Pattern.斫輪), vigour(初傳, Vigour.旺)", 3, "'(' was never closed"),
    ("eq(初傳, Branch.貓)", 7, "unknown symbol Branch.貓"),
    ("__import__('os').system('touch /tmp/leishen-when-ran')", 0, "expected a predicate call"),
    ("__import__('os')", 0, "unknown predicate '__import__'"),
    ("vigour(初傳, Vigour.旺) or 1", 0, "expected a predicate call"),
    ("vigour(初傳, Vigour.旺", 6, "never closed"),
])
def test_a_bad_condition_is_refused_naming_its_position(client, when, at, words):
    done = run("find", "--when", when, "--from", START, "--to", END)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"error: when (at {at}): " in done.stderr and words in done.stderr, done.stderr
    answer = client.get("/find", params={"when": when, "start": START, "end": END})
    assert answer.status_code == 400 and answer.json()["field"] == "when"
    assert answer.json()["error"].startswith(f"when (at {at}): ")
    assert not Path("/tmp/leishen-when-ran").exists()  # parsed, never executed


def test_when_over_http_is_the_cli_s(client, reader):
    answer = client.get("/find", params={"when": WHEN, "start": START, "end": END})
    assert answer.status_code == 200
    assert answer.json() == list(door.find(reader, parse_moment(START), parse_moment(END), when=WHEN))


def test_pillars_to_moments_match_and_leave_no_hour_out():
    done = run("moments", "--pillars", "*,*,甲子,*", "--from", "2026-01-01T00:00+08:00",
               "--to", "2026-06-30T23:00+08:00")
    assert done.returncode == 0, done.stderr
    spans = [json.loads(line) for line in done.stdout.splitlines()]
    covered = set()
    for span in spans:
        first, last = parse_moment(span["start"]), parse_moment(span["end"])
        for t in moments(first, last, "hour"):
            facts = moment_facts(t)
            assert facts.pillars.day == "甲子" and facts.term == span["solar_term"]
            covered.add(t)
    every = moments(parse_moment("2026-01-01T00:00+08:00"), parse_moment("2026-06-30T23:00+08:00"), "hour")
    assert covered == {t for t in every if moment_facts(t).pillars.day == "甲子"}
    assert len({s["start"][:10] for s in spans}) >= 3  # every sixty days


def test_four_pillars_name_their_hours(client):
    done = run("moments", "--pillars", "丙午,庚子,甲子,甲子", "--from", "2026-12-01T00:00+08:00",
               "--to", "2027-01-31T23:00+08:00")
    assert done.returncode == 0, done.stderr
    spans = [json.loads(line) for line in done.stdout.splitlines()]
    assert spans and all(s["pillars"] == {"年": "丙午", "月": "庚子", "日": "甲子", "時": "甲子"} for s in spans)
    answer = client.get("/moments", params={"pillars": "丙午,庚子,甲子,甲子", "start": "2026-12-01T00:00+08:00",
                                            "end": "2027-01-31T23:00+08:00"})
    assert answer.status_code == 200 and answer.json() == {"spans": spans, "limited": False}


@pytest.mark.parametrize("pillars, words", [("*,*,甲丑,*", "the 日 pillar '甲丑'"), ("甲子,*", "found 2"),
                                            ("*,*,*,*", "at least one pillar")])
def test_bad_pillars_are_refused_naming_the_one_at_fault(client, pillars, words):
    done = run("moments", "--pillars", pillars, "--from", START, "--to", END)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
    answer = client.get("/moments", params={"pillars": pillars, "start": START, "end": END})
    assert answer.status_code == 400 and answer.json()["field"] == "pillars" and words in answer.json()["error"]


def test_names_a_user_tries_resolve_or_list_close_names(client):
    span = ["--from", "2026-12-01T00:00+08:00", "--to", "2026-12-03T23:00+08:00"]
    done = run("find", "察微", *span)
    assert done.returncode == 2 and "察微 is a case of 涉害" in done.stderr and "close names: 涉害" in done.stderr
    assert run("find", "伏吟課", *span).stdout == run("find", "伏吟", *span).stdout != ""
    assert "close names: 斫輪" in run("find", "斫轮", *span).stderr  # the simplified form
    answer = client.get("/find", params={"rule": "vigor", "start": START, "end": END})
    assert answer.status_code == 400 and "vigour" in answer.json()["matches"]
