"""擇時 — choosing a time: the moments of a range whose judgment for a topic has the asked verdict (and facet
answers), each with the reasons that decide it. The range is judged in chunks of moments, in order; ``jobs`` > 1
splits the chunks into that many runs of consecutive chunks, each judged by one process forked from this one
once the reader and the judgment tables are made (a worker done with its run takes chunks from the end of the
run with the most left: judgments/workers.py), while this process only gathers the chunks' hits in order."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Iterator

from leishen.engine.chart import ChartRequest, build_chart
from leishen.errors import LeishenError
from leishen.judgments.prepared import topic_facts
from leishen.judgments.procedure import DEFAULT_OPTIONS, judge_topic
from leishen.judgments.tables import facet_table
from leishen.judgments.workers import judged_in_order

VERDICTS = ("吉", "凶", "混", "平", "未定")
#: moments per chunk a worker process sends back at once: four days of hours (:func:`chunked`); the progress and
#: the deadline are read between chunks
POOL_CHUNK = 96
HOUR = timedelta(hours=1)
_WORK: dict = {}  # what a forked worker reads: the reader, the request and the filter (set before the fork)


class ChooseError(LeishenError):
    """A 擇時 request that cannot run (``field`` names the part at fault)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def parse_facets(items) -> dict[str, str]:
    """``F=VALUE`` items → {facet: value}; ChooseError naming a bad one."""
    out = {}
    for item in items or ():
        facet, sep, value = str(item).partition("=")
        if not sep or not facet.strip() or not value.strip():
            raise ChooseError(f"facet: expected FACET=VALUE, found {item!r}", "facet")
        out[facet.strip()] = value.strip()
    return out


def check_request(reader, topic: str, verdict: str | None, facets: dict) -> str:
    """The topic id asked; ChooseError for an unknown verdict or a facet the topic does not have."""
    topic_id = reader.topic_id(topic)
    if topic_id is None or topic_id == "*":
        raise ChooseError("topic: choosing a time needs one topic", "topic")
    if verdict is not None and verdict not in VERDICTS:
        raise ChooseError(f"verdict: {verdict!r} is not one of {', '.join(VERDICTS)}", "verdict")
    known = {f.name for f in facet_table().get(topic_id, ())}
    for name in facets:
        if name not in known:
            raise ChooseError(f"facet: {reader.props[topic_id]['name']} has no facet {name!r}; its facets: "
                              f"{', '.join(sorted(known)) or 'none'}", "facet")
    return topic_id


def topic_systems(reader, topic_id: str) -> tuple[str, ...]:
    """The systems whose rules a reading of the topic (or a topic it is a case of) reads."""
    scope = reader.topic_scope(topic_id)
    facts = {f.id for f in topic_facts(reader).facts.values() if f.qualifier_dict().get("topic") in scope}
    return reader.systems_of(facts)


def holds(judgment: dict, verdict: str | None, facets: dict) -> bool:
    """Whether a judgment has the verdict and every facet answer asked."""
    if verdict is not None and judgment["verdict"] != verdict:
        return False
    answers = {f["facet"]: {a["value"] for a in f["answer"]} for f in judgment["facets"] if f["status"] == "decided"}
    return all(value in answers.get(name, ()) for name, value in facets.items())


def _hit(chart: dict, judgment: dict) -> dict:
    """What a chosen moment shows: its verdict (and the facet that decides it), the decided facet answers and
    the reasons, those that decide the verdict facet first."""
    by = (judgment.get("verdict_by") or {}).get("facet")
    deciding = next((f["findings"] for f in judgment["facets"] if f["facet"] == by), [])
    order = {fid: k for k, fid in enumerate(deciding)}
    reasons = sorted(judgment["reasons"], key=lambda r: order.get(r["finding"], len(order)))  # stable: text order
    return {"moment": chart["moment"], "verdict": judgment["verdict"], "verdict_by": by,
            "facets": {f["facet"]: [a["value"] for a in f["answer"]] for f in judgment["facets"]
                       if f["status"] == "decided"},
            "reasons": [{"finding": r["finding"], "meaning": r["meaning"], "polarity": r["polarity"], "src": r["src"]}
                        for r in reasons[:8]]}


