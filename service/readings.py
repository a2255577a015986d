"""The one readings door: every door (CLI, HTTP, MCP, the Python API) reads and finds through these functions.

- :func:`reader_for` — the reader of a backend, shared per process (no door builds a ``Reader`` of its own);
- :func:`read_typed` — the one typed-chart loader: a chart typed by hand is checked the same way everywhere
  (a pillars-only chart, or one whose 三傳 contradict its own moment, gets the same one-line answer);
- :func:`read` — a moment or a chart read: the findings, with the judgments of :mod:`leishen.judgments` added;
- :func:`plan` and :func:`find` — the moments of a range where a rule holds, or whose judgment of a topic has a
  verdict (擇時, :func:`leishen.judgments.choose.choose`), under one limits policy (:class:`Limits`: most
  moments, a deadline) for every door; :func:`find_rule` is the scan of a rule over a range.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Iterator

from leishen.engine.chart import ChartRequest
from leishen.errors import ChartError, FindError, LeishenError

__all__ = ["Limits", "LIBRARY", "SERVER", "FindDeadline", "reader_for", "read_typed", "read", "judged", "plan",
           "find", "find_rule", "pillar_moments"]

SYSTEM_KEYS = ("liuren", "qimen", "ninestar")


@dataclass(frozen=True)
class Limits:
    """How much one find may scan: at most *max_moments* charts, for at most *seconds* (None: no deadline)."""

    max_moments: int = 200_000
    seconds: float | None = None


#: the limits of the CLI and the Python API: the engine's range cap, no deadline
LIBRARY = Limits()
#: the limits of a server door (HTTP /find and MCP find): a month of hours, 60 s
SERVER = Limits(24 * 31, 60.0)


class FindDeadline(LeishenError):
    """A find ran past its door's deadline and was stopped (HTTP answers 408)."""

    field = None


def reader_for(backend=None, uri=None, user=None, password=None, corpus=None):
    """The reader of a backend: the process's shared NetworkX reader (disk-cached) for the default, else a reader
    over the backend named (opened with *uri*, *user*, *password*, *corpus*) or over a backend object."""
    from leishen.service import book
    if backend in (None, "networkx") and corpus is None:
        return book.reader("networkx")
    if isinstance(backend, str):
        from leishen.service.lore import open_store
        return book.new_reader(open_store(backend, uri, user, password, corpus), corpus)
    return book.reader_of(backend)


def served_reader(store, corpus=None):
    """The reader a long-running door serves with (``leishen serve``, ``leishen mcp``): the disk-cached one over
    *store* (:func:`leishen.service.book.reader_over`, warmed by readings of now), then one reading of every topic
    through this door, so that what the door adds on first use — the judgment tables, the facts the judgments
    index, the notes — is made before the first request, not during it. Then what the process holds is frozen
    (``gc.freeze``): the collector no longer walks the graph, the rules and the tables, which live as long as the
    process, at each of its passes (issue #37)."""
    import gc
    from leishen.service.book import reader_over
    made = reader_over(store, corpus)
    read(None, topic="*", reader=made)
    gc.freeze()
    return made


def read_typed(data, where: str | None = None) -> dict:
    """A chart typed by hand (a parsed JSON value in the shape of ``leishen chart --json``), checked: ChartError
    in one line naming the field (prefixed by *where*, e.g. the file name) for a value that is not a chart, has
    none of liuren, qimen, ninestar, or whose typed fields contradict its own moment."""
    from leishen.engine.typedcheck import validate_typed_chart
    prefix = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise ChartError(f"{prefix}expected a JSON object (a chart), found {type(data).__name__}")
    if not any(data.get(s) is not None for s in SYSTEM_KEYS):  # (a system of the wrong type: its own field)
        raise ChartError(f"{prefix}chart: a reading needs at least one of liuren, qimen, ninestar (pillars alone "
                         "have no rules to read)")
    try:
        return validate_typed_chart(data)
    except ChartError as exc:
        raise ChartError(f"{prefix}{exc}") from None


