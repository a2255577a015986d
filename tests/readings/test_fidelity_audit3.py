"""Issue #29 (fidelity audit), items 1, 2, 3, 4, 8 and 12: rule rows whose condition or meaning said more or other
than their clause. Each test reads a real chart where the fault showed (or a moment found by a search where it
would show) and asserts the exact finding, or its absence, with its path and src.

1. 004:7 朱白生身 / 勾蛇刑害, 004:143: one row per deity of a clause, and a deity of two namings (白虎/勾陳, 玄武/朱雀:
   one node each) matches only as the chart names it.
2. 004:115 朱雀丙丁 / 元武壬癸: one deity gives the pattern its chart's name gives, once.
3. 004:19 入墓網羅: not 不第 (熒入白's), but a pass not to be called unless the natal year is good.
4. 003:23 一遁 …: the 遁's number is the 局's.
8. 002:175 吉將並來: the 用's general is a 吉將 by the classes of 002:123–139; a general they do not class needs judgment.
12. 003:79 / 003:83 年景: the two halves of a line never hold in one palace.
"""

from __future__ import annotations

import copy
import csv
import re
from datetime import datetime
from pathlib import Path

import pytest

from fired import chart_of

from leishen.engine.chart import ChartRequest, build_chart
from leishen.service.book import reader
from leishen.readings.read import Reader
from leishen.service.book import new_reader

FACTS = Path(__file__).resolve().parents[2] / "ontology" / "facts"
K, B, J = "facts/004/kesi.csv", "facts/004/jibing.csv", "facts/004/jiazhai.csv"
C, Y, S = "facts/003/c_weather_ju_dun.csv", "facts/003/k_year_regions.csv", "facts/002/shefu_rules.csv"
BY_DUN = ChartRequest(qimen={"deities": "by_dun"})
AUDIT_1, AUDIT_2, AUDIT_5 = "2026-12-01T10:00:00+09:00", "2025-02-03T23:30:00+08:00", "2030-01-15T04:00:00+08:00"


def read(moment: str, topic: str, request: ChartRequest | None = None, r=None) -> dict:
    """A reading of *moment* (the default school options, or *request*'s) under *topic*."""
    chart = build_chart(datetime.fromisoformat(moment), request) if request else chart_of(moment)
    return (r or reader()).read(chart, topic=topic)


def found(reading: dict) -> dict[str, dict]:
    """rule fact → its finding."""
    return {f["rule"]["fact"]: f for f in reading["findings"]}


def path_nodes(finding: dict) -> list[str]:
    return [h["node"]["id"] for h in finding["path"] if "node" in h]


