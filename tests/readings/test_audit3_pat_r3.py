"""Pattern definitions (ontology/facts/004/patterns.csv) mended in the third audit, round 3 (2026-12-02).

反吟 / 伏吟 (4.P.22-23, and their copies in 凶格 4.P.48): the star ring and the gate ring turn as one, so 天蓬
(or 休門) at home / opposite means the whole plate is 伏吟 / 反吟. The cases used to be written ``some(宮, …)``,
so ``pattern_here`` read them only in the palace of 天蓬 or 休門; wrapped in ``any(…)`` they name no palace and
hold in every palace, like the other whole-chart cases (五不遇時, 羅網). The ``MENDED`` rows run in
``test_mended.py``."""

from __future__ import annotations

import pytest

from fired import chart_of
from leishen.service.book import reader


MENDED = [
    ("facts/003/t_terrain_numbers.csv#12", "地理", "1960-01-10T22:28:00+08:00", "2076-06-26T03:15:00+08:00",
     "相逢凶格 (003:111): 天任's palace in a 反吟/伏吟 plate now counts (the old rule read 反吟/伏吟 only in "
     "天蓬's or 休門's palace, and no other 凶格 is in 天任's palace here); the other chart has none"),
]


FUYIN = "1986-02-04T08:11:00+08:00"    # 天蓬 in 坎一: the stars all at home
FANYIN = "1995-03-12T00:00:00+08:00"   # 天蓬 in 離九: the stars all opposite
NEITHER = "1994-03-13T13:56:00+08:00"  # neither 伏吟 nor 反吟


@pytest.mark.parametrize("moment, pattern, palace, holds", [
    (FUYIN, "伏吟", "離九", True),     # not 天蓬's palace: the old case did not hold here
    (NEITHER, "伏吟", "離九", False),
    (FANYIN, "反吟", "坎一", True),    # not 天蓬's palace: the old case did not hold here
    (NEITHER, "反吟", "坎一", False),
])
def test_fanfu_whole_plate(moment, pattern, palace, holds):
    r = reader()
    chart = chart_of(moment)
    assert r.test(chart, f"pattern(Pattern.{pattern})", system="qimen")["holds"] is holds
    here = f"some(宮, all(eq(宮, Palace.{palace}), pattern_here(Pattern.{pattern})))"
    assert r.test(chart, here, system="qimen")["holds"] is holds
    group = f"some(宮, all(eq(宮, Palace.{palace}), pattern_here(Pattern.凶格)))"
    if holds:
        assert r.test(chart, group, system="qimen")["holds"]
