"""Extractors for documents 003 (九星 / 奇門 lore) and 004 (奇門 topics): their regular lists.

003:3–11 the nine stars' other names (一白 … 號貪狼, 巨門二黑 …); 003:75 九宮分九州 (palace →
province and astral field); 003:119 the gate–star pairs of 穿地 and their numbers; 004:87–91 and 004:123–127 the ``key，item、item。`` lists of the house
and illness topics (值符/值使 deities and gates, 十干, 九星).
"""

from __future__ import annotations

import re

from leishen.loaders.extract_util import PERIOD, Row, Spec, clauses, product

STAR = "([一二三四五六七八九][白黑碧綠黃赤紫])"
GATES = "休生傷杜景死驚開"
STARS = "蓬任沖輔英芮禽柱心"
PALACE = "([坎艮震巽離坤兌乾中][一二三四五六七八九])"
VERSE = re.compile(r"[，。\s]")


def a_day_star(text: str) -> set[Row]:
    """一白太乙號貪狼, 巨門二黑, 四綠文曲 …: each star with the names written beside it."""
    found = set()
    for verse in re.split(r"[\s。，]+", text):
        if m := re.match(f"{STAR}(..)(?:號(..))?", verse):
            star, names = m[1], [m[2], m[3]]
        elif m := re.match(f"(..){STAR}", verse):
            star, names = m[2], [m[1]]
        else:
            continue
        found |= product("ALIAS_OF", [star], [n for n in names if n])
    return found


def k_year_regions(text: str) -> set[Row]:
    """坎一冀州，晉魏分: the province(s) and astral field state(s) of each palace (003:75)."""
    found = set()
    for m in re.finditer(f"{PALACE}(.+?)州，(.+?)分", text):
        found |= product("ALLOTTED_TO", [m[1]], [c + "州" for c in m[2]], "州")
        found |= product("ALLOTTED_TO", [m[1]], m[3], "分野")
    return found


def t_terrain_numbers(text: str) -> set[Row]:
    """傷沖大小水兼三, 芮禽死使二三連 (003:119): gate–star pairs and the numbers of each verse."""
    found = set()
    for verse in clauses(text, VERSE):
        pairs = [(m[1], m[2]) for m in re.finditer(f"([{GATES}])([{STARS}])", verse)]
        if m := re.search(f"([{STARS}]+)([{GATES}])使", verse):
            pairs += [(m[2], s) for s in m[1]]
        for gate, star in pairs:
            found.add(("PAIRED_WITH", gate, star))
            found |= product("HAS_NUMBER", [gate], re.findall("[一二三四五六七八九]", verse))
    return found


def key_lists(text: str) -> set[Row]:
    """``值使：休，坎宅門路。生，…`` — every item of every key (a list ``勾陳、白虎`` shares them)."""
    found = set()
    for sentence in clauses(text, PERIOD):
        body = re.sub("^[^，：]{1,3}：", "", sentence)  # the list's label: 值符： 值使： 十干： 九星：
        if m := re.fullmatch("([^，、]{1,2}(?:、[^，、]{1,2})*)，(.+)", body):
            found |= product("SYMBOLIZES", m[1].split("、"), m[2].split("、"))
    return found


def jiazhai(text: str) -> set[Row]:
    """家宅 (004:87–91): 值符/值使, 十干 and 九星 lists of the house topic."""
    return key_lists(text)


def jibing(text: str) -> set[Row]:
    """疾病 (004:123–127): 值符/值使, 十干 and 九星 lists of the illness topic."""
    return key_lists(text)


KEYS = (None, ("Deity", "Gate", "Stem", "QimenStar"))
SPECS = [
    Spec("a_day_star", "003", (3, 7, 11), a_day_star, frozenset({"ALIAS_OF"}),
         (None, "FlyingStar", "FlyingStar")),
    Spec("k_year_regions", "003", (75,), k_year_regions, frozenset({"ALLOTTED_TO"}),
         (None, "Palace"), quals=("category",)),
    Spec("t_terrain_numbers", "003", (119,), t_terrain_numbers, frozenset({"PAIRED_WITH", "HAS_NUMBER"}),
         (None, "Gate", "QimenStar")),
    Spec("jiazhai", "004", (87, 91), jiazhai, frozenset({"SYMBOLIZES"}), KEYS, fuzzy=True),
    Spec("jibing", "004", (123, 127), jibing, frozenset({"SYMBOLIZES"}), KEYS, fuzzy=True),
]
