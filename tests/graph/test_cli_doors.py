"""The CLI as a user meets it: one-line usage errors, lookups by id and English, listings that fit
the terminal, relation-type filters, cited paths, the extraction check's exit code, and the
warning when no corpus could check the citations (issue #11, "Lookups and CLI")."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.cli.options import table
from leishen.loaders import corpus as corpus_module
from leishen.loaders.schema import ontology_dir


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("args", [
    ["symbol", "子", "--bogus"], ["sym"], ["symbol"], ["symbol", "子", "--lang", "xx"],
    ["neo4j", "bogus"], ["path", "子"], ["facts", "--doc", "009"], ["chart", "--bogus-option"],
])
def test_every_usage_error_is_one_line_and_exit_2(args):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: leishen"), result.stderr
    assert result.stdout == ""


def test_help_and_version_still_exit_0():
    assert run("--version").exit_code == 0
    helped = run("symbol", "--help")
    assert helped.exit_code == 0 and "Usage: leishen symbol" in helped.stdout


def test_symbol_accepts_the_ids_it_prints():
    out = run_json("symbol", "General:liu_he")
    assert [m["node"]["id"] for m in out["matches"]] == ["General:liu_he"]
    assert [m["node"]["id"] for m in run_json("symbol", "Branch:zi")["matches"]] == ["Branch:zi"]


@pytest.mark.parametrize("text,ids", [
    ("White Tiger", {"General:bai_hu", "Deity:bai_hu"}),
    ("the White Tiger", {"General:bai_hu", "Deity:bai_hu"}),
    ("Noble", {"General:gui_ren"}),
    ("  noble ", {"General:gui_ren"}),
])
def test_english_lookups_do_not_depend_on_the_article(text, ids):
    found = {m["node"]["id"] for m in run_json("symbol", text)["matches"]}
    assert ids <= found


def test_self_loops_come_last_once():
    (match,) = run_json("symbol", "Branch:zi")["matches"]
    rels = match["relations"]
    loops = [r for r in rels if r["other"]["id"] == "Branch:zi" and r["direction"] != "qualifier"]
    assert loops and all(r["direction"] == "self" for r in loops)
    assert rels[-len(loops):] == loops
    assert len({r["fact"] for r in loops}) == len(loops)
    text = run("symbol", "子").stdout.splitlines()
    assert "ALIAS_OF" not in text[3]  # the first row of the listing is a real relation


def test_symbol_type_filter():
    (match,) = run_json("symbol", "Branch:zi", "--type", "CLASHES", "--type", "combines")["matches"]
    assert match["relations"] and {r["type"] for r in match["relations"]} <= {"CLASHES", "COMBINES"}
    bad = run("symbol", "子", "--type", "NOPE")
    assert bad.exit_code == 2 and "unknown relation type(s) NOPE" in bad.stderr


def test_tables_fit_the_terminal_width():
    result = run("symbol", "子", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert max(len(line) for line in result.stdout.splitlines() if line.startswith(("in ", "out ", "dir"))) <= 80
    assert "…" in result.stdout
    wide = table([["一二三四五六七八九十" * 4, "x" * 60]], ["a", "b"], limit=50)
    assert all(sum(2 if ord(c) > 0x2E80 else 1 for c in line) <= 50 for line in wide.splitlines())
    assert table([["x" * 60]], ["a"], limit=None).endswith("x" * 60)


def test_path_shows_the_citations_of_every_hop():
    out = run_json("path", "子", "午")
    (hop,) = out["hops"]
    clash = next(r for r in hop["relations"] if r["type"] == "CLASHES")
    assert clash["src"] == ["000:51"]
    shown = run("path", "子", "午", env={"COLUMNS": "200"}).stdout
    assert "000:51" in shown and "CLASHES" in shown


def test_path_type_filter():
    assert run_json("path", "子", "未")["length"] == 1  # 子未 害, directly
    out = run_json("path", "子", "未", "--type", "CLASHES", "--type", "COMBINES")
    assert out["length"] == 2 and set(out["path"]["types"]) == {"CLASHES", "COMBINES"}
    assert [n["name"] for n in out["path"]["nodes"]][0] == "子"
    assert all(r["type"] in ("CLASHES", "COMBINES") for h in out["hops"] for r in h["relations"])
    assert all(h["relations"] and all(r["src"] for r in h["relations"]) for h in out["hops"])
    none = run_json("path", "子", "午", "--type", "COMBINES")
    assert none["path"] is None and none["length"] is None
    assert "no path between 子 and 午 using only COMBINES" in run("path", "子", "午", "--type", "COMBINES").stdout


def test_build_without_a_corpus_says_the_citations_went_unchecked(monkeypatch):
    monkeypatch.setattr(corpus_module, "default_corpus_dir", lambda: None)
    monkeypatch.delenv("LEISHEN_CORPUS", raising=False)
    result = run("build", "--json")
    assert result.exit_code == 0
    assert "citations were NOT checked" in result.stderr
    assert json.loads(result.stdout)["citations"] == {"checked": False, "corpus": None}


def test_build_with_a_corpus_says_nothing_on_stderr(corpus_dir):
    result = run("build", "--json", "--corpus", str(corpus_dir))
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout)["citations"]["checked"] is True


def test_check_extract_names_the_known_differences(corpus_dir):
    result = run("check", "--extract", "--corpus", str(corpus_dir))
    assert result.exit_code == 0, result.output
    assert "(known)" in result.stdout and "0 new" in result.stdout
    out = run_json("check", "--extract", "--corpus", str(corpus_dir))
    assert out["extraction_unknown"] == [] and all(k["reason"] for k in out["extraction_known"])


def test_check_extract_exits_1_on_a_new_difference(tmp_path, corpus_dir):
    copy = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    table_file = copy / "facts" / "000" / "changsheng.csv"
    lines = table_file.read_text(encoding="utf-8").splitlines(keepends=True)
    table_file.write_text("".join(lines[:1] + lines[2:]), encoding="utf-8")  # drop 甲 長生 亥
    result = run("check", "--extract", "--corpus", str(corpus_dir), env={"LEISHEN_ONTOLOGY": str(copy)})
    assert result.exit_code == 1, result.output
    assert "(NEW)" in result.stdout and "長生" in result.stdout
