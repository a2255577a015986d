"""#40 item 5: a missing or damaged corpus is never silent — every command that shows passages or answers from
citations warns, ``check`` and ``coverage`` exit 2 — and a data table with an unknown column is refused naming
the file and the column."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from leishen.cli.main import main
from leishen.loaders import corpus as corpus_module
from leishen.loaders.schema import ontology_dir

WARNING = [
    ["stats"],
    ["symbol", "子"],
    ["facts", "--doc", "000"],
    ["path", "子", "午"],
    ["passage", "002:151"],
    ["view", "子", "--depth", "1"],
    ["read", "2026-12-01T10:00+09:00", "--json"],
]


def invoke(args, **env):
    return CliRunner().invoke(main, args, env=env)


@pytest.fixture
def no_corpus(monkeypatch):
    """A machine with no ../shared/seeds beside the checkout and no LEISHEN_CORPUS."""
    monkeypatch.delenv("LEISHEN_CORPUS", raising=False)
    monkeypatch.setattr(corpus_module, "default_corpus_dir", lambda: None)


@pytest.mark.parametrize("args", WARNING, ids=" ".join)
def test_every_command_warns_without_a_corpus(no_corpus, args):
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert "warning: no corpus folder found" in result.stderr and "passages cannot be shown" in result.stderr


@pytest.mark.parametrize("command", ["check", "coverage"])
def test_check_and_coverage_exit_2_without_a_corpus(no_corpus, command):
    result = invoke([command])
    assert result.exit_code == 2 and "no corpus folder found" in result.stderr


@pytest.fixture
def incomplete(tmp_path, corpus_dir):
    """Copies of the corpus with the 002 text deleted, and with the 003 text emptied."""
    deleted, emptied = tmp_path / "deleted", tmp_path / "emptied"
    for folder in (deleted, emptied):
        shutil.copytree(corpus_dir, folder)
    next(deleted.glob("002_*.txt")).unlink()
    (text,) = emptied.glob("003_*.txt")
    text.write_bytes(b"")
    return {"deleted": (deleted, "has no text 002"), "emptied": (emptied, f"{text.name} holds no Classical Chinese")}


@pytest.mark.parametrize("damage", ["deleted", "emptied"])
@pytest.mark.parametrize("command", ["check", "coverage"])
def test_check_and_coverage_refuse_a_deleted_or_emptied_seed(incomplete, damage, command):
    folder, says = incomplete[damage]
    result = invoke([command], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 2 and says in result.stderr, result.output


@pytest.mark.parametrize("damage", ["deleted", "emptied"])
def test_the_answering_commands_warn_on_a_deleted_or_emptied_seed(incomplete, damage):
    folder, says = incomplete[damage]
    result = invoke(["symbol", "子"], LEISHEN_CORPUS=str(folder))
    assert result.exit_code == 0 and says in result.stderr and "NOT checked" in result.stderr


@pytest.mark.parametrize("table", ["readings/ko_hanja_names.csv", "readings/ui_words.csv",
                                   "coverage/extraction_known.csv", "entities/branch.csv", "glossary/core.csv"])
def test_an_unknown_column_is_refused_naming_file_and_column(tmp_path, table):
    onto = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), onto, ignore=shutil.ignore_patterns("__pycache__"))
    path = onto / table
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0] + ",colour", *(line + ",red" for line in lines[1:])]) + "\n",
                    encoding="utf-8")
    result = invoke(["stats"], LEISHEN_ONTOLOGY=str(onto), LEISHEN_NO_CACHE="1")
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    assert table in first and "colour" in first and "unknown column" in first, first
