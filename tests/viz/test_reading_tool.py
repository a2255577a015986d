"""The reading page as a tool (issue #39), read back from its HTML: at most 150 nodes drawn first and the rest
held for the tool, labels and controls in the asked language, no internal code in anything it shows or hovers."""

from __future__ import annotations

import re

import pytest

from leishen.loaders.corpus import default_corpus_dir
from leishen.service import readings as door
from leishen.service.requests import ReadingQuery
from leishen.viz import reading_page
from leishen.viz.readingtool import FIRST_MAX
from pagedata import datasets, first_datasets, reading_node_ids

INTERNAL = re.compile(r"\bJ\d+\b|\b\d{3}-S\d|inventory (?:meta )?row|issue #\d+", re.I)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture(scope="module", params=["射覆", "天時", "疾病"])
def reading(request):
    query = ReadingQuery(moment="2026-12-01T09:00", tz="Asia/Shanghai", topic=request.param)
    return door.reader_for().read(query.chart(), topic=request.param)


def test_first_drawn_at_most_150_and_the_rest_held(reading):
    page = reading_page(reading, lang="ko")
    first, _ = first_datasets(page)
    every, edges = datasets(page)
    assert len(first) <= FIRST_MAX < len(every) and {n["id"] for n in every} == reading_node_ids(reading)
    assert len({n["id"] for n in every}) == len(every)  # each node once, drawn first or held
    asked = {n["id"] for n in first if reading["topic"] in n["topics"]}
    assert asked and all(n["systems"] for n in every if n["id"].startswith("finding:"))
    assert all(e["rel"] for e in edges)


def test_labels_and_controls_in_the_asked_language_and_no_internal_code(reading):
    for lang in ("ko", "en"):
        page = reading_page(reading, corpus=default_corpus_dir(), lang=lang)
        body = page[page.find("<body"):]
        assert not INTERNAL.findall(body), INTERNAL.findall(body)[:3]
        branches = [n for n in datasets(page)[0] if n["id"].startswith("Branch:")]
        assert branches and all(n["label"] == n["names"][lang] for n in branches)
        assert f'<html lang="{lang}">' in page
    assert HANGUL.search(page[page.find('id="leishen-tool"'):][:400]) is None  # the en page's controls
    ko = reading_page(reading, lang="ko")
    assert HANGUL.search(ko[ko.find('id="leishen-tool"'):][:400])
