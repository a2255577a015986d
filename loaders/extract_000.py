"""Extractors for document 000 (六壬類神): the shensha tables 000:3–87.

Each function takes the text of its passages (a str, read from the corpus at run time) and
returns the tuples the text states, names as written; see ``extract_util`` for the shape.
The 類象 tables 000:91–163 are in ``extract_lx000``.
"""

from __future__ import annotations

import re

from leishen.loaders.derive import KIN, STAGES, VIGOURS
from leishen.loaders.extract_util import (
    B,
    Row,
    S,
    Spec,
    leading,
    product,
    qualifier,
    sections,
)

PAIR_RELATIONS = {"刑": "PUNISHES", "沖": "CLASHES", "破": "BREAKS", "害": "HARMS", "合": "COMBINES"}
SLOTS = ("初傳", "中傳", "末傳")
SEASON = "(春|夏|秋|冬|季月)"


def patterns(text: str) -> set[Row]:
    """三傳卯戌巳曰斫輪 (000:3–15): the pattern needs each branch in its transmission slot."""
    found = set()
    for m in re.finditer(f"三傳({B})({B})({B})曰?([^，。]{{2}})", text):
        found |= {("REQUIRES", m[4], m[i + 1], SLOTS[i]) for i in range(3)}
    return found


def core(text: str) -> set[Row]:
    """全見丑卯巳未酉亥 … 曰六陰 (000:7): the polarity of the six branches named."""
    found = set()
    for m in re.finditer(f"見({B}{{6}})(?:六將)?，不見{B}{{6}}(?:六將)?一將，曰六(.)", text):
        found |= product("HAS_POLARITY", m[1], m[2])
    return found


def relations(text: str) -> set[Row]:
    """X刑Y and XY相沖/破/害/合 (000:51–59); the object is kept as written (亥刑害)."""
    found = set()
    for head, body in sections(text):
        if head == "刑":
            found |= {("PUNISHES", m[1], m[2]) for m in leading(body, f"({B})刑(.)")}
        elif head in PAIR_RELATIONS:
            pattern = f"({B})({B})相{head}"
            found |= {(PAIR_RELATIONS[head], m[1], m[2]) for m in leading(body, pattern)}
    return found


def _stem_table(text: str, heads, pattern: str, relation: str) -> set[Row]:
    """Rows of a table headed by a 神煞 name whose entries are stems followed by branches."""
    found = set()
    for head, body in sections(text):
        if head in heads:
            for m in leading(body, pattern):
                found |= product(relation, m[1], m[2], head)
    return found


def wuyong(text: str) -> set[Row]:
    """五類用神 甲乙日亥子 … (000:23–31): kin of each day stem."""
    return _stem_table(text, KIN, f"({S}+)日({B}+)", "KIN_BRANCH")


def changsheng(text: str) -> set[Row]:
    """十二長生 甲日亥, 丙戊日寅 … (000:35–47); 日 may be missing (帝旺 甲乙卯)."""
    return _stem_table(text, STAGES, f"({S}+)日?({B})", "LIFE_STAGE")


def shensha_horse(text: str) -> set[Row]:
    """驛馬 亥卯未日巳 … (000:59): horse of each day branch and of its 三合 frame."""
    found = set()
    for head, body in sections(text):
        if head == "馬":
            for m in leading(body, f"({B}{{3}})日({B})"):
                found |= product("HORSE", m[1], m[2]) | {("HORSE", m[1], m[2])}
                found |= product("MEMBER_OF", m[1], [m[1]])
    return found


def shensha_vigour(text: str) -> set[Row]:
    """旺相死囚休 春寅卯 … (000:63–67), and the seasons of the branches (the 旺 row)."""
    found = set()
    for head, body in sections(text):
        if head in VIGOURS:
            for m in leading(body, f"{SEASON}({B}+)"):
                found |= product("VIGOUR", m[2], head, m[1])
                if head == "旺":
                    found |= product("IN_SEASON", m[2], [m[1]], "")
    return found


