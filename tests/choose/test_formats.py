"""Results people use: ``find --format csv`` rows are the JSON lines' hits; ``--format ics`` parsed back with
``icalendar`` has one event a hit, at the hit's instant on the range's own clock (an IANA zone with its
VTIMEZONE, or a fixed offset), the verdict and the judgment's summary line in its description; ``--summary``
counts each verdict (its 吉 count is the number of ``--verdict 吉`` hits); ``--topic`` twice is refused; the MCP
server takes ``when`` and gives ``moments``."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

import icalendar
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

CLI = [sys.executable, "-m", "leishen.cli.main"]
RANGE = ["--from", "2026-12-01T00:00", "--to", "2026-12-03T23:00", "--tz", "Asia/Shanghai"]
CHOOSE = ["find", "--topic", "出行", "--verdict", "吉", *RANGE]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def hits() -> list[dict]:
    done = run(*CHOOSE)
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(found) >= 2
    return found


def test_csv_rows_are_the_hits(hits):
    done = run(*CHOOSE, "--format", "csv", "--lang", "en")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["utc"] for r in rows] == [h["moment"]["utc"] for h in hits]
    assert all(r["verdict"] == "吉" and r["summary"] == h["summary"]["en"] for r, h in zip(rows, hits))
    assert all(r["src"].split()[0] == h["reasons"][0]["src"][0] for r, h in zip(rows, hits))


def test_ics_has_one_event_a_hit_on_the_range_s_zone(hits):
    done = run(*CHOOSE, "--format", "ics")
    assert done.returncode == 0, done.stderr
    cal = icalendar.Calendar.from_ical(done.stdout)
    events = list(cal.walk("VEVENT"))
    assert [t["TZID"] for t in cal.walk("VTIMEZONE")] == ["Asia/Shanghai"]
    assert len(events) == len(hits) == len({str(e["UID"]) for e in events})
    for event, hit in zip(events, hits):
        start = event.decoded("DTSTART")
        assert start == datetime.fromisoformat(hit["moment"]["utc"])
        assert start.tzinfo == ZoneInfo("Asia/Shanghai") and start.isoformat() == hit["moment"]["local"]
        assert (event.decoded("DTEND") - start).total_seconds() == 3600
        assert str(event["SUMMARY"]) == "出行 吉"
        description = str(event["DESCRIPTION"])
        assert description.startswith("吉\n") and hit["summary"]["zh"] in description


def test_ics_keeps_a_fixed_offset():
    done = run("find", "--topic", "出行", "--verdict", "吉", "--from", "2026-12-01T00:00+09:00",
               "--to", "2026-12-02T23:00+09:00", "--format", "ics")
    events = list(icalendar.Calendar.from_ical(done.stdout).walk("VEVENT"))
    assert events and all(e.decoded("DTSTART").utcoffset().total_seconds() == 9 * 3600 for e in events)


def test_summary_counts_each_verdict(hits):
    done = run("find", "--topic", "出行", "--summary", *RANGE)
    assert done.returncode == 0, done.stderr
    counted = json.loads(done.stdout)
    assert counted["moments"] == 72 and sum(counted["verdicts"].values()) == 72
    assert counted["verdicts"]["吉"] == len(hits)
    assert json.loads(run("find", "--topic", "travel", "--summary", *RANGE).stdout) == counted  # a word users type


@pytest.mark.parametrize("extra, words", [(["--topic", "疾病"], "--topic: a find reads one topic, given 2"),
                                          (["--summary"], "--summary counts every verdict"),
                                          (["--facet", "可行否=maybe"], "可行否 is never answered 'maybe'")])
def test_requests_that_cannot_run_are_refused(extra, words):
    done = run(*CHOOSE, *extra)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


async def _mcp(calls: list) -> list:
    env = {k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")}
    server = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"], env=env)
    async with Client(server, read_timeout_seconds=300) as mcp:
        return [await mcp.call_tool(name, args) for name, args in calls]


def test_mcp_find_takes_when_and_moments_gives_spans():
    when, moments, bad = asyncio.run(_mcp([
        ("find", {"when": "vigour(初傳, Vigour.旺)", "start": "2026-12-01T00:00+08:00", "end": "2026-12-01T23:00+08:00"}),
        ("moments", {"pillars": "*,*,甲子,*", "start": "2026-01-01T00:00+08:00", "end": "2026-12-31T23:00+08:00"}),
        ("find", {"when": "vigour(初傳", "start": "2026-12-01T00:00+08:00", "end": "2026-12-01T23:00+08:00"})]))
    assert not when.is_error and when.structured_content["hits"]
    assert all(h["when"] == "vigour(初傳, Vigour.旺)" for h in when.structured_content["hits"])
    assert not moments.is_error and all(s["pillars"]["日"] == "甲子" for s in moments.structured_content["spans"])
    assert bad.is_error and "when (at 6)" in bad.content[0].text
