"""Charts for every door (CLI, HTTP API, MCP): from a moment, from a batch of lines, or typed by hand.

Each function returns JSON-able dicts and raises :class:`~leishen.errors.ChartError` (a
:class:`~leishen.errors.LeishenError`) with a one-line message naming the field for bad input;
the doors turn it into exit code 2 or an HTTP 4xx. The typed-chart models are
:class:`leishen.engine.schema.TypedChart` (pydantic), for the API to reuse. The typed-chart check
(:mod:`leishen.engine.typedcheck`) is imported when a typed chart is checked: a chart of a moment does without.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from leishen.engine.calendar import parse_moment
from leishen.engine.chart import ChartRequest, build_chart
from leishen.errors import ChartError

__all__ = ["TypedChart", "chart_of", "check_typed", "check_typed_file", "batch", "read_text", "parse_json",
           "has_differences", "BATCH_KEYS"]

#: the keys a batch line may carry
BATCH_KEYS = ("moment", "tz", "fold")


def chart_of(moment: str | None, request: ChartRequest = ChartRequest(), *, tz: str | None = None,
             fold: int | None = None) -> dict:
    """The chart of an ISO 8601 *moment* (``None`` or ``"now"``: the current instant)."""
    return build_chart(parse_moment(moment, tz, fold=fold), request)


def read_text(path: str, data: bytes | None = None) -> str:
    """The UTF-8 text of a file (or of *data* read from it), or ChartError naming the file and byte offset."""
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ChartError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ChartError(f"{path}: not UTF-8 (byte {exc.start}: {data[exc.start:exc.start + 1]!r})") from None


def parse_json(text: str, where: str):
    """JSON of *text*, or ChartError naming *where*, the line and column (or the nesting depth)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ChartError(f"{where}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise ChartError(f"{where}: not a chart (JSON nested too deeply)") from None


def check_typed(data) -> dict:
    """Check a typed chart (a parsed JSON value): ``{"chart", "checks", "agrees"}``; ChartError if malformed."""
    from leishen.engine.typedcheck import check_typed_chart
    return check_typed_chart(data)


def check_typed_file(path: str, data: bytes | None = None) -> dict:
    """Check the typed chart in file *path* (``data``: its bytes, e.g. read from stdin)."""
    return check_typed(parse_json(read_text(path, data), path))


def batch(text: str, request: ChartRequest = ChartRequest(), *, tz: str | None = None,
          where: str = "-") -> Iterator[tuple[int, dict, bool]]:
    """One result per non-empty line of JSON lines *text*: ``(line number, chart or error, ok)``.

    A line is ``{"moment": "…", "tz": "…", "fold": 0|1}`` (``tz`` defaults to *tz*); a bad line
    gives ``{"line": n, "error": "…"}`` in its place and the batch goes on.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, _batch_line(line, request, tz, f"{where}:{number}"), True
        except ChartError as exc:
            yield number, {"line": number, "error": str(exc)}, False


def _batch_line(line: str, request: ChartRequest, tz: str | None, where: str) -> dict:
    item = parse_json(line, where)
    if not isinstance(item, dict) or not isinstance(item.get("moment"), str):
        raise ChartError(f'{where}: expected {{"moment": "...", "tz": "...", "fold": 0|1}}')
    unknown = [key for key in item if key not in BATCH_KEYS]
    if unknown:
        raise ChartError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(BATCH_KEYS)})")
    zone = item.get("tz", tz)
    if zone is not None and not isinstance(zone, str):
        raise ChartError(f"{where}: tz: expected a zone name such as Asia/Shanghai")
    fold = item.get("fold")
    if fold is not None and (isinstance(fold, bool) or fold not in (0, 1)):
        raise ChartError(f"{where}: fold: {fold!r} is not 0 or 1")
    try:
        return chart_of(item["moment"], request, tz=zone, fold=fold)
    except ChartError as exc:
        raise ChartError(f"{where}: {exc}") from None


def __getattr__(name: str):
    """``TypedChart`` (pydantic) and ``has_differences`` (the typed-chart check), imported when asked: a chart of
    a moment loads neither."""
    if name == "TypedChart":
        from leishen.engine.schema import TypedChart
        return TypedChart
    if name == "has_differences":
        from leishen.engine.typedcheck import has_differences
        return has_differences
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
