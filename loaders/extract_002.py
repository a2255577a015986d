"""Extractors for document 002 (鬼撮腳 and its appendices).

月將 headers (002:23–87), 天將 identity and placement lines (002:99–143), 旬中神煞 (002:147) and
the 射覆 tables of five colours, five tastes and the stems' colours (002:159–187).
"""

from __future__ import annotations

import re

from leishen.loaders.extract_util import (
    COMMA,
    B,
    Row,
    S,
    Spec,
    clauses,
    pairs,
    product,
    qualifier,
)

HEADER = f"(..)[屬為]({B})，其?數(.)，味(.)，(.+?)[二三]宿"
IDENTITY = f"(..)者，(.+?)，家在({S})({B})，旺[於在]?(.)(.)"
ELEMENTS = "[木火土金水]"
COLOURS = "青碧赤紫黃紅白藍黑綠"


def yuejiang(text: str) -> set[Row]:
    """神后屬子，其數九，味咸 …: name, number, taste and mansions of each 月將."""
    found = set()
    for m in re.finditer(HEADER, text):
        found |= {("ALIAS_OF", m[1], m[2]), ("HAS_NUMBER", m[2], m[3]), ("HAS_TASTE", m[2], m[4])}
        found |= product("HAS_MANSION", m[2], m[5].split("、"))
    return found


def tianjiang_identity(text: str) -> set[Row]:
    """貴人者 … 家在己丑，旺於四季: nature, home stem and branch, season (and phase)."""
    found = set()
    for m in re.finditer(IDENTITY, text):
        general, nature = m[1], m[2]
        phase = m[6] if m[5] == "四" else m[5]  # 四季: the 季 months of all four seasons
        found |= {("IS", general, nature, ""), ("HOME_STEM", general, m[3], ""),
                  ("HOME_BRANCH", general, m[4], ""), ("PROSPERS_IN", general, m[6], phase)}
        if element := re.fullmatch("(.)神[凶吉]將", nature):
            found.add(("HAS_ELEMENT", general, element[1], ""))
    return found


def tianjiang_governs(text: str) -> set[Row]:
    """其將主A、B等事 (category governs), 君子X，小人Y (by querent)."""
    found = set()
    for line in text.splitlines():
        general = line[:2]
        if m := re.search("其將主(.+?)君子", line):
            items = [t.removesuffix("等事") for t in clauses(m[1])]
            found |= {("SIGNIFIES", general, x, "governs", "") for t in items if t for x in pairs(t)}
        if m := re.search("君子小人並([^，。]+)", line):
            found |= {("SIGNIFIES", general, m[1], "", who) for who in ("君子", "小人")}
            continue
        for who in ("君子", "小人"):
            if m := re.search(f"{who}([^，。、]+)", line):
                found.add(("SIGNIFIES", general, re.sub("之?事$", "", m[1]), "", who))
    return found


def tianjiang_placements(text: str) -> set[Row]:
    """加寅為文字, 加巳為陰人和合，又爐冶: each reading of a general placed on a branch.

    A clause after 加X is a further reading of the same placement when it opens with 又/一為/為
    or is at most four characters (不宜出行, 病重).  Tuples are (PLACEMENT_MEANS, general,
    branch, reading); the reading is compared loosely (one contains the other), as the tables
    cut some readings in two.
    """
    found = set()
    for line in text.splitlines():
        on = ""
        for c in clauses(line, COMMA):
            if m := re.fullmatch(f"加({B})為?(.+)", c):
                on, reading = m[1], m[2]
            elif on and (m := re.fullmatch("(?:又為|又|一為|為)(.+)|(.{1,4})", c)):
                reading = m[1] or m[2]
            else:
                continue
            found.add(("PLACEMENT_MEANS", line[:2], on, reading))
    return found


def xunzhong(text: str) -> set[Row]:
    """旬中神煞 (002:147): per decade 儀, 丁, 天中 (void), X日Y不空, 奇, 閉口, 五亡 branches."""
    found = set()
    for m in re.finditer(f"(甲{B}旬)，(.+?)(?=甲{B}旬，|$)", text):
        xun = m[1]
        for c in clauses(m[2]):
            if n := re.fullmatch(f"({S}+)日({B})不空", c):
                found |= {("NOT_VOID", xun, n[2], stem) for stem in n[1]}
            elif n := re.fullmatch(f"({B}+)天中", c):
                found |= product("VOID", [xun], n[1], "天中")
            elif n := re.fullmatch(f"({B})(.+)", c):  # 儀神 → 儀; a longer word stays as written
                kind = n[2][:-1] if n[2].endswith("神") and len(n[2]) <= 3 else n[2]
                found.add(("XUN_SHENSHA", xun, n[1], kind))
    return found


def shefu_tables(text: str) -> set[Row]:
    """射覆: 木：旺青、相紅… (002:159), 五味：木酸… (002:175), 十干主色：甲青乙碧… (002:187)."""
    found = set()
    for m in re.finditer(f"({ELEMENTS})：((?:[旺相死囚休].、?){{5}})", text):
        found |= {("HAS_COLOUR", m[1], c, v) for v, c in re.findall("([旺相死囚休])(.)", m[2])}
    if m := re.search("五味：(.+?)。", text):
        found |= {("HAS_TASTE", e, t, "") for e, t in re.findall(f"({ELEMENTS})(.)", m[1])}
    if m := re.search("十干主色：(.+?。.+?)。", text):
        pattern = f"({S})[^{COLOURS}]*?([{COLOURS}])"
        found |= {("HAS_COLOUR", s, c, "") for s, c in re.findall(pattern, m[1])}
    return found


def _placement_row(fact: dict) -> Row:
    return ("PLACEMENT_MEANS", fact["subject"]["name"], qualifier(fact, "on"), fact["object"]["name"])


def _xun_row(fact: dict) -> Row:
    extra = qualifier(fact, "day") if fact["relation"] == "NOT_VOID" else qualifier(fact, "kind")
    return (fact["relation"], fact["subject"]["name"], fact["object"]["name"], extra)


TIANJIANG = tuple(range(99, 144, 4))
SPECS = [
    Spec("yuejiang", "002", tuple(range(23, 92, 4)), yuejiang,
         frozenset({"ALIAS_OF", "HAS_NUMBER", "HAS_TASTE", "HAS_MANSION"}), (None, "Branch", "Branch")),
    Spec("tianjiang_identity", "002", TIANJIANG, tianjiang_identity,
         frozenset({"IS", "HOME_STEM", "HOME_BRANCH", "PROSPERS_IN", "HAS_ELEMENT"}),
         (None, "General", "Season"), quals=("phase",)),
    Spec("tianjiang_governs", "002", TIANJIANG, tianjiang_governs, frozenset({"SIGNIFIES"}),
         (None, "General"), quals=("category", "querent")),
    Spec("tianjiang_placements", "002", TIANJIANG, tianjiang_placements,
         frozenset({"PLACEMENT_MEANS"}), (None, "General", "Branch"), key=_placement_row, fuzzy=True),
    Spec("xunzhong", "002", (147,), xunzhong, frozenset({"XUN_SHENSHA", "VOID", "NOT_VOID"}),
         key=_xun_row),
    Spec("shefu_tables", "002", (159, 175, 187), shefu_tables, frozenset({"HAS_COLOUR", "HAS_TASTE"}),
         (None, ("Element", "Stem"), None, "Vigour"), quals=("vigour",)),
]