def read(chart_or_moment=None, *, topic: str | None = None, reader=None, backend=None, request=None,
         tz: str | None = None, fold: int | None = None, options: dict | None = None, typed: bool = True) -> dict:
    """The reading of a chart dict (checked by :func:`read_typed` when *typed*; an engine's chart passes
    ``typed=False``) or of a moment (ISO text, None for now, charted with *request*): its findings, with
    ``judgments`` added (:func:`leishen.judgments.judge`; *options*: the judgment's school options and the
    reading option ``lessons``, :data:`leishen.readings.lore.LESSONS`)."""
    from leishen.judgments.procedure import checked_options
    from leishen.readings.lore import checked_lessons
    options = dict(options or {})
    lessons = checked_lessons(options.pop("lessons", None))  # the reading's option, not the judgment's
    options = checked_options(options)  # a bad option is refused before the chart is read
    request = request or ChartRequest()
    if isinstance(chart_or_moment, dict):
        chart = read_typed(chart_or_moment) if typed else chart_or_moment
    else:
        from leishen.service.charts import chart_of
        chart = chart_of(chart_or_moment, request, tz=tz, fold=fold)
    r = reader or reader_for(backend)
    # issue #29 item 5: a void-dependent finding names the school it follows; 002:147's exception under the
    # other school is shown as the alternative (the judgments read no alternative)
    from leishen.service.schools import with_void_schools
    reading = judged(with_void_schools(r.read(chart, topic=topic, lessons=lessons)), chart, r, request, options)
    # issue #31: each needs-judgment reason (and undated 應期's) also in zh and ko, as ``judgment_names``
    from leishen.service.notes import with_judgment_names
    return with_judgment_names(reading)


def judged(reading: dict, chart: dict, reader, request=None, options: dict | None = None) -> dict:
    """*reading* with its ``judgments`` (one per topic read and one for the general reading)."""
    from leishen.judgments import judge
    reading["judgments"] = judge(reading, chart, reader, request=request, options=options)
    return reading


def plan(start: str | datetime, end: str | datetime, tz: str | None = None, step: str = "hour",
         limits: Limits = LIBRARY, names: tuple[str, str] = ("start", "end")) -> tuple[datetime, datetime, int]:
    """The ends of a find range as moments (ISO text read on *tz*, or checked aware datetimes) and how many
    charts it holds, counted once; FindError past *limits* (naming the door's cap), or naming the end at fault
    (*names*: start/end, from/to)."""
    from leishen.engine.moment import STEPS, moments, range_ends
    if step not in STEPS:
        raise FindError(f"step: {step!r} is not one of {', '.join(STEPS)}", "step")
    if isinstance(start, datetime) and isinstance(end, datetime):
        first, last = start, end
        if last < first:
            raise FindError(f"{names[1]}: the end of the range is before its start", names[1])
    else:
        first, last = range_ends(start, end, tz, names=names)
    count = (last - first) // STEPS[step] + 1
    if count > limits.max_moments:
        raise FindError(f"{names[1]}: the range holds {count} moments at step {step}; this door scans at most "
                        f"{limits.max_moments} per request (narrow the range)", names[1])
    next(moments(first, last, step, names=names), None)  # its checks (the end on the start's clock), by *names*
    return first, last, count


