"""Rules of 003 mended after the second audit (2026-12-01): each fires where the text says and not where
it must not. The seasons of 003 are the month branch's three-month seasons (a 未 month is summer);
dates (其日期) date only a weather found; 不生 negates 來生 (壬癸戊己); the 穿地 numbers are those of the
值使's pair; lines the turning plate cannot meet (在巽生) or a chart cannot tell (葬) need judgment.
The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

import pytest

from leishen.backends import get_backend
from leishen.engine.chart import build_chart
from leishen.service.book import reader
from leishen.readings.read import Reader

from fired import findings

C = "facts/003/c_weather_ju_dun.csv"
E = "facts/003/e_clouds.csv"
F = "facts/003/f_rain_fine_snow.csv"
N = "facts/003/n_crops_silk.csv"
T = "facts/003/t_terrain_numbers.csv"

WEI_MONTH = "1973-07-24T19:05:00+08:00"  # 己未 month, 局 4: 季節 is 季, the month is summer
SHEN_MONTH = "2037-08-27T07:24:00+08:00"  # 申 month, 局 4: autumn
CHOU_WINTER = "2023-01-20T16:30:00+08:00"  # 癸丑 month: 六遁 with 驚門 and 天柱 together (003:27)
WU_SUMMER = "2007-06-18T15:11:00+08:00"  # 丙午 month: 六遁 with 驚柱, not winter
DUTY = {  # 值使 of the moment
    "傷門": "2007-08-26T21:53:00+08:00", "杜門": "2010-09-15T04:10:00+08:00", "休門": "2021-06-04T06:48:00+08:00",
    "生門": "2014-10-19T02:50:00+08:00", "景門": "2000-07-19T09:25:00+08:00", "死門": "2049-09-05T09:36:00+08:00",
    "驚門": "2007-09-21T09:57:00+08:00", "開門": "2015-04-26T16:07:00+08:00",
}


@lru_cache(maxsize=None)
def _variants_reader() -> Reader:
    return Reader(get_backend("networkx"), variants=True)


def _findings(moment: str, topic: str, variants: bool = False) -> dict[str, str]:
    return findings(moment, topic, _variants_reader() if variants else None)


def test_a_season_of_003_is_the_month_branchs_season():
    """夏日 三四二七 多驚 (003:19) in a 未 month: 季節 leaves 未 to 季, the month branch puts it in summer;
    a 申 month with the same 局 is autumn."""
    chart = build_chart(datetime.fromisoformat(WEI_MONTH))
    assert chart["pillars"]["month"][1] == "未" and chart["qimen"]["ju"] == 4
    assert not reader().test(chart, "eq(季節, Season.夏)", system="qimen")["holds"]  # the old test missed it
    assert f"{C}#12" in _findings(WEI_MONTH, "天時")
    assert f"{C}#12" not in _findings(SHEN_MONTH, "天時")


MENDED = [  # (rule, topic, a moment it holds, a moment it must not hold, why)
    (f"{C}#92", "天時", CHOU_WINTER, WU_SUMMER,
     "再逢驚柱臨冬節 (003:27): an 丑 month is winter (季節 missed it); 驚柱 in summer is not the winter line"),
    (f"{C}#93", "天時", CHOU_WINTER, WU_SUMMER, "as #92 (雪飛空)"),
    (f"{F}#23", "天時", "1974-03-26T01:49:00+08:00", "2007-09-21T09:57:00+08:00",
     "其日期 (003:51) dates a clearing found by 3.G.05–08, not a bare 天英 or 天輔"),
    (f"{F}#36", "天時", "2049-09-05T09:36:00+08:00", "2007-09-21T09:57:00+08:00",
     "天柱等所落宮 (003:55) dates a rain found by 3.H.09 / 3.H.11, not a bare 天柱"),
    (f"{N}#24", "栽植", "2007-09-21T09:57:00+08:00", "2021-06-04T06:48:00+08:00",
     "壬癸戊己來生者為活 (003:91): 戊 or 己 over the wood star counts too"),
    (f"{N}#61", "栽植", "2007-09-21T09:57:00+08:00", "2024-12-12T02:48:00+08:00",
     "不生者死 negates 壬癸戊己來生 (003:91): a wood star under 戊 or 己 is not dead (3.O.13 read at 天輔, #61: 天輔 "
     "under 乙 in 2007, under 戊 in 2024; #25 is the same line read at 天沖)"),
    (f"{N}#51", "蠶", "2007-09-21T09:57:00+08:00", "2030-12-14T15:25:00+08:00",
     "皆不至金木宮 (003:107) is the reverse of 全於金木之宮: not where the three stand together in one"),
    (f"{T}#56", "穿地", DUTY["傷門"], DUTY["驚門"], "傷沖 (003:119) is the 值使 傷門's pair"),
    (f"{T}#57", "穿地", DUTY["傷門"], DUTY["驚門"], "傷沖大小水 (003:119)"),
    (f"{T}#58", "穿地", DUTY["杜門"], DUTY["驚門"], "四杜輔 (003:119)"),
    (f"{T}#61", "穿地", DUTY["杜門"], DUTY["驚門"], "杜輔 纖 (003:119)"),
    (f"{T}#62", "穿地", DUTY["休門"], DUTY["驚門"], "休蓬一六 (003:119)"),
    (f"{T}#63", "穿地", DUTY["休門"], DUTY["驚門"], "休蓬一六 (003:119)"),
    (f"{T}#64", "穿地", DUTY["生門"], DUTY["驚門"], "生任七八 (003:119)"),
    (f"{T}#65", "穿地", DUTY["生門"], DUTY["驚門"], "生任七八 (003:119)"),
    (f"{T}#66", "穿地", DUTY["景門"], DUTY["驚門"], "景英三九 (003:119)"),
    (f"{T}#67", "穿地", DUTY["景門"], DUTY["驚門"], "景英三九 (003:119)"),
    (f"{T}#68", "穿地", DUTY["死門"], DUTY["驚門"], "芮禽死使 (003:119): 死門 as the 值使"),
    (f"{T}#70", "穿地", DUTY["驚門"], DUTY["休門"], "驚柱二七 (003:119)"),
    (f"{T}#71", "穿地", DUTY["驚門"], DUTY["休門"], "驚柱二七 (003:119)"),
    (f"{T}#72", "穿地", DUTY["開門"], DUTY["驚門"], "開心六九 (003:119)"),
]


@pytest.mark.parametrize("rule, holds, fails", [
    (f"{T}#69", DUTY["死門"], DUTY["驚門"]),  # 芮禽死使二三連: the 三 is a variant row (probably corrupt)
    (f"{T}#73", DUTY["開門"], DUTY["驚門"]),  # 開心六九: the 九 is a variant row
])
def test_mended_variant_rows(rule, holds, fails):
    assert _findings(holds, "穿地", variants=True).get(rule) == "needs_judgment"
    assert rule not in _findings(fails, "穿地", variants=True)


def test_two_numbers_leave_the_choice_to_the_vigour():
    """休囚旺相從心豁 (003:119): which of a pair's two numbers counts is the reader's; a single number is not."""
    found = _findings(DUTY["休門"], "穿地")
    assert found[f"{T}#62"] == found[f"{T}#63"] == "needs_judgment"
    assert _findings(DUTY["傷門"], "穿地")[f"{T}#56"] == "holds"


def test_chong_shang_in_gen_needs_judgment():
    """沖傷加艮在巽生 (003:31): with 傷門 in 艮 the turning plate has 生門 in 坎, so 在巽生 is left to the
    reader; the rows hold (needing judgment) where 天沖 and 傷門 stand in 艮, not where 傷門 alone does."""
    found = _findings("1960-08-13T13:30:00+08:00", "天時")
    assert all(found.get(f"{E}#{n}") == "needs_judgment" for n in (10, 11, 12, 13))
    assert not any(f"{E}#{n}" in _findings("1973-07-24T19:05:00+08:00", "天時") for n in (10, 11, 12, 13))


def test_a_burial_line_needs_judgment():
    """葬有長堤對酒爐 (003:115) is said of a burial site, which no chart slot tells."""
    found = _findings(DUTY["驚門"], "地理")
    assert found[f"{T}#38"] == found[f"{T}#39"] == "needs_judgment"


def test_the_year_view_seasons_say_when_not_whether():
    """003:79 天蓬所臨之方 … 夏水漂沒: the 年景 rows are read on the 立春 chart (003:75), a 寅 month; their season
    (season= qualifier) is when in the year the event comes, not a condition on the chart's month, so the
    summer flood is found there too (it could never hold on a 立春 chart)."""
    from leishen.service.book import reader as shared_reader
    r = shared_reader()
    chart = build_chart(datetime.fromisoformat("2025-02-04T12:00:00+08:00"))
    assert chart["pillars"]["month"][1] == "寅"
    found = {f["rule"]["fact"]: f for f in r.read(chart, topic="年景")["findings"]}
    flood = found["facts/003/k_year_regions.csv#74"]
    assert flood["meaning"]["zh"] == "水澇" and dict(r.facts[flood["rule"]["fact"]].qualifiers)["season"] == r.lex.id("Season", "夏")
