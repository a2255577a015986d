"""A rule book survives pickle (the disk cache keeps it): a reader over the copy reads as one over the original,
cold and after readings, over any backend handed to it."""

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


def test_a_pickled_book_reads_as_the_original(charts):
    """A reader over a copy of the book (as the disk cache keeps it) reads as a reader over the book itself, cold
    and after readings."""
    original = new_reader()
    copy = Reader(original.backend, book=pickle.loads(pickle.dumps(original.book)))
    for chart in charts[:12]:
        original.read(chart, topic="*")
    for chart in charts:
        for topic in ("*", None):
            assert _key(copy.read(chart, topic=topic)) == _key(original.read(chart, topic=topic))


def test_a_book_takes_another_backend(charts):
    """The book holds no backend: a reader hands it its own (a fresh one here), and reads alike."""
    original = new_reader()
    other = Reader(get_backend("networkx"), book=original.book)
    assert "backend" not in vars(original.book)
    for chart in charts[:6]:
        assert _key(other.read(chart, topic="*")) == _key(original.read(chart, topic="*"))