def _judged(moments_: list[datetime]) -> list[dict]:
    """The chosen moments among these (run in this process or a forked worker)."""
    reader, request, topic_id, verdict, facets = (_WORK[k] for k in ("reader", "request", "topic", "verdict", "facets"))
    name = reader.props[topic_id]["name"]
    out, last_parts, last = [], None, None
    for t in moments_:
        chart = build_chart(t, request)
        parts = [chart.get(s) for s in request.systems]
        if parts != last_parts:  # the two hours of one double hour often give the same chart: judge it once
            reading = reader.read(chart, topic=name, lore=False, trail=False)
            judgment = judge_topic(topic_id, reading, chart, reader, DEFAULT_OPTIONS)
            last_parts, last = parts, judgment if holds(judgment, verdict, facets) else None
        if last is not None:
            out.append(_hit(chart, last))
    return out


def chunked(every: list[datetime], size: int) -> list[list[datetime]]:
    """The moments in chunks of *size* (one more where a cut would fall before an even hour): each chunk starts
    on an odd hour when it can, so that the two hours of a double hour (子 23:00–00:59, 丑 01:00–02:59 …), whose
    chart :func:`_judged` judges once, stay in one chunk."""
    out, start = [], 0
    while start < len(every):
        end = min(start + size, len(every))
        if end < len(every) and every[end].hour % 2 == 0 and every[end] - every[end - 1] == HOUR:
            end += 1
        out.append(every[start:end])
        start = end
    return out


def choose(reader, topic: str, start: datetime, end: datetime, *, verdict: str | None = None,
           facets: dict | None = None, step: str = "hour", request: ChartRequest = ChartRequest(),
           jobs: int = 1) -> Iterator[dict]:
    """The moments from *start* to *end* (every *step*) whose judgment for *topic* has *verdict* and the facet
    answers asked, in order; *jobs* processes share the range."""
    for _, _, found in chosen_chunks(reader, topic, start, end, verdict=verdict, facets=facets, step=step,
                                     request=request, jobs=jobs):
        yield from found


def chosen_chunks(reader, topic: str, start: datetime, end: datetime, *, verdict: str | None = None,
                  facets: dict | None = None, step: str = "hour", request: ChartRequest = ChartRequest(),
                  jobs: int = 1, size: int = POOL_CHUNK) -> Iterator[tuple[datetime, int, list[dict]]]:
    """(its last moment, how many moments it held, the moments chosen among them) of each chunk of *size*
    moments from *start* to *end*, in order (:func:`choose`): judged here one by one when *jobs* is 1 (each when
    it is asked for, so a caller can stop between chunks), else by *jobs* forked processes
    (:func:`leishen.judgments.workers.judged_in_order`)."""
    from leishen.engine.moment import moments
    facets = facets or {}
    topic_id = check_request(reader, topic, verdict, facets)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ChooseError(f"jobs: expected a whole number ≥ 1, found {jobs!r}", "jobs")
    if request.systems == ChartRequest().systems:  # chart only the systems the topic's rules read
        request = replace(request, systems=topic_systems(reader, topic_id))
    _WORK.update(reader=reader, request=request, topic=topic_id, verdict=verdict, facets=facets)
    every = list(moments(start, end, step))
    chunks = chunked(every, size)
    if jobs == 1 or len(chunks) < 2:
        for chunk in chunks:
            yield chunk[-1], len(chunk), _judged(chunk)
        return
    for chunk, found in zip(chunks, judged_in_order(_judged, chunks, jobs)):
        yield chunk[-1], len(chunk), found