def find(reader, start: datetime, end: datetime, *, rule: str | None = None, topic: str | None = None,
         verdict: str | None = None, facets=None, step: str = "hour", request: ChartRequest = ChartRequest(),
         limits: Limits = LIBRARY, jobs: int = 1, progress=None, when: str | None = None, executor=None,
         source=None):
    """The hits of a find from *start* to *end* (moments from :func:`plan`): by *rule* (the moments it holds,
    with the findings), by *when* (a condition in the rule vocabulary: :mod:`leishen.service.whenfind`) or, given
    *verdict* or *facets* (FACET=VALUE items or a dict), 擇時 — the moments whose judgment of *topic* has that
    verdict and facet answers, each with its deciding reasons (:mod:`leishen.judgments.choose`). *when* and 擇時
    run in this process, on *jobs* forked processes or on *executor* (whose workers open *source*:
    :class:`leishen.service.findwork.Source`; with no *reader*, one of them checks the request and makes its task,
    and this process loads no book). Stops with FindDeadline past ``limits.seconds``; *progress* is called as
    ``progress(moment, n)``: *n* more moments scanned, up to *moment*. The request is checked when this is called
    (an error raised here, not at the first hit); the hits come from the iterator it returns."""
    clock = _Clock(limits, progress)
    chosen = verdict is not None or bool(facets)
    if sum((rule is not None, when is not None, chosen)) > 1:
        raise FindError("rule: give one of a rule, a condition (when) or a verdict (擇時)", "rule")
    if rule is not None:  # (the request is checked here, before the first moment is asked for)
        return find_rule(reader, _rule_name(reader, rule), start, end, step=step, topic=topic, request=request,
                         progress=clock.tick)
    if when is not None:
        from leishen.service.whenfind import when_task
        make = partial(when_task, when=when, topic=topic, request=request)
    elif chosen:
        make = partial(_choice, topic=topic, verdict=verdict, facets=facets, request=request)
    else:
        raise FindError("rule: give a rule, a condition (when), or a topic with a verdict (擇時)", "rule")
    from leishen.service import findwork
    findwork.check_jobs(jobs)
    source = source or findwork.Source.of(reader)
    work = findwork.Work(source, by_reader(make, reader, executor, source))
    return _spread(reader, work, start, end, step, jobs, executor, clock)


def lore_systems(query: str) -> tuple[str, ...]:
    """The systems a lore reading reads: the 刑 沖 破 害 合 among the slots of Liu Ren and of Qimen; the others
    Liu Ren's only."""
    from leishen.readings.lore import RELATION_SLOTS
    return tuple(RELATION_SLOTS) if query == "relations" else ("liuren",)


def find_rule(reader, rule: str, start: datetime, end: datetime, *, step: str = "hour", topic: str | None = None,
              request: ChartRequest = ChartRequest(), progress=None) -> Iterator[dict]:
    """``{"moment", "findings": [finding ids]}`` for every moment from *start* to *end* where *rule* holds (a fact
    id, an inventory item, a pattern or meaning name, ``subject→object``, or a lore query name); *progress* is
    called with each moment before it is read."""
    from leishen.engine.chart import build_chart
    from leishen.engine.moment import moments
    rule = _rule_name(reader, rule)
    chosen, lore = reader.select(rule)  # what is evaluated: what is asked, and the patterns its rules test
    asked, _ = reader.named(rule)
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


#: names of 課 a user tries that the texts of the graph do not use: the cases of a pattern it does not tell apart
#: (the 九宗門's cases of 涉害 and of 昴星) → that pattern. Where each comes from: 見機 察微 綴瑕 are the ties of
#: 涉害 (on a 孟, on a 仲, else the first seen: 《課經》 in 《六壬大全》卷七, as engine/options.csv cites it); 虎視
#: (虎視轉蓬) and 冬蛇掩目 are 昴星 on a 剛日 and on a 柔日 (docs/engine-liuren.md § 昴星); the chart names each
#: as its 課's sub-name (engine/liuren/methods.py, special.py)
CASE_OF = (("察微", "涉害"), ("見機", "涉害"), ("綴瑕", "涉害"), ("虎視", "昴星"), ("虎視轉蓬", "昴星"),
           ("冬蛇掩目", "昴星"))


