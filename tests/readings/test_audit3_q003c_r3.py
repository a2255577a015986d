"""Part q003c of the third audit, round 2 (2026-12-02): 003 天時 by 局 and 遁, 雨晴雪, 栽植 and 蠶, 年景.

The ordinary rules of these files (screen share 0.01-0.8, no audit note yet) were read against their passages
and the Korean translation; none needed its condition changed. The one debatable
reading met (二遁 with 螣蛇 or 玄武, 003:23: any season, or only the summer of the line before) was kept and
noted in the rows; the pin below keeps that choice deliberate: the rows fire outside summer."""

from __future__ import annotations

import pytest

from fired import findings

C = "facts/003/c_weather_ju_dun.csv"

KEPT = [
    (f"{C}#58", "天時", "1926-10-29T05:11:00+00:00",  # (#29: 二遁 is 局 2: a 局 2 moment)
     "二遁 met with 螣蛇 in its palace in an autumn month: the verse line names no season, so the rule is not "
     "limited to summer (the Korean reading, noted in the row)"),
    (f"{C}#59", "天時", "2052-02-16T12:46:00+00:00",
     "二遁 met with 玄武 in its palace in a spring month: the same kept reading"),
]


@pytest.mark.parametrize("rule, topic, moment, why", KEPT)
def test_kept_readings(rule, topic, moment, why):
    assert rule in findings(moment, topic), why
