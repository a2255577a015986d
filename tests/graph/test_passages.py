"""Passages: shown from the user's corpus with every fact that cites them; never copied into the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from leishen.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def test_passage_shows_text_and_citing_facts(corpus_dir):
    result = CliRunner().invoke(main, ["passage", "000:51", "--corpus", str(corpus_dir), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["src"] == "000:51" and out["text"].startswith("刑")
    relations = {f["relation"] for f in out["facts"]}
    assert {"PUNISHES", "CLASHES", "SIGNIFIES"} <= relations


def test_passage_of_a_translation_line_is_refused(corpus_dir):
    result = CliRunner().invoke(main, ["passage", "002:57", "--corpus", str(corpus_dir)])
    assert result.exit_code == 2 and "not a Classical Chinese paragraph" in result.output


def test_every_passage_node_is_cited_and_every_text_has_facts(nx_backend):
    g = nx_backend.graph
    passages = [n for n, a in g.nodes(data=True) if a["label"] == "Passage"]
    assert all(g.in_degree(p) > 0 for p in passages)
    seed = [p for p in passages if not g.nodes[p].get("standard")]  # the standard tables cite works outside the seeds
    assert {g.nodes[p]["doc"] for p in seed} == {"000", "002", "003", "004"}
    assert {g.nodes[p]["doc"] for p in passages if p not in seed} == {"XJBF", "XKKY", "SMTH"}


def test_no_sentence_of_the_texts_is_in_the_repository(corpus_dir):
    tool = corpus_dir.parent / "tools" / "copied-text-check.py"
    if not tool.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the shared copied-text checker {tool} is required in CI")
        pytest.skip("the shared copied-text checker is not beside the corpus")
    out = subprocess.run([sys.executable, str(tool), str(REPO)], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "", out
