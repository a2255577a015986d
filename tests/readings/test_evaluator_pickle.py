"""A reader survives pickle (another part keeps a compiled reader on disk): the copy reads as the original, cold
and after readings, with its own backend or with one handed to it (``backend`` is a plain attribute)."""

from __future__ import annotations

import pickle

import pytest

from fired import random_moments
from leishen.backends import get_backend
from leishen.engine.chart import build_chart
from leishen.readings.read import Reader
from leishen.service.book import new_reader


def _key(reading: dict) -> list:
    return [(f["id"], f["path"], f["src"], f["evidence"], f["polarity"], f["certainty"]) for f in reading["findings"]]


@pytest.fixture(scope="module")
def charts():
    return [build_chart(m) for m in random_moments(24, seed=3030)]


def test_a_pickled_reader_reads_as_the_original(charts):
    original = new_reader()
    cold = pickle.loads(pickle.dumps(original))  # before any reading
    for chart in charts[:12]:
        original.read(chart, topic="*")
    warm = pickle.loads(pickle.dumps(original))  # with what the readings kept
    for chart in charts:
        for topic in ("*", None):
            expected = _key(original.read(chart, topic=topic))
            assert _key(cold.read(chart, topic=topic)) == expected
            assert _key(warm.read(chart, topic=topic)) == expected


def test_a_pickled_reader_takes_another_backend(charts):
    original = new_reader()
    state = original.__getstate__()
    copy = pickle.loads(pickle.dumps(original))
    copy.backend = get_backend("networkx")  # a fresh backend handed to the copy
    assert "_pool" not in state and state["backend"] is original.backend
    for chart in charts[:6]:
        assert _key(copy.read(chart, topic="*")) == _key(original.read(chart, topic="*"))
