"""Bad input never reaches the bindings: 600 typed charts, each a computed chart with one to three
fields changed to a wrong value or left out, are either refused (a ChartError naming the field, as
``read --chart`` and ``POST /readings`` do) or read; nothing else may happen."""

from __future__ import annotations

import copy
import json
import random

import leishen
from leishen.engine.typedcheck import validate_typed_chart
from leishen.errors import ChartError
from leishen.service.book import reader

WRONG = ["", "X", "甲", "子", "Branch:zi", 0, -1, 99, None, [], {}, "甲子甲子", "天蓬", "休門", "坎", "1", 3.5, True, "八"]


def _fields(d, pre=()):
    """Every key path inside a chart's sections."""
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        yield pre + (k,)
        yield from _fields(v, pre + (k,))


def _changed(chart: dict, rng: random.Random) -> dict:
    out = copy.deepcopy(chart)
    fields = [p for p in _fields(out) if p[0] in ("liuren", "qimen", "ninestar", "pillars")]
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(fields)
        try:
            parent = out
            for k in path[:-1]:
                parent = parent[k]
            if rng.random() < 0.15 and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = rng.choice(WRONG)
        except (KeyError, IndexError, TypeError):
            pass  # a field an earlier change removed
    return out


def test_a_changed_chart_is_refused_naming_a_field_or_read():
    rng = random.Random(20261201)
    charts = [json.loads(json.dumps(leishen.chart(m)))
              for m in ("2026-12-01T10:00+09:00", "2024-06-21T13:00+08:00", "1990-02-04T23:30+08:00")]
    r = reader("networkx")
    refused = read = 0
    for _ in range(600):
        typed = _changed(rng.choice(charts), rng)
        if rng.random() < 0.5:  # a typed chart without its moment (with one, a changed 三傳 is refused)
            typed.pop("moment", None)
        try:
            chart = validate_typed_chart(typed)
        except ChartError as exc:
            assert str(exc).split(":")[0].strip(), exc  # names a field
            refused += 1
            continue
        assert r.read(chart, topic=rng.choice([None, "*", "射覆"]))["findings"] is not None
        read += 1
    assert refused > 300 and read > 30
