"""leishen.judgments — a reading's answer to its question: per topic a verdict with its 用神, facets, 應期
dates and cited reasons, computed from the reading's findings and the chart by the texts' own procedure
(docs/judgments.md). A judgment never re-evaluates a rule, so it is the same on every backend."""

from __future__ import annotations


def judge(reading: dict, chart: dict, reader, *, request=None) -> list[dict]:
    """The judgments of a reading: one per topic read (and one for the general reading)."""
    from leishen.judgments.judge import judge_reading
    return judge_reading(reading, chart, reader, request=request)
