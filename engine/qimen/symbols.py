"""Symbols and fixed tables of the hour Qimen (時家奇門), as data.

Palaces are numbered by the 洛書 (Luo Shu): 坎1 坤2 震3 巽4 中5 乾6 兌7 艮8 離9.
All names are traditional characters. Simplified or short spellings met in books and
peers are listed in the ``*_ALIASES`` tables and normalised by :mod:`.validate`.
"""

from __future__ import annotations

from leishen.engine.calendar import BRANCHES, SOLAR_TERMS, STEMS

__all__ = [
    "BRANCHES", "STEMS", "SOLAR_TERMS", "PALACES", "PALACE_NAMES", "RING", "RING_POS", "STAR_HOME",
    "STARS", "GATE_HOME", "GATES", "DEITIES_MODERN", "DEITIES_YANG_CLASSICAL", "ALL_DEITIES",
    "YI_QI_ORDER", "XUN_YI", "TERM_JU", "YANG_TERMS", "HORSE", "BRANCH_PALACE",
    "STAR_ALIASES", "GATE_ALIASES", "DEITY_ALIASES", "DUN_ALIASES",
]

#: The nine palaces and their trigram names.
PALACES = (1, 2, 3, 4, 5, 6, 7, 8, 9)
PALACE_NAMES = {1: "坎", 2: "坤", 3: "震", 4: "巽", 5: "中", 6: "乾", 7: "兌", 8: "艮", 9: "離"}

#: The eight outer palaces in clockwise order on the chart (south up): 坎 艮 震 巽 離 坤 兌 乾.
RING = (1, 8, 3, 4, 9, 2, 7, 6)
RING_POS = {palace: i for i, palace in enumerate(RING)}

#: The nine stars (九星) at their home palaces (原宮).
STAR_HOME = {1: "天蓬", 2: "天芮", 3: "天沖", 4: "天輔", 5: "天禽", 6: "天心", 7: "天柱", 8: "天任", 9: "天英"}
STARS = tuple(STAR_HOME[p] for p in PALACES)

#: The eight gates (八門) at their home palaces; the centre has none.
GATE_HOME = {1: "休門", 8: "生門", 3: "傷門", 4: "杜門", 9: "景門", 2: "死門", 7: "驚門", 6: "開門"}
GATES = tuple(GATE_HOME[p] for p in RING)

#: The eight deities (八神) in their order of placement, starting from 值符.
DEITIES_MODERN = ("值符", "螣蛇", "太陰", "六合", "白虎", "玄武", "九地", "九天")
#: The older naming for 陽遁: 勾陳 and 朱雀 stand where 白虎 and 玄武 stand in 陰遁.
DEITIES_YANG_CLASSICAL = ("值符", "螣蛇", "太陰", "六合", "勾陳", "朱雀", "九地", "九天")
ALL_DEITIES = frozenset(DEITIES_MODERN + DEITIES_YANG_CLASSICAL)

#: 六儀三奇 in the order they are laid on the earth plate from the palace of the 局.
YI_QI_ORDER = "戊己庚辛壬癸丁丙乙"

#: The 儀 under which each 旬's 甲 hides (六甲遁於六儀): 甲子戊 甲戌己 甲申庚 甲午辛 甲辰壬 甲寅癸.
XUN_YI = "戊己庚辛壬癸"

#: 局 of the 上 中 下元 for each solar term (拆補 and 置閏 share this table).
#: 陽遁: 冬至 驚蟄 一七四 … ; 陰遁: 夏至 白露 九三六 … (the 八節 take their own palace as 上元).
TERM_JU = {
    "冬至": (1, 7, 4), "小寒": (2, 8, 5), "大寒": (3, 9, 6), "立春": (8, 5, 2),
    "雨水": (9, 6, 3), "驚蟄": (1, 7, 4), "春分": (3, 9, 6), "清明": (4, 1, 7),
    "穀雨": (5, 2, 8), "立夏": (4, 1, 7), "小滿": (5, 2, 8), "芒種": (6, 3, 9),
    "夏至": (9, 3, 6), "小暑": (8, 2, 5), "大暑": (7, 1, 4), "立秋": (2, 5, 8),
    "處暑": (1, 4, 7), "白露": (9, 3, 6), "秋分": (7, 1, 4), "寒露": (6, 9, 3),
    "霜降": (5, 8, 2), "立冬": (6, 9, 3), "小雪": (5, 8, 2), "大雪": (4, 7, 1),
}
#: The twelve terms of 陽遁 (冬至 … 芒種); the other twelve are 陰遁.
YANG_TERMS = frozenset(("冬至", "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小滿", "芒種"))

#: 驛馬 of a branch by its 三合 group: 申子辰馬在寅, 寅午戌馬在申, 巳酉丑馬在亥, 亥卯未馬在巳.
HORSE = {
    "申": "寅", "子": "寅", "辰": "寅", "寅": "申", "午": "申", "戌": "申",
    "巳": "亥", "酉": "亥", "丑": "亥", "亥": "巳", "卯": "巳", "未": "巳",
}

#: The palace each branch belongs to (子1 丑寅8 卯3 辰巳4 午9 未申2 酉7 戌亥6).
BRANCH_PALACE = {
    "子": 1, "丑": 8, "寅": 8, "卯": 3, "辰": 4, "巳": 4,
    "午": 9, "未": 2, "申": 2, "酉": 7, "戌": 6, "亥": 6,
}

#: Other spellings of the same symbol (simplified, short, variant), mapped to the form used here,
#: one table per kind of field (a short name such as 陰 means 太陰 as a deity but 陰遁 as a dun).
STAR_ALIASES = {
    "蓬": "天蓬", "芮": "天芮", "沖": "天沖", "衝": "天沖", "冲": "天沖", "輔": "天輔", "辅": "天輔",
    "禽": "天禽", "心": "天心", "柱": "天柱", "任": "天任", "英": "天英",
    "天衝": "天沖", "天冲": "天沖", "天辅": "天輔",
}
GATE_ALIASES = {
    "休": "休門", "生": "生門", "傷": "傷門", "杜": "杜門", "景": "景門", "死": "死門", "驚": "驚門", "開": "開門",
    "伤": "傷門", "惊": "驚門", "开": "開門", "休门": "休門", "生门": "生門", "伤门": "傷門", "杜门": "杜門",
    "景门": "景門", "死门": "死門", "惊门": "驚門", "开门": "開門",
}
DEITY_ALIASES = {
    "符": "值符", "直符": "值符", "蛇": "螣蛇", "騰蛇": "螣蛇", "腾蛇": "螣蛇", "陰": "太陰", "太阴": "太陰",
    "合": "六合", "虎": "白虎", "玄": "玄武", "元武": "玄武", "地": "九地", "天": "九天",
    "勾": "勾陳", "勾陈": "勾陳", "雀": "朱雀",
}
DUN_ALIASES = {"阳": "陽", "阴": "陰", "陽遁": "陽", "陰遁": "陰", "阳遁": "陽", "阴遁": "陰"}
