"""``find``: the moments in a range where a rule, a pattern or a named reading holds."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Iterator

from leishen.engine.chart import ChartRequest, build_chart
from leishen.engine.moment import check_moment, parse_moment
from leishen.errors import LeishenError, MomentError

LORE_QUERIES = ("kin", "stages", "vigour", "relations", "leixiang", "shensha")
FINDING_ID = re.compile(r"^(?:liuren|qimen|ninestar)/(?:rules|patterns)/(facts/[^@]+)(?:@.*)?$")
STEPS = {"hour": timedelta(hours=1), "day": timedelta(days=1)}
MAX_MOMENTS = 200_000


class FindError(LeishenError):
    """A find request that cannot run (unknown rule, bad range or step); ``field`` names the part at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class Selecting:
    """What a :class:`~leishen.readings.read.Reader` answers about the rules a ``find`` asks for, from its
    ``rules``, ``requires``, ``facts``, ``props`` and ``_name`` (a fact as subject→object)."""

    def select(self, wanted: str) -> tuple[set, bool]:
        """(the rule facts a ``find`` of *wanted* evaluates, whether a lore query is asked): those it names
        (:meth:`named`) and every REQUIRES rule of a pattern they test (``pattern(P)``), to decide it."""
        chosen, lore = self.named(wanted)
        patterns = {p for r in self.rules if r.fact in chosen for p in patterns_tested(r.when)}
        return chosen | {r.fact for r in self.requires if self.facts[r.fact].subject in patterns}, lore

    def named(self, wanted: str) -> tuple[set, bool]:
        """The rule facts a ``find`` asks for (by fact id, item, pattern or meaning name — zh, ko, the hanja's
        Korean reading (ko_hanja) or en — or ``subject→object``; a pattern with every REQUIRES rule of it), and whether a lore query (kin,
        stages, vigour, relations …) is asked."""
        chosen = set()
        if not isinstance(wanted, str):
            raise FindError(f"rule: expected a rule name or id, found {type(wanted).__name__}", "rule")
        wanted = wanted.strip()
        finding = FINDING_ID.match(wanted)  # a finding's own id names its fact (…/rules/facts/000/x.csv#5@p1)
        wanted = finding.group(1) if finding else wanted
        folded = wanted.lower()
        if not wanted:  # no name: nothing is chosen (some facts have no item)
            return chosen, False
        for rule in self.rules:
            fact = self.facts[rule.fact]
            subject, obj = self.props.get(fact.subject, {}), self.props.get(fact.object, {})
            names = {fact.id, fact.item, self._name(fact), subject.get("name"), obj.get("name"), obj.get("ko"),
                     obj.get("ko_hanja"), (obj.get("en") or "").lower() or None}
            if wanted in names or folded in names:
                chosen.add(rule.fact)
        if any(self.facts[f].relation == "REQUIRES" for f in chosen):  # a pattern: all its parts
            patterns = {self.facts[f].subject for f in chosen if self.facts[f].relation == "REQUIRES"}
            chosen |= {r.fact for r in self.requires if self.facts[r.fact].subject in patterns}
        return chosen, wanted in LORE_QUERIES

    def systems_of(self, facts: set) -> tuple[str, ...]:
        """The systems the rules of these facts need (liuren for the lore readings)."""
        wanted = {r.system for r in self.rules if r.fact in facts} or {"liuren"}
        return tuple(s for s in ("liuren", "qimen", "ninestar") if s in wanted)


def patterns_tested(call) -> set[str]:
    """The patterns a condition tests (``pattern(P)`` or ``pattern_here(P)`` anywhere in it)."""
    if getattr(call, "pred", None) in ("pattern", "pattern_here"):
        return {call.args[0].id}
    return {p for a in getattr(call, "args", ()) for p in patterns_tested(a)}


