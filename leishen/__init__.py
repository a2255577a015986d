"""leishen (類神): a cited correspondence graph of the Three Arts, chart engines and readings.

The Python API (see README § Python API)::

    import leishen
    c = leishen.chart("2026-12-01T10:00+09:00")            # the chart JSON of all three systems
    r = leishen.read("2026-12-01T10:00+09:00", topic="射覆")  # findings with paths and citations
    g = leishen.graph()                                      # the NetworkX MultiDiGraph
    hits = list(leishen.find("斫輪", "2026-01-01T00:00+08:00", "2026-12-31T23:00+08:00"))
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


def read(moment_or_chart, *, tz: str | None = None, topic: str | None = None, backend=None, request=None) -> dict:
    """The reading of a moment or of a chart dict (computed or typed in). A chart dict is checked first, as
    ``leishen read --chart`` checks it (ChartError naming the field; about 0.4 ms): to read charts the
    engine computed without it, use :func:`leishen.readings.read`."""
    from leishen import readings
    if isinstance(moment_or_chart, dict):
        from leishen.engine.typedcheck import validate_typed_chart
        c = validate_typed_chart(moment_or_chart)
    else:
        c = chart(moment_or_chart, tz=tz, request=request)
    return readings.read(c, topic=topic, backend=backend)


def find(rule: str, start, end, *, tz: str | None = None, step: str = "hour", topic: str | None = None,
         backend=None):
    """The moments from *start* to *end* where *rule* holds (an iterator of dicts)."""
    from leishen import readings
    if isinstance(start, str) and isinstance(end, str):  # as the CLI reads them: an error names the end at fault
        from leishen.readings.search import range_ends
        first, last = range_ends(start, end, tz)
    else:
        first, last = _moment(start, tz), _moment(end, tz)
    return readings.find(rule, first, last, step=step, topic=topic, backend=backend)


def graph(backend: str = "networkx"):
    """The lore graph: a NetworkX MultiDiGraph (the embedded default)."""
    from leishen import readings
    r = readings.reader(backend)
    r.backend.ensure_loaded()
    return r.backend.graph


def __getattr__(name: str):
    """``leishen.readings``, ``leishen.engine`` … reachable after ``import leishen`` alone (imported on first use)."""
    import importlib
    if name in ("readings", "engine", "loaders", "queries", "backends", "service", "api", "viz", "errors"):
        return importlib.import_module(f"leishen.{name}")
    raise AttributeError(f"module 'leishen' has no attribute {name!r}")
