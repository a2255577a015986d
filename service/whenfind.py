"""``find --when EXPR``: the moments of a range where a condition written in the rule vocabulary (docs/rules.md)
holds. The condition is parsed and checked by the rules' own parser (:func:`leishen.loaders.conditions.
parse_condition`: Python's :mod:`ast`, never executed) before the scan — a bad one is refused naming its position —
and tested on each chart by :meth:`leishen.readings.Reader.test`, the patterns decided first as a reading decides
them. The task is judged like 擇時's, in blocks, here or on an executor (:mod:`leishen.service.findwork`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from leishen.engine.chart import ChartRequest, build_chart
from leishen.errors import FindError

MAX_WHEN = 2000  # characters a condition may have


@dataclass(frozen=True)
class WhenTask:
    """A checked condition (*when*, read as *system* first) with the topic ``topic(T)`` tests and the charting."""

    when: str
    system: str
    topic: str | None
    request: ChartRequest

    def judged(self, reader, moments: list[datetime]) -> list[dict]:
        """``{"moment", "when", "system", "where"}`` for each of *moments* where the condition holds."""
        out, last_parts, last = [], None, None
        for t in moments:
            chart = build_chart(t, self.request)
            parts = [chart.get(s) for s in self.request.systems]
            if parts != last_parts:  # the two hours of one double hour often give the same chart: test it once
                last_parts, last = parts, reader.test(chart, self.when, topic=self.topic, system=self.system)
            if last["holds"]:
                out.append({"moment": chart["moment"], "when": self.when, "system": last["system"],
                            "where": last["where"]})
        return out


def check_when(reader, when: str) -> str:
    """The system a condition is read in; FindError naming ``when`` and the position of the fault (characters
    from the start) for a condition the rules' parser refuses."""
    from leishen.loaders.conditions import ConditionError, parse_condition
    if not isinstance(when, str) or not when.strip():
        raise FindError("when: give a condition in the rule vocabulary, e.g. pattern(Pattern.斫輪)", "when")
    if len(when) > MAX_WHEN:
        raise FindError(f"when: the condition has {len(when)} characters; at most {MAX_WHEN}", "when")
    try:
        _, system = parse_condition(when, schema=reader.data_schema, index=reader.lex.index, vocab=reader.vocab)
    except ConditionError as exc:
        lead = len(when) - len(when.lstrip())
        raise FindError(f"when (at {exc.offset + lead}): {exc} — in {when.strip()!r} (see docs/rules.md)",
                        "when") from None
    return system


def when_task(reader, when: str, topic: str | None = None, request: ChartRequest = ChartRequest()) -> WhenTask:
    """The checked :class:`WhenTask` of a condition (FindError naming ``when`` or ``topic``)."""
    system = check_when(reader, when)
    if topic is not None and reader.topic_id(topic) is None:
        raise FindError(f"topic: unknown topic {topic!r} (see `leishen topics`)", "topic")
    return WhenTask(when.strip(), system, topic, request)
