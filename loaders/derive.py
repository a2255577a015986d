"""The tables that arithmetic can compute, to compare with the texts' literal rows.

Each function states its classical rule; ``tests/`` compare them with the fact tables (derived
vs literal), and the places where the text departs are kept in the tables as flagged variants.
Branch and stem indices: 子=0 … 亥=11, 甲=0 … 癸=9.
"""

from __future__ import annotations

STEMS = "甲乙丙丁戊己庚辛壬癸"
BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
ELEMENTS = "木火土金水"  # in generating order: 木生火, 火生土, 土生金, 金生水, 水生木
STAGES = ("長生", "沐浴", "冠帶", "臨官", "帝旺", "衰",
          "病", "死", "墓", "絕", "胎", "養")
KIN = "印盜鬼財劫"
VIGOURS = "旺相休囚死"
SEASON_ELEMENT = {"春": "木", "夏": "火", "季": "土", "秋": "金", "冬": "水"}
_BRANCH_ELEMENT = "水土木木土火火土金金土水"
XUN_HEADS = ("甲子", "甲戌", "甲申", "甲午", "甲辰", "甲寅")


def stem_element(stem: str) -> str:
    """十干五行: 甲乙木 丙丁火 戊己土 庚辛金 壬癸水."""
    return ELEMENTS[STEMS.index(stem) // 2]


def branch_element(branch: str) -> str:
    """地支五行: 寅卯木 巳午火 申酉金 亥子水 辰戌丑未土."""
    return _BRANCH_ELEMENT[BRANCHES.index(branch)]


def generates(a: str, b: str) -> bool:
    """五行相生: 木生火, 火生土, 土生金, 金生水, 水生木."""
    return ELEMENTS[(ELEMENTS.index(a) + 1) % 5] == b


def overcomes(a: str, b: str) -> bool:
    """五行相剋: 木剋土, 土剋水, 水剋火, 火剋金, 金剋木."""
    return ELEMENTS[(ELEMENTS.index(a) + 2) % 5] == b


def kin(stem: str, branch: str) -> str:
    """五類用神 of *branch* for a day *stem*: 生我印, 我生盜, 剋我鬼, 我剋財, 同我劫."""
    me, it = stem_element(stem), branch_element(branch)
    if it == me:
        return "劫"
    if generates(it, me):
        return "印"
    if generates(me, it):
        return "盜"
    return "鬼" if overcomes(it, me) else "財"


_BIRTH = {"甲": "亥", "乙": "午", "丙": "寅", "戊": "寅", "丁": "酉", "己": "酉",
          "庚": "巳", "辛": "子", "壬": "申", "癸": "卯"}


def life_stage(stem: str, branch: str) -> str:
    """十二長生: 長生 at 甲亥 乙午 丙戊寅 丁己酉 庚巳 辛子 壬申 癸卯; 陽干 run forward, 陰干 backward."""
    step = BRANCHES.index(branch) - BRANCHES.index(_BIRTH[stem])
    if STEMS.index(stem) % 2:
        step = -step
    return STAGES[step % 12]


def clash(branch: str) -> str:
    """六沖: 子午 丑未 寅申 卯酉 辰戌 巳亥 (six apart)."""
    return BRANCHES[(BRANCHES.index(branch) + 6) % 12]


def six_combination(branch: str) -> str:
    """六合: 子丑 寅亥 卯戌 辰酉 巳申 午未 (indices sum to 1 mod 12)."""
    return BRANCHES[(1 - BRANCHES.index(branch)) % 12]


def harm(branch: str) -> str:
    """六害: 子未 丑午 寅巳 卯辰 申亥 酉戌 (indices sum to 7 mod 12)."""
    return BRANCHES[(7 - BRANCHES.index(branch)) % 12]


def destruction(branch: str) -> str:
    """六破: 子酉 午卯 丑辰 戌未 亥寅 申巳 (陽支 +9, 陰支 +3)."""
    i = BRANCHES.index(branch)
    return BRANCHES[(i + (9 if i % 2 == 0 else 3)) % 12]


_PUNISH = dict(zip("寅巳申丑戌未子卯辰午酉亥", "巳申寅戌未丑卯子辰午酉亥"))


def punishment(branch: str) -> str:
    """三刑: 寅刑巳 巳刑申 申刑寅 (無恩); 丑刑戌 戌刑未 未刑丑 (恃勢); 子卯 (無禮); 辰午酉亥 自刑."""
    return _PUNISH[branch]


def frame(branch: str) -> str:
    """三合: 申子辰 亥卯未 寅午戌 巳酉丑 — the frame a branch belongs to."""
    return next(f for f in ("申子辰", "亥卯未", "寅午戌", "巳酉丑") if branch in f)


def horse(branch: str) -> str:
    """驛馬: the branch that clashes with the frame's first (生) branch: 申子辰→寅, 寅午戌→申, 巳酉丑→亥, 亥卯未→巳."""
    return clash(frame(branch)[0])


def xun_void(xun_head: str) -> tuple[str, str]:
    """旬空: the two branches left without a stem in the decade: 甲子旬 戌亥 … 甲寅旬 子丑."""
    start = BRANCHES.index(xun_head[1])
    return BRANCHES[(start + 10) % 12], BRANCHES[(start + 11) % 12]


def vigour(season: str, branch: str) -> str:
    """旺相休囚死 by season: same phase 旺, phase the season generates 相, phase that generates the season 休,
    phase that overcomes the season 囚, phase the season overcomes 死."""
    s, it = SEASON_ELEMENT[season], branch_element(branch)
    if it == s:
        return "旺"
    if generates(s, it):
        return "相"
    if generates(it, s):
        return "休"
    return "囚" if overcomes(it, s) else "死"


def month_branch(month: int) -> str:
    """月建: 正月寅 … 十二月丑."""
    return BRANCHES[(month + 1) % 12]


def month_general_by_month(month: int) -> str:
    """月將 by lunar month as 000 gives it: 正月亥, 二月戌 … 十二月子 (moving backwards)."""
    return BRANCHES[(12 - month) % 12]
