"""Extractors for the 類象 tables of document 000 (000:91–163): ``X屬Y`` lists.

Each function is named after the fact table it is compared with (``leixiang_<name>.csv``).
Group subjects are expanded (寅卯屬… → 寅, 卯); list items are cut as the tables cut them: at
``、``, at ``亦屬``/``又屬``, and a four-character run of two binomes in two (王侯紳士).
"""

from __future__ import annotations

import re

from leishen.loaders.derive import BRANCHES, STEMS
from leishen.loaders.extract_util import (
    COMMA,
    PERIOD,
    B,
    Row,
    Spec,
    chunks,
    clauses,
    general_items,
    pairs,
    product,
    sections,
    unheaded,
)

SYM = "SYMBOLIZES"
SUBJECTS = (None, ("Branch", "Stem", "General", "Kin", "Shensha", "Vigour"))


def _generals(text: str, split=lambda term: [term], *quals: str) -> set[Row]:
    return {(SYM, g, item, *quals) for g, term in general_items(text) for item in split(term)}


def _modifiers(text: str, *quals: str) -> set[Row]:
    """旺相多, 休囚淡舊: the state of the showing branch modifies the reading."""
    found = set()
    for c in clauses(text, COMMA):
        if m := re.fullmatch("([旺相休囚死]{2})(.+)", c):
            found |= product("MODIFIES", m[1], [m[2]], *quals)
    return found


def mulu(text: str) -> set[Row]:
    """目錄 of the 11 門 (000:91) with their order, and 凡占X參此 closing each 門."""
    found = set()
    if m := re.search("目錄：(.+?)。", text):
        found |= {("HAS_MEMBER", "", d, str(i)) for i, d in enumerate(m[1].split("、"), 1)}
    for m in re.finditer("凡占[、，]?(.+?)者?參此", text):
        found.add(("CONSULTS", m[1], m[1], ""))
    return found


def tianwen(text: str) -> set[Row]:
    """天文 (000:95): sky objects, planets (element, direction), mansions, weather."""
    sky, planets, mansions, weather = clauses(sections(text)[0][1], PERIOD)[:4]
    found = {(SYM, *m.groups()) for c in clauses(sky) if (m := re.fullmatch("(.+)屬(.+)", c))}
    for c in clauses(planets):
        m = re.fullmatch(f"({B}+)屬(.)[方央]((.)星)", c)
        found |= product(SYM, m[1], [m[3]]) | product("HAS_ELEMENT", m[1], m[4])
        found |= product("HAS_DIRECTION", m[1], m[2]) | {("ALLOTTED_TO", m[3], m[2])}
    subject = ""
    for c in clauses(mansions):  # a clause without a subject continues the last one
        m = re.fullmatch(f"({B})?[屬為]?(.+?)宿?", c)
        subject = m[1] or subject
        found |= product(SYM, subject, m[2])
    for c in clauses(weather):
        if m := re.fullmatch(f"([{STEMS}{BRANCHES}]+)[與乘](.+)[屬為](.+)", c):
            found |= product(SYM, [*m[1], *chunks(m[2])], [m[3]])
    return found


def dili(text: str) -> set[Row]:
    """地理 (000:99): places, and per branch direction, mansion field (所照處) and terrain."""
    first, *rest = clauses(sections(text)[0][1], re.compile("[；。]"))
    found = set()
    for c in clauses(first):  # 四方田畝: fields on every side
        m = re.fullmatch(f"({B}+)屬(?:四方)?(.+)", c)
        found |= product(SYM, m[1], [m[2]])
    for seg in rest:
        if m := re.match(f"({B})屬正?(.+?)方?，亦屬(.+?)所照處，?與(.+)地", seg):
            found |= product("HAS_DIRECTION", m[1], [m[2]]) | product(SYM, m[1], m[3])
            found |= product(SYM, m[1], chunks(m[4]))
    return found


def gongshi(text: str) -> set[Row]:
    """宮室 (000:103–107): 子屬後宮、後殿… and 貴人官宦宅…"""
    found = _generals(text)
    for seg in clauses(unheaded(text), re.compile("[；。\n]")):
        if m := re.fullmatch(f"({B})屬(.+)", seg):
            found |= product(SYM, m[1], m[2].split("、"))
    return found


def renwu(text: str) -> set[Row]:
    """人物 (000:111–115): 子屬丫環婦女, 貴人屬王侯紳士, 印煞屬父母, 鬼煞屬官屬夫."""
    found = _generals(text, pairs)
    for c in clauses(unheaded(text), COMMA):
        if m := re.fullmatch(f"({B})屬(.+)", c):
            found |= product(SYM, m[1], pairs(m[2]))
        elif m := re.fullmatch("(.)煞屬(.+)", c):
            found |= product(SYM, m[1], m[2].split("屬"))
    return found


