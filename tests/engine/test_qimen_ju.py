"""陰陽遁 and 局: the 三元 of the day, 拆補 and 置閏 (超神 / 接氣 / 閏)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from leishen.engine.calendar import CHINA_STANDARD_TIME, SOLAR_TERMS, sexagenary_index, solar_term, terms_between
from leishen.engine.qimen.ju import (
    chai_bu, day_number, dun_of_term, fu_tou_of_day, ju_of_term, sexagenary_of_day_number, yuan_of_day, zhi_run,
)
from leishen.errors import ChartError

CST = CHINA_STANDARD_TIME


def test_yuan_follows_the_fu_tou_branch():
    """符頭 on 子午卯酉 → 上元, 寅申巳亥 → 中元, 辰戌丑未 → 下元."""
    for fu_tou, yuan in (("甲子", 0), ("己卯", 0), ("甲午", 0), ("己酉", 0), ("甲寅", 1), ("己巳", 1),
                         ("甲申", 1), ("己亥", 1), ("甲辰", 2), ("己未", 2), ("甲戌", 2), ("己丑", 2)):
        start = sexagenary_index(fu_tou)
        for offset in range(5):
            assert yuan_of_day((start + offset) % 60) == yuan
            assert fu_tou_of_day((start + offset) % 60) == fu_tou


def test_chai_bu_reads_the_term_table():
    assert chai_bu("冬至", sexagenary_index("甲子")).ju == 1
    assert chai_bu("冬至", sexagenary_index("辛未")).ju == 7          # 符頭 己巳 → 中元
    assert chai_bu("冬至", sexagenary_index("戊寅")).ju == 4          # 符頭 甲戌 → 下元
    assert chai_bu("夏至", sexagenary_index("己卯")).ju == 9
    assert chai_bu("夏至", sexagenary_index("己卯")).dun == "陰"
    assert ju_of_term("大雪", 2) == ("陰", 1)
    with pytest.raises(ChartError, match=r"^term: 'Spring'"):
        ju_of_term("Spring", 0)


def test_dun_halves():
    assert [dun_of_term(t) for t in SOLAR_TERMS].count("陽") == 12
    assert dun_of_term("冬至") == dun_of_term("芒種") == "陽"
    assert dun_of_term("夏至") == dun_of_term("大雪") == "陰"


def test_day_numbers_match_the_calendar_day_cycle():
    assert sexagenary_of_day_number(date(1952, 12, 26).toordinal()) == sexagenary_index("丙午")
    late = datetime(2024, 2, 9, 23, 30)
    assert day_number(late) == date(2024, 2, 10).toordinal()
    assert day_number(late, "00:00") == date(2024, 2, 9).toordinal()


def _noon(d: date) -> datetime:
    return datetime(d.year, d.month, d.day, 12, tzinfo=CST)


def _days(start: date, end: date):
    d = start
    while d < end:
        yield d
        d += timedelta(days=1)


def _sequential_zhi_run(start: date, end: date, threshold: int = 9) -> dict[int, tuple[str, bool]]:
    """置閏 run term by term from a 正授-like start, the textbook way: block after block of 15 days.

    Start at the first 芒種/大雪 after *start* with the 符頭 that leads it by threshold-15 .. threshold-1
    days, then: every term takes the next block; at 芒種/大雪 a lead of *threshold* days or more doubles it.
    """
    terms = [(name, day_number(instant.replace(tzinfo=None))) for name, instant in terms_between(_noon(start), _noon(end))]
    first = next(i for i, (name, _) in enumerate(terms) if name in ("芒種", "大雪"))
    term_day = terms[first][1]
    block = next(n for n in range(term_day - threshold + 1, term_day - threshold + 16)
                 if sexagenary_of_day_number(n) % 15 == 0)
    table: dict[int, tuple[str, bool]] = {}
    for name, day in terms[first:]:
        for n in range(block, block + 15):
            table[n] = (name, False)
        block += 15
        if name in ("芒種", "大雪") and day - (block - 15) >= threshold:
            for n in range(block, block + 15):
                table[n] = (name, True)
            block += 15
    return table


@pytest.mark.parametrize("threshold, years", [(9, (1990, 2030)), (10, (2000, 2020))])
def test_zhi_run_local_rule_equals_the_sequential_run(threshold, years):
    table = _sequential_zhi_run(date(years[0] - 5, 1, 1), date(years[1] + 1, 1, 1), threshold)
    checked = 0
    for d in _days(date(years[0], 1, 1), date(years[1], 1, 1)):
        facts = zhi_run(_noon(d), leap_threshold=threshold)
        assert (facts.term, facts.leap) == table[d.toordinal()], d
        checked += 1
    assert checked > 7000


def test_zhi_run_blocks_and_leaps():
    """Every term runs 15 days (three whole 元); 閏 only at 芒種/大雪 after a lead of 9+ days."""
    runs: list[list] = []
    for d in _days(date(1960, 1, 1), date(2020, 1, 1)):
        facts = zhi_run(_noon(d))
        key = (facts.term, facts.leap)
        if runs and runs[-1][0] == key:
            runs[-1][1] += 1
        else:
            runs.append([key, 1, facts.lead_days, d])
        assert facts.fu_tou[0] in "甲己"
    inner = runs[1:-1]
    assert all(length == 15 for _, length, _, _ in inner)
    leaps = [run for run in inner if run[0][1]]
    assert leaps and all(term in ("芒種", "大雪") for (term, _), _, _, _ in leaps)
    for i, run in enumerate(inner):
        if run[0][1]:
            assert inner[i - 1][0][0] == run[0][0] and inner[i - 1][2] >= 9          # 超神 of 9+ days before the 閏
    assert 18 <= len(leaps) <= 24                                                     # about one 閏 every 2.9 years
    assert min(run[2] for run in inner) >= -9 and max(run[2] for run in inner) <= 14


def test_zhi_run_agrees_with_chai_bu_inside_zheng_shou_blocks():
    """正授 (the 符頭 on the term's day): apart from the term's own day, both methods give the same 局."""
    compared = 0
    for d in _days(date(2000, 1, 1), date(2012, 1, 1)):
        facts = zhi_run(_noon(d))
        if facts.lead_days == 0 and not facts.leap:
            block_day = (d.toordinal() - facts.lead_days) - (sexagenary_of_day_number(d.toordinal()) % 15)
            if d.toordinal() == block_day:
                continue
            other = chai_bu(solar_term(_noon(d))[0], sexagenary_of_day_number(d.toordinal()))
            assert (other.dun, other.ju) == (facts.dun, facts.ju), d
            compared += 1
    assert compared > 50


def test_zhi_run_threshold_is_checked():
    with pytest.raises(ChartError, match=r"^leap_threshold: 0"):
        zhi_run(_noon(date(2024, 1, 1)), leap_threshold=0)