def shensha_months(text: str) -> set[Row]:
    """月建 正月寅 … and 月將 正月亥 … (000:71)."""
    rel = {"月建": "MONTH_BRANCH", "月將": "MONTH_GENERAL"}
    found = set()
    for head, body in sections(text):
        if head in rel:
            found |= {(rel[head], m[1], m[2]) for m in leading(body, f"(.+月)({B})")}
    return found


def shensha_void(text: str) -> set[Row]:
    """旬空 甲子旬中戌亥空 … (000:75)."""
    found = set()
    for m in re.finditer(f"(甲{B}旬)中({B}+)空", text):
        found |= product("VOID", [m[1]], m[2])
    return found


def generals(text: str) -> set[Row]:
    """天將 陰陽五行生剋與丑將同 (000:79–87): the branch whose nature each general shares."""
    found = set()
    for head, body in sections(text):
        m = re.search(f"與({B})將同", body)
        if m:
            found.add(("HOME_BRANCH", head, m[1]))
    return found


def meanings(text: str) -> set[Row]:
    """以X論 closing each entry of 000:23–87, and 刑干傷我傷人 / 刑支傷彼傷事 (day stem / branch)."""
    found = set()
    for head, body in sections(text):
        m = re.search("以([^。論]+)論", body)
        if m:
            found |= product("SIGNIFIES", [head], re.split("，?或", m[1]))
        for m in re.finditer(f"{head}干([^，。]+)，{head}支([^，。]+)", body):
            found |= {("SIGNIFIES", head, m[1]), ("SIGNIFIES", head, m[2])}
    return found


def _slot_row(fact: dict) -> Row | None:
    """A REQUIRES row naming a branch in a transmission slot (the others are not lists)."""
    if fact["object"]["label"] != "Branch" or not qualifier(fact, "slot"):
        return None
    return ("REQUIRES", fact["subject"]["name"], fact["object"]["name"], qualifier(fact, "slot"))


SPECS = [
    Spec("patterns", "000", (3, 7, 11, 15), patterns, frozenset({"REQUIRES"}),
         (None, "Pattern", "Branch"), key=_slot_row),
    Spec("core", "000", (7,), core, frozenset({"HAS_POLARITY"}), (None, "Branch", "Polarity")),
    Spec("relations", "000", (51, 55, 59), relations, frozenset(PAIR_RELATIONS.values()),
         (None, "Branch", "Branch")),
    Spec("wuyong", "000", (23, 27, 31), wuyong, frozenset({"KIN_BRANCH"}),
         (None, "Stem", "Branch", "Kin"), quals=("kin",)),
    Spec("changsheng", "000", (35, 39, 43, 47), changsheng, frozenset({"LIFE_STAGE"}),
         (None, "Stem", "Branch", "LifeStage"), quals=("stage",)),
    Spec("shensha_horse", "000", (59,), shensha_horse, frozenset({"HORSE", "MEMBER_OF"}),
         (None, ("Branch", "Frame"), ("Branch", "Frame"))),
    Spec("shensha_vigour", "000", (63, 67), shensha_vigour, frozenset({"VIGOUR", "IN_SEASON"}),
         (None, "Branch", ("Vigour", "Season"), "Season"), quals=("season",)),
    Spec("shensha_months", "000", (71,), shensha_months, frozenset({"MONTH_BRANCH", "MONTH_GENERAL"}),
         (None, "Month", "Branch")),
    Spec("shensha_void", "000", (75,), shensha_void, frozenset({"VOID"}), (None, "Xun", "Branch")),
    Spec("generals", "000", (79, 83, 87), generals, frozenset({"HOME_BRANCH"}),
         (None, "General", "Branch")),
    Spec("meanings", "000", tuple(range(23, 88, 4)), meanings, frozenset({"SIGNIFIES"}),
         (None, ("Kin", "LifeStage", "Shensha", "Vigour", "General")), where={"category": "shensha"}),
]
