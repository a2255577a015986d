"""Every fact's src names a real passage that contains the fact's Chinese terms."""

from __future__ import annotations

import pytest

from leishen.errors import CitationError
from leishen.loaders.build import check_citations, read_registry
from leishen.loaders.corpus import load_corpus, parse_citation


def test_every_citation_holds(corpus_dir):
    registry, facts = read_registry()
    checked, errors = check_citations(registry, facts, load_corpus(corpus_dir))
    assert errors == []
    seed = [f for f in facts if not all(c.standard for c in f.src)]  # facts/std/ cites works outside the seeds
    assert checked == len(seed) > 500 and len(facts) - len(seed) == 120


def test_every_fact_has_a_src(corpus_dir):
    _, facts = read_registry()
    assert all(f.src for f in facts)


@pytest.mark.parametrize("bad", ["0:1", "000", "000:x", "001:3", "000:-1", ""])
def test_malformed_src_is_refused(bad):
    with pytest.raises(CitationError, match="src must look like"):
        parse_citation(bad)


def test_a_line_that_is_not_a_chinese_paragraph_is_refused(corpus_dir):
    corpus = load_corpus(corpus_dir)
    with pytest.raises(CitationError, match="not a Classical Chinese paragraph"):
        corpus.passage(parse_citation("000:5"))  # the Korean translation of 000:3


def test_glossary_has_one_reading_per_node():
    registry, _ = read_registry()
    conflicts = [key for key, g in registry.glossary.items() if g.get("others")]
    assert conflicts == []
