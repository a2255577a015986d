"""Third audit, round 3, part tj002: the 天將 placements of 002:99-143 (``tianjiang_placements.csv``).

No row needed mending. These tests pin what the reading confirmed:

- ``加X`` is read from the earth branch under the general (``地``), not the heaven branch it rides (``上``):
  the rules fire where the general stands over X and not where it only rides X. The earth reading is the
  only one under which the text's own lines can all be met by some plate (貴人 never rides 辰 or 戌, yet
  the text gives 貴人 加辰 and 加戌; 天空 never rides 辰, yet it gives 天空 加辰).
- Under the engine's seat rule for 貴人's direction, 36 general/earth pairs (47 rows) never occur; they
  are kept as the text writes them (the text lists every branch for every general, which fits a school
  that turns the generals by day and night rather than by 貴人's seat). The 一為 rows (#122 #133 #138
  #178) are variants, read only when variants are asked for, so their screen share is 0 even where the
  pair occurs.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from fired import assert_mended
from test_audit3_lr002 import _plates

FILE = Path(__file__).resolve().parents[2] / "ontology/facts/002/tianjiang_placements.csv"
RULE = "facts/002/tianjiang_placements.csv#{}"

# (rule id, topic, a moment where it holds, one where it must not, why): the "must not" moment is one where
# the general rides the same branch on the heaven plate but stands over another earth branch.
CONFIRMED = [
    (RULE.format(2), None, "2060-08-14T15:50+08:00", "2002-08-21T17:37+08:00",
     "貴人 加寅 (002:99): 貴人 over earth 寅 fires; 貴人 riding heaven 寅 over another branch does not"),
    (RULE.format(107), None, "2002-08-21T17:37+08:00", "1929-07-27T04:22+08:00",
     "白虎 加戌 (002:127): over earth 戌 fires; riding heaven 戌 elsewhere does not"),
    (RULE.format(173), None, "1958-06-30T11:53+08:00", "1974-10-15T15:42+08:00",
     "天后 加亥 (002:143): over earth 亥 fires; riding heaven 亥 elsewhere does not"),
    (RULE.format(10), None, "2024-01-03T03:30+08:00", "2060-08-14T15:50+08:00",
     "貴人 加戌 (002:99): only the earth reading can meet it (貴人 never rides heaven 戌)"),
]


@pytest.mark.parametrize("rule, topic, holds, fails, why", CONFIRMED)
def test_placements_read_from_the_earth_branch(rule, topic, holds, fails, why):
    assert_mended(rule, topic, holds, fails, why)


def _pairs():
    with FILE.open(encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    return {n: (r[2].split(":")[1], r[4].split(":")[1]) for n, r in enumerate(rows, start=2)}


def test_unreachable_rows_are_the_known_47():
    seen = _plates()
    over = {(g, e) for _, _, e, g in seen}
    ride = {(g, h) for _, h, _, g in seen}
    pairs = _pairs()
    never = [n for n, p in pairs.items() if p not in over]
    assert len(never) == 47
    assert len({pairs[n] for n in never}) == 36
    # the heaven reading would leave lines of the text that no plate can meet at all
    assert {("貴人", "辰"), ("貴人", "戌"), ("天空", "辰")} <= {p for p in pairs.values() if p not in ride}
