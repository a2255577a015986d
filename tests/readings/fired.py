"""What the audit tests ask of a reading: the rule facts a reading of a moment finds (a moment may carry the
asker's birth year, ``moment@year``), and random moments to read."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from leishen.engine.chart import ChartRequest, build_chart
from leishen.service.book import reader


def chart_of(moment: str) -> dict:
    """The chart of an ISO moment, with a birth year after ``@`` (a man's, for 本命 and 行年)."""
    when, _, year = moment.partition("@")
    request = ChartRequest(birth_year=int(year), sex="male") if year else ChartRequest()
    return build_chart(datetime.fromisoformat(when), request)


def findings(moment: str, topic: str | None, r=None) -> dict[str, str]:
    """rule fact → the certainty of its finding, in a reading of *moment* under *topic* (the shared reader,
    or *r*)."""
    reading = (r or reader()).read(chart_of(moment), topic=topic)
    return {f["rule"]["fact"]: f["certainty"] for f in reading["findings"]}


def random_moments(n: int, seed: int) -> list[datetime]:
    """*n* random UTC minutes of 1920–2079."""
    rng = random.Random(seed)
    start = datetime(1920, 1, 1, tzinfo=timezone.utc)
    return [start + timedelta(minutes=rng.randrange(160 * 365 * 24 * 60)) for _ in range(n)]


def assert_mended(rule: str, topic: str | None, holds: str, fails: str, why: str) -> None:
    """A mended rule fires at *holds* and not at *fails* (moments as :func:`chart_of` takes them)."""
    assert rule in findings(holds, topic), why
    assert rule not in findings(fails, topic), why
