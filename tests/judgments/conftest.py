"""Shared fixtures of the judgment tests: the shared NetworkX reader and a helper that judges a moment."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen import readings
from leishen.judgments import judge
from leishen.service import book


@pytest.fixture(scope="session")
def reader():
    return book.reader()


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


def moments(n: int, seed: int) -> list[str]:
    """*n* seeded random whole hours of 1980–2029 (UTC+8)."""
    rng = random.Random(seed)
    start = datetime(1980, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [(start + timedelta(hours=rng.randrange(0, 50 * 365 * 24))).isoformat() for _ in range(n)]
