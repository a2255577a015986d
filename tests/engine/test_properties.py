"""Property tests: any moment 1800–2200 in any of ten zones charts, or fails with a documented error;
every chart keeps its invariants; the fast paths equal the plain ones; random typed charts give a
result or a ChartError naming the field, never anything else."""

from __future__ import annotations

import copy
import json
from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings, strategies as st

from leishen.engine.calendar import BRANCHES, moment_facts, sexagenary_index
from leishen.engine.chart import build_chart
from leishen.engine.ninestar import STARS, ninestar_chart, ninestar_from_facts
from leishen.engine.qimen.chart import qimen_chart, qimen_from_facts, term_in_force
from leishen.engine.qimen.symbols import STARS as QIMEN_STARS
from leishen.engine.typedcheck import check_typed_chart
from leishen.errors import ChartError

ZONES = [ZoneInfo(name) for name in ("Asia/Shanghai", "Asia/Seoul", "Asia/Kolkata", "Europe/London",
                                     "America/New_York", "America/St_Johns", "Pacific/Kiritimati",
                                     "Pacific/Pago_Pago", "Australia/Lord_Howe", "UTC")]
moments = st.datetimes(min_value=datetime(1800, 1, 1), max_value=datetime(2200, 12, 31, 23, 59, 59),
                       timezones=st.sampled_from(ZONES), allow_imaginary=False)
options = st.fixed_dictionaries({"day_boundary": st.sampled_from(["23:00", "00:00"]),
                                 "longitude": st.none() | st.floats(-180, 180)})


def _in_range(moment: datetime) -> bool:
    return 1800 <= moment.year <= 2200


@settings(max_examples=300, deadline=None)
@given(moments)
def test_any_moment_charts_with_its_invariants(moment):
    try:
        chart = build_chart(moment)
    except ChartError as exc:                       # the documented error: only at the edges of the range
        assert not _in_range(moment) and str(exc).startswith("moment: "), exc
        return
    pillars = chart["pillars"]
    assert all(sexagenary_index(pillars[k]) >= 0 for k in ("year", "month", "day", "hour"))
    liuren = chart["liuren"]
    assert len(liuren["lessons"]) == 4 and len(liuren["transmissions"]) == 3
    assert all(b in liuren["plate"].values() for b in liuren["transmissions"])
    assert sorted(liuren["generals"].values()) == sorted(set(liuren["generals"].values())) and len(liuren["generals"]) == 12
    offset = (BRANCHES.index(liuren["plate"]["子"])) % 12
    assert all(liuren["plate"][e] == BRANCHES[(i + offset) % 12] for i, e in enumerate(BRANCHES))
    palaces = chart["qimen"]["palaces"]
    assert len(palaces) == 9
    ring = [palaces[str(p)] for p in range(1, 10) if p != 5]
    assert sorted(p["star"] for p in ring) == sorted(s for s in QIMEN_STARS if s != "天禽")
    assert len({p["gate"] for p in ring}) == 8 and len({p["deity"] for p in ring}) == 8
    for key in ("year", "month", "day"):
        assert sorted(chart["ninestar"]["plates"][key].values()) == sorted(STARS)


@settings(max_examples=300, deadline=None)
@given(moments, options)
def test_fast_paths_equal_the_calendar_computed_once(moment, calendar):
    facts = moment_facts(moment, **calendar)
    assert qimen_chart(moment, **calendar) == qimen_from_facts(facts)
    assert qimen_chart(moment, method="zhi_run", **calendar) == qimen_from_facts(facts, method="zhi_run")
    assert ninestar_chart(moment, **calendar) == ninestar_from_facts(facts)
    assert term_in_force(moment) == facts.term
    chart = build_chart(moment)
    assert chart["pillars"]["day"] == moment_facts(moment).pillars.day


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=True)
                           | st.text("子丑寅甲乙陽天蓬休門值符一白三碧²x ", max_size=4),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc子", max_size=3), inner,
                                                                                        max_size=4),
                           max_leaves=12)
BASE = build_chart(datetime(2024, 6, 12, 18, 30, tzinfo=ZONES[0]))
BASE = json.loads(json.dumps(BASE, ensure_ascii=False))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


PATHS = [p for p in _paths(BASE) if p]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), json_values | st.just(KeyError)), min_size=1, max_size=3))
def test_random_typed_charts_give_a_result_or_a_field_error(edits):
    chart = copy.deepcopy(BASE)
    for path, value in edits:
        target = chart
        try:
            for key in path[:-1]:
                target = target[key]
            if value is KeyError:
                del target[path[-1]]
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue                                # an earlier edit removed this path
    try:
        result = check_typed_chart(chart)
    except ChartError as exc:
        field = str(exc).split(":", 1)[0]
        assert field and " " not in field.strip(), exc       # one line, starting with the field
        return
    assert isinstance(result["agrees"], bool)
    json.dumps(result, ensure_ascii=False)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_value_is_a_result_or_a_field_error(value):
    try:
        check_typed_chart(value)
    except ChartError:
        pass
