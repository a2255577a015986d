"""leishen (類神): a cited correspondence graph of the Three Arts, chart engines and readings.

The Python API (see README § Python API)::

    import leishen
    c = leishen.chart("2026-12-01T10:00+09:00")            # the chart JSON of all three systems
    r = leishen.read("2026-12-01T10:00+09:00", topic="射覆")  # findings with paths and citations
    g = leishen.graph()                                      # the NetworkX MultiDiGraph
    hits = list(leishen.find("斫輪", "2026-01-01T00:00+08:00", "2026-12-31T23:00+08:00"))
    good = list(leishen.find(topic="出行", verdict="吉", start="2026-12-01T00:00+09:00", end="2026-12-07T23:00+09:00"))
"""

from __future__ import annotations

__version__ = "0.1.0"


def _moment(value, tz=None):
    """A moment from ISO text, None / "now" (the current instant) or a datetime, as the CLI reads one: a naive
    datetime is read on *tz*'s clock (a time the clock shows twice by its ``fold``, 0 the first, as Python
    reads it), an aware one is shown in *tz*; MomentError naming what is wrong."""
    from datetime import datetime

    from leishen.engine.moment import check_moment, localize, parse_moment, zone_named
    if not isinstance(value, datetime):
        return parse_moment(value, tz)
    if tz is None:
        return check_moment(value)
    zone = zone_named(tz)
    return check_moment(localize(value, zone, value.fold) if value.tzinfo is None else value.astimezone(zone))


def _request(request):
    """The chart request (None: the defaults); ChartError when it is not a ChartRequest."""
    from leishen.engine.chart import ChartRequest
    from leishen.errors import ChartError
    if request is None:
        return ChartRequest()
    if not isinstance(request, ChartRequest):
        raise ChartError(f"request: expected a leishen.engine.chart.ChartRequest, found {type(request).__name__}")
    return request


def chart(moment, *, tz: str | None = None, request=None) -> dict:
    """The chart of a moment (ISO text with an offset, or with *tz*; or an aware datetime)."""
    from leishen.engine.chart import build_chart
    return build_chart(_moment(moment, tz), _request(request))


def read(moment_or_chart=None, *, tz: str | None = None, topic: str | None = None, backend=None, request=None,
         options: dict | None = None) -> dict:
    """The reading of a moment or of a chart dict (computed or typed in): its findings and its ``judgments``
    (one per topic read and one for the general reading; *options*: the judgment's school options, e.g.
    ``{"timing_stem": "heaven"}``). A chart dict is checked first, as ``leishen read --chart`` checks it
    (ChartError naming the field; about 0.4 ms): to read charts the engine computed without it, use
    :func:`leishen.service.book.read`. Goes through the readings door (:func:`leishen.service.readings.read`)."""
    from leishen.service import readings
    if isinstance(moment_or_chart, dict):
        return readings.read(moment_or_chart, topic=topic, backend=backend, options=options)
    request = _request(request)
    return readings.read(chart(moment_or_chart, tz=tz, request=request), topic=topic, backend=backend,
                         request=request, options=options, typed=False)


def find(rule: str | None = None, start=None, end=None, *, tz: str | None = None, step: str = "hour",
         topic: str | None = None, verdict: str | None = None, facets=None, backend=None, request=None,
         jobs: int = 1):
    """The moments from *start* to *end* (an iterator of dicts) where *rule* holds, or — with *topic* and
    *verdict* (擇時) — whose judgment of the topic has that verdict (and the *facets* answers, ``{"可行否":
    "可行"}`` or ``["可行否=可行"]``), each with its deciding reasons; *jobs* processes share a 擇時 range. The range
    is held to the library's limits (200,000 moments). Goes through :func:`leishen.service.readings.find`."""
    from leishen.errors import ChartError
    from leishen.service import readings
    if start is None or end is None:
        raise ChartError(f"{'start' if start is None else 'end'}: the range needs both ends")
    if not (isinstance(start, str) and isinstance(end, str)):  # datetimes: read as the CLI reads a moment
        start, end = _moment(start, tz), _moment(end, tz)
    first, last, _count = readings.plan(start, end, tz, step)
    return readings.find(readings.reader_for(backend), first, last, rule=rule, topic=topic, verdict=verdict,
                         facets=facets, step=step, request=_request(request), jobs=jobs)


def graph(backend: str = "networkx"):
    """The lore graph: a NetworkX MultiDiGraph (the embedded default)."""
    from leishen.service import book
    r = book.reader(backend)
    r.backend.ensure_loaded()
    return r.backend.graph


def __getattr__(name: str):
    """``leishen.readings``, ``leishen.engine`` … reachable after ``import leishen`` alone (imported on first use)."""
    import importlib
    if name in ("readings", "engine", "loaders", "queries", "backends", "service", "api", "viz", "errors"):
        return importlib.import_module(f"leishen.{name}")
    raise AttributeError(f"module 'leishen' has no attribute {name!r}")
