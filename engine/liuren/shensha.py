"""旬, 旬空, 遁干, 驛馬, 月建, 太歲, 本命 and 行年 — small calendar facts a chart carries."""

from __future__ import annotations

from leishen.engine.calendar import sexagenary_index, sexagenary_name
from leishen.engine.liuren.options import VoidException
from leishen.engine.liuren.tables import HORSE, STEM_LU
from leishen.errors import ChartError

#: 行年: a man is in 丙寅 at nominal age 1 and moves forward; a woman in 壬申 and moves backward
XING_NIAN_START = {"male": (sexagenary_index("丙寅"), 1), "female": (sexagenary_index("壬申"), -1)}


def xun_head(day: int) -> int:
    """Sexagenary index of the 旬首 (甲子 甲戌 … 甲寅) of the decade holding day index *day*."""
    return day - day % 10


def void_branches(day: int) -> tuple[int, int]:
    """旬空: the two branches the decade leaves without a stem (甲子旬 戌亥 … 甲寅旬 子丑)."""
    head_branch = xun_head(day) % 12
    return (head_branch + 10) % 12, (head_branch + 11) % 12


def void_with_exception(day: int, exception: VoidException) -> tuple[int, ...]:
    """旬空 under the option ``void_exception``: the 旬's two void branches (000:75), less the day stem's 祿
    with ``lu_not_void`` (X日Y不空, 002:147: 壬申 day in 甲子旬, 亥 is not void)."""
    void = void_branches(day)
    if exception is VoidException.LU_NOT_VOID:
        lu = STEM_LU[day % 10]
        return tuple(b for b in void if b != lu)
    return void


def dun_stems(day: int) -> dict[int, int]:
    """遁干: the stem each branch takes within the day's 旬 (the two void branches take none)."""
    head = xun_head(day)
    return {(head + k) % 12: k for k in range(10)}


def horse(branch: int) -> int:
    """驛馬 of a branch (the clash of its 三合's 長生): 申子辰寅 寅午戌申 巳酉丑亥 亥卯未巳."""
    return HORSE[branch]


def ben_ming(birth_year: int) -> str:
    """本命: the stem-branch of a (sexagenary) birth year, e.g. 1984 → 甲子."""
    return sexagenary_name(birth_year - 4)


def xing_nian(birth_year: int, chart_year: int, sex: str) -> str:
    """行年 for a nominal age (虛歲) of ``chart_year − birth_year + 1``.

    男一歲起丙寅順行, 女一歲起壬申逆行 (《六壬大全》 卷一 行年).
    """
    if sex not in XING_NIAN_START:
        raise ChartError(f"sex: {sex!r} is not one of male, female (needed for 行年)")
    age = chart_year - birth_year + 1
    if age < 1:
        raise ChartError(f"birth_year: {birth_year} is after the chart's year {chart_year}")
    start, step = XING_NIAN_START[sex]
    return sexagenary_name(start + step * (age - 1))