def _rule_name(reader, rule: str) -> str:
    """*rule* as the graph names it (``涉害課`` → ``涉害``); FindError listing the close names (in ``matches``)
    for a name nothing holds, and the pattern a case of one belongs to (察微 → 涉害)."""
    chosen, lore = reader.select(rule)
    if chosen or lore or not isinstance(rule, str):
        return rule
    bare = rule.strip().removesuffix("課").removesuffix("格")
    if bare != rule.strip() and any(reader.select(bare)):
        return bare
    import difflib
    names = sorted({p.get("name") for p in reader.props.values() if p.get("name")} | set(LORE_NAMES))
    close = [dict(CASE_OF)[bare]] if bare in dict(CASE_OF) else []
    close += [n for n in difflib.get_close_matches(bare, names, 8, 0.5) if n not in close and any(reader.select(n))]
    case = f"; {bare} is a case of {close[0]} the texts do not tell apart: find {close[0]} lists every {close[0]}" \
        if bare in dict(CASE_OF) else ""
    error = FindError(f"unknown rule {rule!r}{case}; close names: {', '.join(close) or 'none'} (give a fact id, an "
                      f"item, a pattern or meaning name, or one of {', '.join(LORE_NAMES)})", "rule")
    error.matches = close
    raise error


LORE_NAMES = ("kin", "stages", "vigour", "relations", "leixiang", "shensha")


class _Clock:
    """A find's deadline and progress: :meth:`tick` with each moment (or chunk of *n* moments) scanned."""

    def __init__(self, limits: Limits, progress=None):
        self.limits, self.progress = limits, progress
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds

    def check(self, moment) -> None:
        """FindDeadline naming *moment* when the deadline has passed."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise FindDeadline(f"find ran past {self.limits.seconds:g} s at {moment.isoformat()}; narrow the range")

    def tick(self, moment, n: int = 1) -> None:
        """The deadline checked, then the door's progress told *n* more moments were scanned."""
        self.check(moment)
        if self.progress:
            self.progress(moment, n)


def _choice(reader, topic, verdict, facets, request):
    """The checked 擇時 request (:class:`leishen.judgments.choose.Choice`); ChooseError naming the field."""
    from leishen.judgments.choose import ChooseError, choice, parse_facets
    if not topic:
        raise ChooseError("topic: choosing a time needs one topic (e.g. 出行)", "topic")
    facets = facets if isinstance(facets, dict) else parse_facets(facets)
    return choice(reader, topic, None if verdict == "*" else verdict, facets, request)  # *: every verdict


def by_reader(make, reader, executor, source):
    """*make*(*reader*), or with no reader *make* called on a worker of *executor* with its reader of *source*
    (:func:`_made`; its LeishenError raised here): a request checked where the book is, by a process that loads
    none (``leishen find --scheduler``)."""
    found = make(reader) if reader is not None else executor.submit(_made, source, make).result()
    if isinstance(found, LeishenError):
        raise found
    return found


def _made(source, make):
    """*make*(the source's reader) in this process (a worker); a LeishenError it raises is returned (an answer)."""
    from leishen.service.findwork import worker_reader
    try:
        return make(worker_reader(source))
    except LeishenError as exc:
        return exc


def _spread(reader, work, start, end, step, jobs, executor, clock: _Clock):
    """The hits of *work* over the range, in order (:func:`leishen.service.findwork.spread`: here, on *executor*
    or on *jobs* processes), the clock read and the progress told as each block's hits come back."""
    from leishen.engine.moment import moments
    from leishen.service import findwork
    for last, n, found in findwork.spread(work, list(moments(start, end, step)), reader, jobs, executor):
        yield from found
        clock.tick(last, n)


def pillar_moments(pillars: str, start: str, end: str, tz: str | None = None, day_boundary: str = "23:00",
                   limits: Limits = LIBRARY) -> Iterator[dict]:
    """The spans of hours from *start* to *end* (ISO text on *tz*, held to *limits*) whose four pillars match
    *pillars* (``年,月,日,時``, any may be ``*``), each with the solar term in force
    (:func:`leishen.engine.moment.pillar_spans`); FindError naming the field at fault."""
    from leishen.engine.moment import parse_pillars, pillar_spans
    wanted = parse_pillars(pillars)
    first, last, _ = plan(start, end, tz, "hour", limits)
    return pillar_spans(first, last, wanted, day_boundary)
