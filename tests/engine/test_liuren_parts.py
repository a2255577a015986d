"""The small parts of a Liu Ren chart: generals, 旬空, 遁干, 驛馬, 行年, 月將 and the options."""

from __future__ import annotations

import copy

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from leishen.engine.calendar import BRANCHES, moment_facts, sexagenary_index, sexagenary_name
from leishen.engine.liuren.chart import liuren_chart, month_general
from leishen.engine.liuren.generals import generals_on_plate, is_daytime, noble_branch, runs_forward
from leishen.engine.liuren.options import DayNight, LiurenOptions, MonthGeneralRule, NobleTable
from leishen.engine.liuren.shensha import ben_ming, dun_stems, horse, void_branches, xing_nian, xun_head
from leishen.engine.liuren.tables import GENERALS
from leishen.errors import ChartError

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize("table", list(NobleTable))
def test_each_general_rides_exactly_one_branch(table):
    for stem in range(10):
        for offset in range(12):
            for daytime in (True, False):
                placed = generals_on_plate(stem, offset, daytime, table)
                assert sorted(placed) == sorted(GENERALS)


def test_generals_run_forward_from_hai_to_chen_and_backward_from_si_to_xu():
    for noble in range(12):
        for offset in range(12):
            seat = (noble - offset) % 12
            assert runs_forward(noble, offset) == (BRANCHES[seat] in "亥子丑寅卯辰")


def test_noble_tables_agree_except_where_the_rhymes_differ():
    daquan = [(noble_branch(s, True, NobleTable.DAQUAN), noble_branch(s, False, NobleTable.DAQUAN)) for s in range(10)]
    assert [BRANCHES[d] + BRANCHES[n] for d, n in daquan] == \
        ["丑未", "子申", "亥酉", "亥酉", "丑未", "子申", "丑未", "午寅", "巳卯", "巳卯"]
    tongshu = [noble_branch(s, True, NobleTable.TONGSHU) for s in range(10)]
    assert [BRANCHES[b] for b in tongshu][8:] == ["卯", "卯"]
    yang_yin = [BRANCHES[noble_branch(s, True, NobleTable.YANG_YIN)] for s in range(10)]
    assert "".join(yang_yin) == "未申酉亥丑子丑寅卯巳"


def test_day_and_night():
    assert [is_daytime(h, DayNight.BY_HOUR) for h in range(12)] == [False] * 3 + [True] * 6 + [False] * 3
    assert is_daytime(0, DayNight.DAY) and not is_daytime(6, DayNight.NIGHT)


def test_void_branches_of_each_decade_as_in_000_75():
    """甲子旬 戌亥, 甲戌旬 申酉, 甲申旬 午未, 甲午旬 辰巳, 甲辰旬 寅卯, 甲寅旬 子丑 (000:75)."""
    expected = ["戌亥", "申酉", "午未", "辰巳", "寅卯", "子丑"]
    for decade, pair in enumerate(expected):
        for k in range(10):
            day = decade * 10 + k
            assert "".join(BRANCHES[b] for b in void_branches(day)) == pair
            assert xun_head(day) == decade * 10


def test_dun_stems_fill_the_decade():
    dun = dun_stems(sexagenary_index("丙午"))          # 甲辰旬: 辰 甲 … 丑 癸, 寅卯 empty
    assert {BRANCHES[b]: s for b, s in dun.items()}["辰"] == 0
    assert set(BRANCHES[b] for b in range(12) if b not in dun) == {"寅", "卯"}


def test_horse_by_triple():
    """000:59: 亥卯未 → 巳, 寅午戌 → 申, 巳酉丑 → 亥, 申子辰 → 寅."""
    for group, target in (("亥卯未", "巳"), ("寅午戌", "申"), ("巳酉丑", "亥"), ("申子辰", "寅")):
        assert {BRANCHES[horse(BRANCHES.index(b))] for b in group} == {target}


