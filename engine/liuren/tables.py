"""Fixed tables of Da Liu Ren, kept as data (indices into STEMS / BRANCHES).

Each table names its rule in the classical wording; the arithmetic users are in
the sibling modules. Nothing here depends on a school option except the 貴人
tables, which are keyed by :class:`~leishen.engine.liuren.options.NobleTable`.
"""

from __future__ import annotations

from leishen.engine.calendar import BRANCHES, STEMS

ELEMENTS = "木火土金水"
WOOD, FIRE, EARTH, METAL, WATER = range(5)

#: element of each stem: 甲乙木 丙丁火 戊己土 庚辛金 壬癸水
STEM_ELEMENT = (WOOD, WOOD, FIRE, FIRE, EARTH, EARTH, METAL, METAL, WATER, WATER)
#: element of each branch: 子水 丑土 寅木 卯木 辰土 巳火 午火 未土 申金 酉金 戌土 亥水
BRANCH_ELEMENT = (WATER, EARTH, WOOD, WOOD, EARTH, FIRE, FIRE, EARTH, METAL, METAL, EARTH, WATER)

#: 日干寄宮: 甲寅 乙辰 丙戊巳 丁己未 庚申 辛戌 壬亥 癸丑 (stem index → branch index)
STEM_LODGING = (2, 4, 5, 7, 5, 7, 8, 10, 11, 1)
#: the stems lodged at each branch (the inverse of STEM_LODGING)
LODGED_STEMS = tuple(tuple(s for s, b in enumerate(STEM_LODGING) if b == branch) for branch in range(12))

#: 祿 (the 臨官 of a stem): 甲祿在寅 乙祿在卯 丙戊祿在巳 丁己祿在午 庚祿在申 辛祿在酉 壬祿在亥 癸祿在子
STEM_LU = (2, 3, 5, 6, 5, 6, 8, 9, 11, 0)

#: 刑 (three punishments): the 寅→巳→申 cycle, the 丑→戌→未 cycle, 子 and 卯 each other,
#: and self-punishment of 辰 午 酉 亥
PUNISHMENT = (3, 10, 5, 0, 4, 8, 6, 1, 2, 9, 7, 11)

#: 驛馬 of a branch: 申子辰馬在寅, 寅午戌馬在申, 巳酉丑馬在亥, 亥卯未馬在巳
HORSE = tuple((2, 11, 8, 5)[b % 4] for b in range(12))

#: 干合: 甲己 乙庚 丙辛 丁壬 戊癸
STEM_COMBINATION = tuple((s + 5) % 10 for s in range(10))

#: 孟 寅申巳亥, 仲 子午卯酉, 季 辰戌丑未
MENG = frozenset((2, 5, 8, 11))
ZHONG = frozenset((0, 3, 6, 9))

#: the twelve generals in their order of placement from 貴人
GENERALS = ("貴人", "螣蛇", "朱雀", "六合", "勾陳", "青龍",
            "天空", "白虎", "太常", "玄武", "太陰", "天后")

#: 月將 by the 中氣 in force: 雨水亥 春分戌 穀雨酉 小滿申 夏至未 大暑午 處暑巳 秋分辰 霜降卯 小雪寅 冬至丑 大寒子
MONTH_GENERAL_BY_MIDDLE_TERM = {
    "雨水": 11, "春分": 10, "穀雨": 9, "小滿": 8, "夏至": 7, "大暑": 6,
    "處暑": 5, "秋分": 4, "霜降": 3, "小雪": 2, "冬至": 1, "大寒": 0,
}
#: 月將 by lunar month (000:71): 正月亥 二月戌 … 十一月丑 十二月子
MONTH_GENERAL_BY_LUNAR_MONTH = {m: (12 - m) % 12 for m in range(1, 13)}

#: the names of the months generals (月將名), for display
GENERAL_NAMES = ("神后", "大吉", "功曹", "太衝", "天罡", "太乙", "勝光", "小吉", "傳送", "從魁", "河魁", "登明")

# 貴人 tables: stem → (晝貴, 夜貴) as branch indices.
#: 甲戊庚牛羊，乙己鼠猴鄉，丙丁豬雞位，壬癸蛇兔藏，六辛逢馬虎 (晝 first)
NOBLE_DAQUAN = ((1, 7), (0, 8), (11, 9), (11, 9), (1, 7), (0, 8), (1, 7), (6, 2), (5, 3), (5, 3))
#: as NOBLE_DAQUAN but 壬癸兔蛇 (晝卯 夜巳): the almanac (通書) form of the same rhyme
NOBLE_TONGSHU = ((1, 7), (0, 8), (11, 9), (11, 9), (1, 7), (0, 8), (1, 7), (6, 2), (3, 5), (3, 5))
#: 陽貴 甲羊戊庚牛，乙猴己鼠求，丙雞丁豬位，壬兔癸蛇遊，六辛逢虎上; 陰貴 the mirror rhyme 甲牛戊庚羊 …
NOBLE_YANG_YIN = ((7, 1), (8, 0), (9, 11), (11, 9), (1, 7), (0, 8), (1, 7), (2, 6), (3, 5), (5, 3))


def stem_index(stem: str) -> int:
    """Index of a heavenly stem character (甲 = 0)."""
    return STEMS.index(stem)


def branch_index(branch: str) -> int:
    """Index of an earthly branch character (子 = 0)."""
    return BRANCHES.index(branch)


def overcomes(a: int, b: int) -> bool:
    """True when element *a* 剋 element *b* (木剋土 土剋水 水剋火 火剋金 金剋木)."""
    return (a + 2) % 5 == b


def is_yang_branch(branch: int) -> bool:
    """子寅辰午申戌 are yang (陽), 丑卯巳未酉亥 yin."""
    return branch % 2 == 0


def is_yang_stem(stem: int) -> bool:
    """甲丙戊庚壬 are yang (剛日), 乙丁己辛癸 yin (柔日)."""
    return stem % 2 == 0
