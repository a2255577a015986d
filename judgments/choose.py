"""擇時 — choosing a time: the moments of a range whose judgment for a topic has the asked verdict and facet answers,
each with its deciding reasons; the request a checked :class:`Choice`, spread by :mod:`leishen.service.findwork`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Iterator

from leishen.engine.chart import ChartRequest, build_chart
from leishen.errors import FindError
from leishen.judgments.prepared import topic_facts
from leishen.judgments.procedure import DEFAULT_OPTIONS, judge_topic
from leishen.judgments.tables import facet_table
from leishen.loaders.conditions import POLARITIES

VERDICTS = ("吉", "凶", "混", "平", "未定")


class ChooseError(FindError):
    """A 擇時 request that cannot run (``field`` names the part at fault)."""


def parse_facets(items) -> dict[str, str]:
    """``F=VALUE`` items → {facet: value}; ChooseError naming a bad one."""
    out = {}
    for item in items or ():
        facet, sep, value = str(item).partition("=")
        if not sep or not facet.strip() or not value.strip():
            raise ChooseError(f"facet: expected FACET=VALUE, found {item!r}", "facet")
        out[facet.strip()] = value.strip()
    return out


def _hit(judgment: dict) -> dict:
    """A chosen moment's verdict (and deciding facet), decided facet answers, summary and reasons (deciding first)."""
    by = (judgment.get("verdict_by") or {}).get("facet")
    deciding = next((f["findings"] for f in judgment["facets"] if f["facet"] == by), [])
    order = {fid: k for k, fid in enumerate(deciding)}
    reasons = sorted(judgment["reasons"], key=lambda r: order.get(r["finding"], len(order)))  # stable: text order
    return {"verdict": judgment["verdict"], "verdict_by": by,
            "facets": {f["facet"]: [a["value"] for a in f["answer"]] for f in judgment["facets"]
                       if f["status"] == "decided"},
            "summary": judgment.get("summary"),
            "reasons": [{"finding": r["finding"], "meaning": r["meaning"], "polarity": r["polarity"], "src": r["src"]}
                        for r in reasons[:8]]}


@dataclass(frozen=True)
class Choice:
    """One 擇時 request, checked: the topic, the verdict and facet answers asked and how a moment is charted."""

    topic: str
    verdict: str | None
    facets: tuple[tuple[str, str], ...]
    request: ChartRequest

    def judged(self, reader, moments_: list[datetime]) -> list[dict]:
        """The chosen moments among these, judged with *reader* (in whichever process runs it)."""
        out, last_parts, last = [], None, None
        for t in moments_:
            chart = build_chart(t, self.request)
            parts = [chart.get(s) for s in self.request.systems]
            if parts != last_parts:  # the two hours of one double hour often give the same chart: judge it once
                reading = reader.read(chart, topic=reader.props[self.topic]["name"], lore=False, trail=False)
                hit = _hit(judge_topic(self.topic, reading, chart, reader, DEFAULT_OPTIONS))
                answered = all(value in hit["facets"].get(name, ()) for name, value in self.facets)
                last_parts, last = parts, hit if answered and self.verdict in (None, hit["verdict"]) else None
            if last is not None:
                out.append({"moment": chart["moment"], **last})
        return out


def choice(reader, topic: str, verdict: str | None = None, facets: dict | None = None,
           request: ChartRequest = ChartRequest()) -> Choice:
    """The checked :class:`Choice` of a request — ChooseError naming the field: not one topic, an unknown verdict,
    a facet the topic lacks or a value it never answers — charting only the systems its rules read (or *request*'s)."""
    facets, topic_id = facets or {}, reader.topic_id(topic)
    if topic_id is None or topic_id == "*":
        raise ChooseError("topic: choosing a time needs one topic", "topic")
    if verdict is not None and verdict not in VERDICTS:
        raise ChooseError(f"verdict: {verdict!r} is not one of {', '.join(VERDICTS)}", "verdict")
    known = {f.name: f for f in facet_table().get(topic_id, ())}
    for name, value in facets.items():
        if name not in known:
            raise ChooseError(f"facet: {reader.props[topic_id]['name']} has no facet {name!r}; its facets: "
                              f"{', '.join(sorted(known)) or 'none'}", "facet")
        values = list(dict.fromkeys(v for a in known[name].answers
                                    for v in (POLARITIES if a.value == "=polarity" else (a.value,))))
        if value not in values and "=name" not in values:  # (=name: the name of the meaning found, any)
            raise ChooseError(f"facet: {name} is never answered {value!r}; its answers: {', '.join(values)}", "facet")
    if request.systems == ChartRequest().systems:
        scope = reader.topic_scope(topic_id)
        read = {f.id for f in topic_facts(reader).facts.values() if f.qualifier_dict().get("topic") in scope}
        request = replace(request, systems=reader.systems_of(read))
    return Choice(topic_id, verdict, tuple(facets.items()), request)


def choose(reader, topic: str, start: datetime, end: datetime, *, verdict: str | None = None,
           facets: dict | None = None, **options) -> Iterator[dict]:
    """The moments from *start* to *end* whose judgment for *topic* has *verdict* (None: any) and the facet answers
    asked, in order: :func:`leishen.service.readings.find` with its *options* (``step``, ``request``, ``jobs``, an
    ``executor`` whose workers open ``source`` …)."""
    from leishen.service.readings import find
    return find(reader, start, end, topic=topic, verdict=verdict or "*", facets=facets, **options)
