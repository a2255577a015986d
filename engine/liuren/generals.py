"""天將: the twelve generals placed on the heaven plate from the 天乙貴人."""

from __future__ import annotations

from functools import lru_cache

from leishen.engine.liuren.lessons import earth_under
from leishen.engine.liuren.options import DayNight, NobleTable
from leishen.engine.liuren.tables import GENERALS, NOBLE_DAQUAN, NOBLE_TONGSHU, NOBLE_YANG_YIN

NOBLE_TABLES = {NobleTable.DAQUAN: NOBLE_DAQUAN, NobleTable.TONGSHU: NOBLE_TONGSHU,
                NobleTable.YANG_YIN: NOBLE_YANG_YIN}
#: earth seats from which the generals run forward (順): 亥子丑寅卯辰; from 巳午未申酉戌 backward (逆)
FORWARD_SEATS = frozenset((11, 0, 1, 2, 3, 4))


def is_daytime(hour_branch: int, rule: DayNight) -> bool:
    """晝 or 夜: by the hour (卯 to 申 are 晝), or forced by the option."""
    if rule is DayNight.DAY:
        return True
    if rule is DayNight.NIGHT:
        return False
    return 3 <= hour_branch <= 8


def noble_branch(day_stem: int, daytime: bool, table: NobleTable) -> int:
    """The heaven-plate branch of 貴人 for the day stem (晝貴 or 夜貴) in the chosen table."""
    day_noble, night_noble = NOBLE_TABLES[table][day_stem]
    return day_noble if daytime else night_noble


def runs_forward(noble: int, offset: int) -> bool:
    """順 when 貴人 stands on earth 亥子丑寅卯辰, 逆 on 巳午未申酉戌."""
    return earth_under(noble, offset) in FORWARD_SEATS


@lru_cache(maxsize=4096)
def generals_on_plate(day_stem: int, offset: int, daytime: bool, table: NobleTable) -> tuple[str, ...]:
    """General riding each heaven-plate branch (index = branch): 貴人 螣蛇 朱雀 六合 勾陳 青龍
    天空 白虎 太常 玄武 太陰 天后, one per branch, forward or backward from 貴人."""
    noble = noble_branch(day_stem, daytime, table)
    step = 1 if runs_forward(noble, offset) else -1
    placed = [""] * 12
    for order, general in enumerate(GENERALS):
        placed[(noble + step * order) % 12] = general
    return tuple(placed)