def xingshi(text: str) -> set[Row]:
    """姓氏 (000:119–127): surnames, 上下傍 components, and the generals' kinds of surname."""
    found = _generals(text, lambda term: [term], "")
    for seg in clauses(unheaded(text), PERIOD):
        if m := re.fullmatch(f"({B})屬(.+?)與上下傍(.+)姓", seg):
            found |= product(SYM, m[1], m[2], "") | product(SYM, m[1], m[3].split("、"), "上下傍")
    return found


def zangfu(text: str) -> set[Row]:
    """臟腑 (000:131): 午屬心, 巳屬三焦亦屬小腸, 辰戌屬脾."""
    found = set()
    for c in clauses(unheaded(text), COMMA):
        if m := re.fullmatch(f"({B}+)屬(.+)", c):
            found |= product(SYM, m[1], m[2].split("亦屬"))
    return found


def yinshi(text: str) -> set[Row]:
    """飲食 (000:135–139): 寅卯屬春季所生，或… 與青色物; 貴人珍重食…"""
    found = _generals(text)
    for seg in clauses(unheaded(text), PERIOD):
        if m := re.fullmatch(f"({B}+)屬(.+)", seg):
            found |= product(SYM, m[1], [re.sub("^[或與]", "", t) for t in clauses(m[2], COMMA)])
    return found


def qiyong(text: str) -> set[Row]:
    """器用 (000:143–147): 寅屬桌椅凳杌, 寅卯又屬一應木器與青色物, 貴人珍重物…"""
    found = _generals(text)
    for c in clauses(unheaded(text), COMMA):
        if m := re.fullmatch(f"([{BRANCHES}與]+?)又?屬(.+)", c):
            term = m[2]
            items = term[2:].split("與") if term.startswith("一應") else pairs(term)
            found |= product(SYM, m[1].replace("與", ""), items)
    return found


def shumu(text: str) -> set[Row]:
    """數目 (000:151): 亥子一 … 謂之五行; 子午九 … 謂之先天; 旺相多, 休囚少."""
    found = _modifiers(text, "")
    for seg in clauses(unheaded(text), PERIOD):
        parts = clauses(seg, COMMA)
        system = m[1] if (m := re.fullmatch("謂之(.+)", parts[-1])) else ""
        for c in parts:
            if m := re.fullmatch(f"({B}+)(.)", c):
                found |= product("HAS_NUMBER", m[1], m[2], system)
    return found


def yanse(text: str) -> set[Row]:
    """顏色 (000:155): 寅卯青 …; 旺相鮮明, 休囚淡舊."""
    found = _modifiers(text)
    for c in clauses(unheaded(text), COMMA):
        if m := re.fullmatch(f"({B}+)(.)", c):
            found |= product("HAS_COLOUR", m[1], m[2])
    return found


def dongzhi(text: str) -> set[Row]:
    """飛潛動植 (000:159–163): 子屬鼠 (primary) 亦屬燕蝠類 (secondary); 寅與卯並屬…; 貴人貴重物."""
    found = _generals(text, lambda term: [term], "")
    for c in clauses(unheaded(text), COMMA):
        if m := re.fullmatch(f"({B})屬(.)亦屬(.+)", c):
            found |= {(SYM, m[1], m[2], "primary")} | product(SYM, m[1], m[3].replace("類", ""), "secondary")
        elif m := re.fullmatch(f"({B})與({B})並屬(.+)", c):
            found |= product(SYM, m[1] + m[2], pairs(m[3]), "")
    return found


def _mulu_row(fact: dict) -> Row:
    if fact["relation"] == "HAS_MEMBER":
        return ("HAS_MEMBER", "", fact["object"]["name"], fact["qualifiers"].get("order", ""))
    return ("CONSULTS", fact["subject"]["name"], fact["object"]["name"], "")


def _spec(name: str, lines: tuple[int, ...], fn, *relations: str, quals: tuple[str, ...] = ()) -> Spec:
    return Spec(name, "000", lines, fn, frozenset(relations or (SYM,)), SUBJECTS, quals=quals)


SPECS = [
    Spec("mulu", "000", tuple(range(91, 164, 4)), mulu, frozenset({"HAS_MEMBER", "CONSULTS"}),
         key=_mulu_row),
    _spec("tianwen", (95,), tianwen, SYM, "HAS_ELEMENT", "HAS_DIRECTION", "ALLOTTED_TO"),
    _spec("dili", (99,), dili, SYM, "HAS_DIRECTION"),
    _spec("gongshi", (103, 107), gongshi),
    _spec("renwu", (111, 115), renwu),
    _spec("xingshi", (119, 123, 127), xingshi, quals=("scope",)),
    _spec("zangfu", (131,), zangfu),
    _spec("yinshi", (135, 139), yinshi),
    _spec("qiyong", (143, 147), qiyong),
    _spec("shumu", (151,), shumu, "HAS_NUMBER", "MODIFIES", quals=("system",)),
    _spec("yanse", (155,), yanse, "HAS_COLOUR", "MODIFIES"),
    _spec("dongzhi", (159, 163), dongzhi, quals=("rank",)),
]