def test_ben_ming_and_xing_nian():
    assert ben_ming(1984) == "甲子"
    assert xing_nian(1984, 1984, "male") == "丙寅"
    assert xing_nian(1984, 1993, "male") == sexagenary_name(sexagenary_index("丙寅") + 9)
    assert xing_nian(1984, 1985, "female") == "辛未"
    with pytest.raises(ChartError, match="sex"):
        xing_nian(1984, 1990, "other")
    with pytest.raises(ChartError, match="birth_year"):
        xing_nian(2000, 1990, "male")


def test_month_general_follows_the_middle_term():
    before = moment_facts(datetime(2024, 8, 20, 12, tzinfo=SHANGHAI))    # 大暑 in force → 午
    after = moment_facts(datetime(2024, 8, 26, 12, tzinfo=SHANGHAI))     # 處暑 in force → 巳
    assert BRANCHES[month_general(before, MonthGeneralRule.MIDDLE_TERM)] == "午"
    assert BRANCHES[month_general(after, MonthGeneralRule.MIDDLE_TERM)] == "巳"


def test_lunar_month_general_option():
    """000:71 lists 月將 by month: 正月亥 … In 2024 正月 began 10 Feb; 雨水 came on 19 Feb."""
    facts = moment_facts(datetime(2024, 2, 12, 12, tzinfo=SHANGHAI))
    assert BRANCHES[month_general(facts, MonthGeneralRule.LUNAR_MONTH)] == "亥"
    assert BRANCHES[month_general(facts, MonthGeneralRule.MIDDLE_TERM)] == "子"   # still 大寒


def test_options_from_strings_name_the_bad_field():
    assert LiurenOptions.from_mapping({"shehai": "meng_zhong_ji"}).shehai.value == "meng_zhong_ji"
    with pytest.raises(ChartError) as bad_value:
        LiurenOptions.from_mapping({"shehai": "deep"})
    assert str(bad_value.value) == "liuren.options.shehai: 'deep' is not one of depth, meng_zhong_ji"
    with pytest.raises(ChartError, match=r"liuren.options.colour: unknown option"):
        LiurenOptions.from_mapping({"colour": "red"})


def test_chart_carries_year_month_and_birth_extras():
    chart = liuren_chart(datetime(2024, 3, 1, 10, tzinfo=SHANGHAI), birth_year=1990, sex="female")
    assert chart["tai_sui"] == "辰" and chart["month_branch"] == "寅"
    assert chart["birth"]["ben_ming"] == "庚午" and chart["birth"]["xing_nian"]
    assert chart["options"] == LiurenOptions().to_dict()


def test_returned_sections_share_read_only_parts_and_deepcopy_is_writable():
    first = liuren_chart(datetime(2024, 3, 1, 10, tzinfo=SHANGHAI))
    first["transmissions"][0] = "X"                               # lists are fresh on every call
    first["month_general"] = "X"
    with pytest.raises(TypeError, match="read-only"):
        first["plate"]["子"] = "X"
    with pytest.raises(TypeError, match="read-only"):
        first["lessons"][0]["upper"] = "X"
    again = liuren_chart(datetime(2024, 3, 1, 10, tzinfo=SHANGHAI))
    assert again["transmissions"][0] != "X" and again["month_general"] != "X"
    thawed = copy.deepcopy(again)
    thawed["plate"]["子"] = "X"
    thawed["lessons"][0]["upper"] = "X"
    assert type(thawed["plate"]) is dict and liuren_chart(datetime(2024, 3, 1, 10, tzinfo=SHANGHAI))["plate"]["子"] != "X"


def test_section_inputs_are_checked_by_name():
    from leishen.engine.liuren.chart import liuren_section
    with pytest.raises(ChartError, match=r"^liuren.day: '甲丑'"):
        liuren_section("甲丑", "子", "丑")
    with pytest.raises(ChartError, match=r"^liuren.hour_branch: 'Z'"):
        liuren_section("甲子", "Z", "丑")
    with pytest.raises(ChartError, match=r"^liuren.month_general: '午未'"):
        liuren_section("甲子", "子", "午未")