def table(path: str) -> list[dict]:
    with open(FACTS.parent / path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# -- 1. 004:7 朱白 (good) / 勾蛇 (bad) -------------------------------------------------------------------

def test_snake_alone_muddles_the_paper_under_the_default_naming():
    """Audit moment 1 (陰遁 5局, modern naming): 螣蛇 in 震三 overcomes the day stem; the 螣蛇 row of 4.02.04 holds
    by its own deity (no hop to the node 白虎, which the chart names 白虎, not 勾陳), the 勾陳 row does not."""
    reading = read(AUDIT_1, "科試")
    got = found(reading)
    snake = got[f"{K}#80"]
    assert snake["certainty"] == "holds" and snake["src"] == ["004:7"] and snake["meaning"]["id"] == "Concept:卷胡塗"
    assert path_nodes(snake)[:2] == ["Palace:p3", "Deity:teng_she"] and "Deity:bai_hu" not in path_nodes(snake)
    assert f"{K}#19" not in got and reading["names"] == {}


def test_tiger_is_among_the_good_only_as_the_chart_names_it():
    """Audit moment 5 (陽遁 2局): 白虎 in 艮八 generates the day stem. Named 白虎 (modern) it is 朱白's 白: 名高擢;
    named 勾陳 (by_dun, 陽遁) the same node is not the 白 of the clause."""
    tiger = found(read(AUDIT_5, "科試"))[f"{K}#79"]
    assert tiger["meaning"]["id"] == "Concept:名高擢" and tiger["src"] == ["004:7"]
    assert path_nodes(tiger)[:2] == ["Palace:p8", "Deity:bai_hu"]
    by_dun = read(AUDIT_5, "科試", BY_DUN)
    assert by_dun["names"].get("Deity:bai_hu") == "勾陳" and f"{K}#79" not in found(by_dun)


def test_hook_array_muddles_the_paper_where_the_chart_names_it():
    """1996-02-21 22:30 +08 (陽遁 6局): the node 白虎 overcomes the day stem. By_dun names it 勾陳: 勾蛇刑害 holds
    through it; the modern naming calls it 白虎, which is not 勾."""
    moment = "1996-02-21T14:30:00+00:00"
    reading = read(moment, "科試", BY_DUN)
    hook = found(reading)[f"{K}#19"]
    assert hook["meaning"]["id"] == "Concept:卷胡塗" and hook["src"] == ["004:7"] and hook["certainty"] == "holds"
    assert path_nodes(hook)[1] == "Deity:bai_hu" and reading["names"]["Deity:bai_hu"] == "勾陳"
    assert f"{K}#19" not in found(read(moment, "科試"))


def test_vermilion_bird_is_among_the_good_only_where_the_chart_names_it():
    moment = "2008-04-01T20:41:00+00:00"  # 陽遁 9局: the node 玄武 generates the day stem
    bird = found(read(moment, "科試", BY_DUN))[f"{K}#18"]
    assert bird["meaning"]["id"] == "Concept:名高擢" and path_nodes(bird)[1] == "Deity:xuan_wu"
    assert f"{K}#18" not in found(read(moment, "科試"))  # modern: 玄武, not the 朱 of 朱白


def _deity_node(name: str) -> str:
    return {"勾陳": "白虎", "朱雀": "玄武", "元武": "玄武"}.get(name, name)


@pytest.mark.parametrize("doc", ["003", "004"])
def test_a_deity_row_tests_only_its_own_deity(doc):
    """Every rule row whose subject is a deity of two namings, or that tests one, tests 神 for its own deity alone: a
    clause naming two deities (勾蛇, 朱白, 勾地, 朱蛇, 白天) is one row per deity, so a finding never passes one deity
    to reach another (whose name the chart may give otherwise)."""
    rows = [r for p in sorted((FACTS / doc).glob("*.csv")) for r in table(f"facts/{doc}/{p.name}")]
    checked = 0
    for row in rows:
        if not row["subject"].startswith("Deity:") or "神" not in (row.get("when") or ""):
            continue
        named = {_deity_node(n) for call in re.findall(r"(?:eq|among)\(神, ([^)]*)\)", row["when"])
                 for n in re.findall(r"Deity\.(\w+)", call)}
        own = _deity_node(row["subject"].split(":")[1])
        if (named | {own}) & {"白虎", "玄武"}:  # (a pair of single-named deities, 九地 太陰, passes no name)
            assert named <= {own}, (row["item"], row["subject"], row["when"])
            checked += 1
    assert checked >= (10 if doc == "004" else 0)


def test_the_illness_clauses_of_004_143_are_told_apart():
    """勾地刑符 / 朱蛇制符 / 白天卻是恐驚災: five deities, one row each (the 九地 螣蛇 九天 rows appended)."""
    rows = [r for r in table("facts/004/jibing.csv") if r["item"] in ("4.36.03", "4.36.04", "4.36.05")]
    assert sorted((r["item"], r["subject"]) for r in rows) == [
        ("4.36.03", "Deity:九地"), ("4.36.03", "Deity:勾陳"), ("4.36.04", "Deity:朱雀"), ("4.36.04", "Deity:螣蛇"),
        ("4.36.05", "Deity:九天"), ("4.36.05", "Deity:白虎")]
    assert {r["src"] for r in rows} == {"004:143"}


# -- 2. one deity, one pattern --------------------------------------------------------------------------------------

def test_dark_warrior_in_dui_gives_its_own_pattern_once():
    """Audit moment 1 under by_dun (陰遁: the chart names the node 玄武): 玄武 in 兌七 over 壬 / 丙 gives 元武壬癸
    (004:115), never 朱雀丙丁 as well."""
    got = found(read(AUDIT_1, "家宅", BY_DUN))
    warrior = got[f"{J}#158"]
    assert warrior["meaning"]["id"] == "Concept:宵小跳梁" and warrior["src"] == ["004:115"]
    assert "Deity:xuan_wu" in path_nodes(warrior) and "Palace:p7" in path_nodes(warrior)
    assert f"{J}#157" not in got


def test_the_same_palace_gives_the_bird_pattern_when_named_so():
    """1945-04-23 22:07 +08 (陽遁 8局): the node 玄武 in 震三 over 丙 / 壬. Modern: 元武壬癸 only; by_dun (named 朱雀):
    朱雀丙丁 only."""
    moment = "1945-04-23T14:07:00+00:00"
    modern, by_dun = found(read(moment, "家宅")), found(read(moment, "家宅", BY_DUN))
    assert f"{J}#158" in modern and f"{J}#157" not in modern
    assert f"{J}#157" in by_dun and f"{J}#158" not in by_dun
    assert by_dun[f"{J}#157"]["meaning"]["id"] == "Concept:喧爭聒耳" and by_dun[f"{J}#157"]["src"] == ["004:115"]


def test_a_recalled_outcome_knows_the_naming():
    """The shared reader recalls a rule's outcome by the chart values it read; the palace's deity name is one of them.
    A chart that names its deities 勾陳 朱雀 with options that do not say so (as a chart typed by hand may) read
    after the modern chart of the same plate gives what a reader that recalls nothing gives (without the name among
    the values read, 元武壬癸 was recalled for the 朱雀 palace)."""
    moment, plain, shared = datetime.fromisoformat("1945-04-23T14:07:00+00:00"), new_reader(recall=False), new_reader()
    modern, named = build_chart(moment), copy.deepcopy(build_chart(moment, BY_DUN))
    named["qimen"]["options"] = copy.deepcopy(modern["qimen"]["options"])
    assert {c["deity"] for c in named["qimen"]["palaces"].values()} >= {"勾陳", "朱雀"}
    for chart in (modern, named, modern, named):
        recalled = shared.recall.recalled
        got = {(f["rule"]["fact"], f["certainty"]) for f in shared.read(chart, topic="家宅")["findings"]}
        assert got == {(f["rule"]["fact"], f["certainty"]) for f in plain.read(chart, topic="家宅")["findings"]}
        assert (f"{J}#157", "holds") in got if chart is named else (f"{J}#158", "holds") in got
    assert shared.recall.recalled > recalled  # (outcomes were recalled: the test reads the recalled evaluator)


# -- 3. 004:19 入墓網羅，年命吉而可言中 ---------------------------------------------------------------------------

def test_entering_the_tomb_is_not_failing():
    """2059-11-15 17:34 +08: 乙 in 坤二 (三奇入墓). The base reading is 未可言中 (a pass not to be called), the rescue
    年命吉 (read as 年命無傷 since issue #29, conventions-qm004 §8) is decided by the natal palace, so with no birth year
    it is not found; 不第 is 熒入白's alone."""
    got = found(read("2059-11-15T09:34:00+00:00", "科試"))
    base = got[f"{K}#71"]
    assert base["meaning"]["id"] == "Concept:未可言中" and base["polarity"] == "凶" and base["src"] == ["004:19"]
    assert path_nodes(base) == ["Palace:p2", "Stem:yi", "Pattern:三奇入墓", "Concept:未可言中"]
    assert f"{K}#77" not in got  # no birth year: the natal year cannot be weighed (it was needs_judgment)
    assert not any(f["meaning"]["id"] == "Concept:不第" for f in got.values())


def test_004_19_and_83_meanings_follow_their_clauses():
    rows = [r for r in table("facts/004/kesi.csv") + table("facts/004/chuxing.csv")
            if r["src"] in ("004:19", "004:83") and r["relation"] == "SIGNIFIES"]
    meaning = {(r["subject"], r["src"]): r["object"] for r in rows if not r["qualifiers"].count("modifies=")}
    assert [s for (s, src), o in meaning.items() if o == "Concept:不第"] == ["Pattern:熒入白"]
    assert meaning[("Pattern:三奇入墓", "004:19")] == meaning[("Pattern:羅網", "004:19")] == "Concept:未可言中"
    assert meaning[("Pattern:三奇入墓", "004:83")] == meaning[("Pattern:羅網", "004:83")] == "Concept:莫輕身險地"
    assert meaning[("Pattern:白入熒", "004:19")] == "Concept:不揚"


# -- 4. 003:23 一遁 … number the 局 ---------------------------------------------------------------------------------

def test_the_first_dun_is_the_first_ju():
    """Audit moment 2 is 陽遁 2局 with 乙 under 休門 in 坎一: 一遁 no longer holds there; 1977-05-14 22:00 +08
    (陽遁 1局, 丙 under 休門 in 震三) it does, with the 局 in its evidence."""
    chart = chart_of(AUDIT_2)["qimen"]
    assert (chart["dun"], chart["ju"]) == ("陽", 2)
    assert (chart["palaces"]["1"]["heaven"], chart["palaces"]["1"]["gate"]) == ("乙", "休門")
    assert not {f"{C}#{n}" for n in range(45, 52)} & set(found(read(AUDIT_2, "天時")))
    first = found(read("1977-05-14T14:00:00+00:00", "天時"))[f"{C}#48"]
    assert first["meaning"]["id"] == "Weather:霞彩" and first["src"] == ["003:23"]
    assert path_nodes(first)[-2:] == ["Pattern:一遁", "Weather:霞彩"]
    assert [{"value": 1, "slot": "局"}] in first["evidence"]


def test_every_numbered_dun_names_its_ju():
    rows = [r for r in table("facts/003/c_weather_ju_dun.csv") if r["relation"] == "REQUIRES"
            and r["subject"][8:] in ("一遁", "二遁", "三遁", "四遁", "五遁", "六遁", "七遁")]
    numbers = {"一遁": 1, "二遁": 2, "三遁": 3, "四遁": 4, "五遁": 5, "六遁": 6, "七遁": 7}
    assert len(rows) == 21
    for r in rows:
        assert f"eq(局, {numbers[r['subject'][8:]]})" in r["when"], r["subject"]


# -- 8. 002:175 吉將並來 ---------------------------------------------------------------------------------------------

def test_the_texts_class_four_generals():
    rows = [r for r in table("facts/002/tianjiang_identity.csv") if r["relation"] == "MEMBER_OF"]
    assert {(r["subject"], r["object"], r["src"]) for r in rows} == {
        ("General:天空", "Concept:凶將", "002:123"), ("General:白虎", "Concept:凶將", "002:127"),
        ("General:玄武", "Concept:凶將", "002:135"), ("General:太陰", "Concept:吉將", "002:139")}


def test_food_with_an_auspicious_general_holds():
    """1921-11-20 18:34 +08: the 用 酉 rides 太陰, a 吉將 (002:139), and 日辰發用 generate one another: SF-44 holds,
    decided (no judgment), with the 吉將 walk in its evidence."""
    got = found(read("1921-11-20T10:34:00+00:00", "射覆"))
    food = got[f"{S}#71"]
    assert food["certainty"] == "holds" and food["src"] == ["002:175"] and food["meaning"]["id"] == "Concept:可食"
    walk = next(w for w in food["evidence"] if any(h.get("node", {}).get("id") == "Concept:吉將" for h in w))
    assert [h["node"]["id"] for h in walk if "node" in h] == ["Branch:you", "General:tai_yin", "Concept:吉將"]
    assert [h["src"] for h in walk if h.get("rel") == "MEMBER_OF"] == [["002:139"]]
    assert f"{S}#135" not in got


def test_an_unclassed_general_needs_judgment_and_a_baleful_one_never_holds():
    unclassed = found(read("2059-11-15T09:34:00+00:00", "射覆"))
    assert unclassed[f"{S}#135"]["certainty"] == "needs_judgment" and f"{S}#71" not in unclassed
    moment = "2071-05-07T04:46:00+00:00"  # the 用 卯 rides 天空 (凶將, 002:123); 卯 and the day generate
    lr = chart_of(moment)["liuren"]
    assert lr["generals"][lr["transmissions"][0]] == "天空"
    assert not {f"{S}#71", f"{S}#135"} & set(found(read(moment, "射覆")))


# -- 12. 003:79 / 003:83: one line's halves ------------------------------------------------------------------------

def test_a_rescued_rui_palace_is_not_also_plagued():
    """2074-07-30 08:24 +08: 天芮 in 坎一 (a 凶宿 palace) with 乙 (a wonder): 奇、神加之 — 無災, 七分收成 — hold
    there; 若加凶宿 (人瘟 物死 五穀不登) no longer holds in the same palace."""
    got = found(read("2074-07-30T00:24:00+00:00", "年景"))
    for n, meaning in ((76, "Outcome:無災"), (77, "Outcome:七分收成")):
        assert got[f"{Y}#{n}"]["meaning"]["id"] == meaning and got[f"{Y}#{n}"]["src"] == ["003:79"]
        assert path_nodes(got[f"{Y}#{n}"])[:2] == ["Palace:p1", "QimenStar:tian_rui"]
    assert not {f"{Y}#78", f"{Y}#79", f"{Y}#80"} & set(got)


def test_an_unrescued_rui_palace_is_plagued():
    got = found(read("2004-10-11T14:15:00+00:00", "年景"))  # 天芮 in 離九 with 螣蛇 and 己: no wonder, no good deity
    plague = got[f"{Y}#78"]
    assert plague["meaning"]["id"] == "Illness:疫病" and plague["src"] == ["003:79"]
    assert path_nodes(plague)[:2] == ["Palace:p9", "QimenStar:tian_rui"] and f"{Y}#76" not in got


@pytest.mark.parametrize("good, bad", [((76, 77), (78, 79, 80)), ((106, 107, 108), (109, 110)),
                                       ((112, 113), (114, 115, 116))])
def test_the_later_half_excludes_the_first(good, bad):
    """天芮 (奇神 / 凶宿), 天任 (奇神 / 凶處), 天英 (生旺地 / 克處 or 凶宿): the later half's condition is the first's
    negated and its own."""
    rows = {i: r for i, r in enumerate(table("facts/003/k_year_regions.csv"), start=2)}
    first = rows[good[0]]["when"]
    inner = first[len("some(宮, all("):-2].split("), ", 1)[1]  # the first half's own part, after the star
    for n in bad:
        assert f"not({inner})" in rows[n]["when"], (n, rows[n]["when"])
