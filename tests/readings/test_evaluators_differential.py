"""Each evaluator against the plain one (issue #30): read under every topic, the recalled evaluator (the
default reader: outcomes recalled, answers kept) on 3,000 random charts and the batched one (nothing kept, the
checks of a reading asked in one call, as on a server; about three times slower) on the first 1,500 of them give
the findings the plain evaluator gives — each finding's id, path, src, polarity and certainty, in order.
tests/neo4j/test_readings_conformance.py holds the batched evaluator on Neo4j to the NetworkX readings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from leishen.engine.chart import ChartRequest, build_chart
from leishen.readings.read import Reader

sys.path.insert(0, str(Path(__file__).parent))
from snapshot import digest, moments  # noqa: E402
from leishen.service.book import new_reader

CHARTS = 3000
SAMPLE = {"recalled": CHARTS, "batched": 1500}  # charts compared, per evaluator


@pytest.fixture(scope="module")
def charts():
    """3,000 random charts of 1920–2079 (every third with an asker's birth year), one seed."""
    out = []
    for moment, year in moments(CHARTS, 3030):
        request = ChartRequest(birth_year=year, sex="male") if year else ChartRequest()
        out.append((moment, build_chart(moment, request)))
    return out


@pytest.fixture(scope="module")
def plain_digests(charts):
    """The plain evaluator's readings (the reference): every rule evaluated, nothing recalled."""
    plain = new_reader(recall=False)
    assert plain.evaluator_now() is plain.evaluators["plain"]
    return [digest(plain.read(chart, topic="*")) for _, chart in charts]


@pytest.mark.parametrize("kind", ["recalled", "batched"])
def test_an_evaluator_reads_as_the_plain_one(kind, charts, plain_digests):
    reader = new_reader() if kind == "recalled" else new_reader(cache=False)
    assert reader.evaluator_now() is reader.evaluators[kind]
    count = SAMPLE[kind]
    differ = [moment.isoformat() for (moment, chart), want in zip(charts[:count], plain_digests)
              if digest(reader.read(chart, topic="*")) != want]
    assert differ == [], f"{len(differ)} of {count} readings differ from the plain evaluator's, first {differ[:3]}"
    assert len({d[0] for d in plain_digests}) > CHARTS * 0.9  # the charts are read differently: a real sample
