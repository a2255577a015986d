"""Hostile input 9 of #31: a damaged seed file. ``build`` and ``check`` refuse it; the commands that answer
from the embedded graph anyway (its citations then unchecked) warn in one stderr line naming the file."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main

ANSWERING = [
    ["stats"],
    ["symbol", "子"],
    ["facts", "--doc", "000"],
    ["path", "子", "午"],
    ["cypher", "MATCH (n:Branch) RETURN count(n) AS n"],
    ["export", "--format", "csv", "--symbol", "子", "--depth", "0"],
]


@pytest.fixture(scope="module")
def damaged(tmp_path_factory, corpus_dir):
    """A copy of the corpus whose 002 text ends in two bytes that are not UTF-8."""
    folder = tmp_path_factory.mktemp("damaged") / "seeds"
    shutil.copytree(corpus_dir, folder)
    (text,) = folder.glob("002_*.txt")
    with text.open("ab") as handle:
        handle.write(b"\xff\xfe")
    return folder, text


def _run(args, corpus):
    return CliRunner().invoke(main, args, env={"LEISHEN_CORPUS": str(corpus)})


@pytest.mark.parametrize("args", [["build"], ["check"]], ids=" ".join)
def test_build_and_check_refuse_a_damaged_text(damaged, args):
    folder, text = damaged
    result = _run(args, folder)
    assert result.exit_code == 2 and str(text) in result.stderr and "not UTF-8" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", ANSWERING, ids=" ".join)
def test_the_answering_commands_warn_in_one_line_naming_the_file(damaged, args):
    folder, text = damaged
    result = _run(args, folder)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.stderr
    assert str(text) in warnings[0] and "not UTF-8" in warnings[0] and "NOT checked" in warnings[0]
    assert result.stdout.strip()


@pytest.mark.parametrize("args", ANSWERING, ids=" ".join)
def test_a_sound_corpus_gives_no_warning(corpus_dir, args):
    result = _run(args, corpus_dir)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