def range_ends(start: str, end: str, tz: str | None = None, names: tuple[str, str] = ("start", "end")
               ) -> tuple[datetime, datetime]:
    """The two ends of a find range (ISO 8601, with an offset or naive with *tz*), as moments; an error names
    the end at fault by *names* (``start``/``end`` over HTTP and MCP, ``from``/``to`` on the command line).
    A local time the clock shows twice is refused with both of its readings, to be written with the offset."""
    ends = []
    for text, name in zip((start, end), names):
        try:
            ends.append(parse_moment(text, tz))
        except MomentError as exc:
            message = str(exc)
            if not message.startswith("moment:"):  # tz: … names its own field
                raise
            if "happened twice" in message:
                first, second = (parse_moment(text, tz, fold=f).isoformat() for f in (0, 1))
                raise MomentError(f"{name}: {text} happened twice in {tz}; write it with its UTC offset: {first} "
                                  f"(the first) or {second} (the second)") from None
            raise MomentError(f"{name}:{message.removeprefix('moment:')}") from None
    if ends[1] < ends[0]:
        raise FindError(f"{names[1]}: the end of the range is before its start", names[1])
    return ends[0], ends[1]


def moments(start: datetime, end: datetime, step: str, names: tuple[str, str] = ("start", "end")
            ) -> Iterator[datetime]:
    """Every moment from *start* to *end* (inclusive), shown on *start*'s clock. ``hour``: every real hour (in
    absolute time: where a clock is set back its repeated hour comes twice, where it jumps the skipped hour never
    comes); ``day``: the same clock time each day (a time a clock jumps over that day is read on the later
    side). A range that leaves the supported years on *start*'s clock is refused before the first moment."""
    if step not in STEPS:
        raise FindError(f"step: {step!r} is not one of {', '.join(STEPS)}", "step")
    if end < start:  # (aware datetimes of different zones compare as instants)
        raise FindError(f"{names[1]}: the end of the range is before its start", names[1])
    first, last = start.astimezone(timezone.utc), end.astimezone(timezone.utc)
    count = (last - first) // STEPS[step] + 1
    if count > MAX_MOMENTS:
        raise FindError(f"the range holds {count} moments at step {step}; at most {MAX_MOMENTS}")
    zone = start.tzinfo
    try:
        check_moment(last.astimezone(zone))
    except MomentError as exc:
        raise FindError(f"{names[1]}: on the clock of the start ({start.isoformat()}) the range ends at "
                        f"{last.astimezone(zone).isoformat()}:{str(exc).removeprefix('moment:')}", names[1]) from None
    if step == "hour":
        for k in range(count):
            yield (first + k * STEPS["hour"]).astimezone(zone)
        return
    t = start
    while t.astimezone(timezone.utc) <= last:
        yield t.astimezone(timezone.utc).astimezone(zone)  # a wall time in a gap, read as the instant it names
        t += STEPS["day"]


def lore_systems(query: str) -> tuple[str, ...]:
    """The systems a lore reading reads: the 刑 沖 破 害 合 among the slots of Liu Ren and of Qimen; the others
    Liu Ren's only."""
    from leishen.readings.lore import RELATION_SLOTS
    return tuple(RELATION_SLOTS) if query == "relations" else ("liuren",)


def find(reader, rule: str, start: datetime, end: datetime, *, step: str = "hour", topic: str | None = None,
         request: ChartRequest = ChartRequest(), progress=None) -> Iterator[dict]:
    """``{"moment", "findings": [finding ids]}`` for every moment where *rule* holds. *rule* is a fact id,
    an inventory item, a pattern or meaning name, ``subject→object``, or a lore query name."""
    chosen, lore = reader.select(rule)  # what is evaluated: what is asked, and the patterns its rules test
    asked, _ = reader.named(rule)
    if not chosen and not lore:
        raise FindError(f"unknown rule {rule!r}: give a fact id, an item, a pattern or meaning name, "
                        "or one of kin, stages, vigour, relations, leixiang, shensha", "rule")
    if request.systems == ChartRequest().systems:  # chart only the systems the rule reads
        request = replace(request, systems=reader.systems_of(chosen) if not lore else lore_systems(rule))
    last_parts, last_hits = None, None
    for t in moments(start, end, step):
        if progress:
            progress(t)
        chart = build_chart(t, request)
        parts = [chart.get(s) for s in request.systems]
        if parts != last_parts:  # consecutive hours of one double hour often give the same chart: read it once
            reading = reader.read(chart, topic=topic, only=chosen, lore=lore, trail=False)
            last_parts = parts
            last_hits = [f["id"] for f in reading["findings"]
                         if f["rule"]["fact"] in asked or (lore and f["query"] == rule)]
        if last_hits:
            yield {"moment": chart["moment"], "findings": last_hits}
