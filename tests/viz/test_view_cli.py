"""``leishen view`` as a user runs it: files written, JSON, errors with exit code 2."""

from __future__ import annotations

import json

from click.testing import CliRunner
from pagedata import REMOTE, node_ids

from leishen.cli.main import main


def run(*args):
    return CliRunner().invoke(main, ["view", *args])


def test_view_symbol_writes_an_offline_page(tmp_path, nx_backend):
    out = tmp_path / "zi.html"
    result = run("子", "-o", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert REMOTE.search(page) is None and "Branch:zi" in node_ids(page)
    assert result.output.strip() == f"wrote {out} ({len(node_ids(page))} nodes)"


def test_view_facts_and_depth(tmp_path):
    result = run("天空", "--facts", "--depth", "2", "--json", "-o", str(tmp_path / "p.html"))
    assert result.exit_code == 0, result.output
    ids = node_ids((tmp_path / "p.html").read_text(encoding="utf-8"))
    assert json.loads(result.output)["nodes"] == len(ids)
    assert any(i.startswith("Fact:") for i in ids) and any(i.startswith("Passage:") for i in ids)


def test_view_schema_to_stdout():
    result = run("--schema")
    assert result.exit_code == 0
    assert result.output.startswith("<!DOCTYPE html>") and "label:Branch" in node_ids(result.output)


def test_view_errors_exit_2(tmp_path):
    cases = [(["no-such-symbol-xyz"], "unknown symbol"), ([], "give exactly one of"),
             (["子", "--schema"], "give exactly one of"), (["子", "--topic", "射覆"], "go with --reading"),
             (["子", "-o", str(tmp_path / "missing" / "x.html")], "cannot be written"),
             (["子", "--depth", "9"], "--depth")]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_view_reading_of_a_moment(tmp_path):
    from leishen.engine.calendar import parse_moment
    from leishen.engine.chart import build_chart
    from leishen.service.book import read
    from pagedata import reading_node_ids
    out = tmp_path / "reading.html"
    result = run("--reading", "2026-12-01T09:00", "--tz", "Asia/Shanghai", "-o", str(out))
    assert result.exit_code == 0, result.output
    expected = reading_node_ids(read(build_chart(parse_moment("2026-12-01T09:00", "Asia/Shanghai"))))
    assert node_ids(out.read_text(encoding="utf-8")) == expected


def test_view_reading_bad_moment_exits_2():
    result = run("--reading", "2026-12-01T09:00")
    assert result.exit_code == 2 and "no UTC offset" in result.output
