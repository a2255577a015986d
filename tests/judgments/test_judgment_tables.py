"""The tables a judgment makes once per reader (judgments/prepared.py) give what the per-finding lookups they
replace give. (擇時's executors: tests/choose/.)"""

from __future__ import annotations

import pytest

import leishen
from leishen.judgments.prepared import best_answers, topic_facts
from leishen.readings.topics import TopicError

MOMENTS = ("2026-12-01T10:00+08:00", "1984-12-29T12:00+08:00", "2023-08-29T10:00+08:00", "1961-05-04T03:00+08:00")


@pytest.fixture(scope="module")
def findings(reader):
    """The findings of every topic's reading (and the general reading's) on a few moments."""
    out = []
    for moment in MOMENTS:
        out += reader.read(leishen.chart(moment), topic="*")["findings"]
    return out


def test_answer_index_agrees_with_each_facets_own_lookup(reader, findings):
    """For every topic and every finding, the index gives each facet of the finding's system the answer the
    facet's own answer_for gives, and no answer to a facet answer_for gives none."""
    index, props = topic_facts(reader), reader.props
    answered = 0
    for table in index.tables.values():
        for f in findings:
            hits = best_answers(table.answers_in(f["system"]), f, index.info, props)
            i = index.info.get(f["rule"]["fact"])
            meaning = (f.get("meaning") or {}).get("id")
            for n, facet in enumerate(table.facets):
                if facet.system and facet.system != f["system"]:
                    assert n not in hits
                    continue
                own = facet.answer_for(meaning, props.get(meaning, {}).get("label"),
                                       i.category if i is not None else None, f.get("polarity"))
                assert (hits[n][1] if n in hits else None) == own, (table.topic, facet.name, f["id"])
                answered += own is not None
    assert answered > 100  # the sample reaches the answers (node, label, category and polarity ones)


def test_topic_names_map_as_the_reader_does(reader):
    index = topic_facts(reader)
    for t in reader.topics():
        for name in (t["zh"], t["en"], t["id"]):
            assert index.topic_id(reader, name) == reader.topic_id(name)
    with pytest.raises(TopicError, match="unknown topic"):
        index.topic_id(reader, "no such topic")


def test_topic_tables_hold_every_topics_scope(reader):
    """A topic's table weighs its scope's findings, but not those of the topics read beside it (named only)."""
    index = topic_facts(reader)
    assert index.table(None).names == {None}
    for topic_id in reader.topic_ids:
        table = index.table(topic_id)
        assert table.names | table.beside == {reader.props[t]["name"] for t in reader.topic_scope(topic_id)}
        assert not table.names & table.beside
    assert index.table(reader.topic_id("家宅")).beside == {"宮室"}
    assert index.table(reader.topic_id("疾病")).beside == {"臟腑"}
