"""Shared fixtures of the judgment tests: the shared NetworkX reader and a helper that judges a moment."""

from __future__ import annotations

import pytest

import leishen
from leishen import readings
from leishen.judgments import judge


@pytest.fixture(scope="session")
def reader():
    return readings.reader()


@pytest.fixture(scope="session")
def judged(reader):
    """judged(moment, topic) → (reading, {topic zh or None: judgment})."""
    def run(moment: str, topic: str | None = None, **options):
        chart = leishen.chart(moment)
        reading = reader.read(chart, topic=topic)
        return reading, {j["topic"]: j for j in judge(reading, chart, reader, **options)}
    return run


def facet(judgment: dict, name: str) -> dict:
    """A judgment's facet by name."""
    return next(f for f in judgment["facets"] if f["facet"] == name)


def values(judgment: dict, name: str) -> set:
    """The decided answers of a facet."""
    return {a["value"] for a in facet(judgment, name)["answer"]}
