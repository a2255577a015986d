"""Spot checks of document 004 (奇門占事: 科試 求財 行人 出行 家宅 疾病) and of the named 格局 of the
master list (helper qm004).

Each check names one exact fact (relation, subject, object, citation, variant, qualifiers) that must
be in the graph as ``leishen facts --json`` exports it; the item counts per section must equal the
inventory's counts (ontology/coverage/expected_qm004.csv).  Names are canonical: the text's 勾陳 is
the node 白虎, 朱雀/元武 the node 玄武 (aliases in entities/deity.csv).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from factmatch import find

from leishen.loaders.build import load_facts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def facts() -> list[dict]:
    # every fact of our tables, also those citing only 003 (4.P.03-06 cite the passages naming the patterns)
    return [f for f in load_facts() if f["id"].startswith("facts/004/")]


# (item, relation, subject, object, src, variant, qualifiers) — spread over every section and topic
CASES = [
    # 4.01–4.05 科試
    ("4.01.01", "SIGNIFIES", "Concept:日干", "Person:應試人", "004:3", None, {"topic": "科試", "role": "significator"}),
    ("4.01.02", "SIGNIFIES", "Concept:時干", "Person:主考", "004:3", None, {"topic": "科試"}),
    ("4.01.10", "SIGNIFIES", "Concept:時干", "Concept:宜中", "004:3", None, {"generates": "日干"}),
    ("4.01.14", "SIGNIFIES", "Gate:傷門", "Concept:塗抹", "004:3", None, {"alt": "驚門"}),
    ("4.02.03", "SIGNIFIES", "Deity:玄武", "Concept:名高擢", "004:7", None, {"alt": "白虎", "generates": "日干"}),
    ("4.02.07", "SIGNIFIES", "Gate:開門", "Concept:御筆鮮", "004:7", None, {"with": "九天", "topic": "科試"}),
    ("4.02.08", "SIGNIFIES", "Gate:杜門", "Concept:孫山外", "004:7", None, {"with": "九地"}),
    ("4.03.01", "AVOIDS", "Concept:奇儀", "Pattern:刑格", "004:11", None, {"topic": "科試"}),
    ("4.03.07", "SIGNIFIES", "Kin:鬼", "Concept:多得意", "004:11", None, {"with": "印"}),
    ("4.04.01", "SIGNIFIES", "Shensha:天門", "Concept:揭曉", "004:15", None, {"topic": "科試"}),
    ("4.04.04", "SIGNIFIES", "Shensha:地戶", "Concept:中舉人", "004:15", None, {"state": "得令", "generates": "鬼"}),
    ("4.05.01", "SIGNIFIES", "Pattern:青龍返首", "Concept:無疵方得成名", "004:19", None, {"topic": "科試"}),
    ("4.05.07", "SIGNIFIES", "Pattern:虎遁", "Concept:蟾宮折桂", "004:19", None, {"topic": "科試"}),
    ("4.05.24", "SIGNIFIES", "Pattern:格", "Concept:進呈有阻", "004:19", None, {"written": "隔"}),
    ("4.05.27", "SIGNIFIES", "Pattern:熒入白", "Concept:不第", "004:19", None, {"topic": "科試"}),
    ("4.05.36", "SIGNIFIES", "Pattern:天乙·祿·馬", "Concept:自飛黃", "004:19", None, {"topic": "科試"}),
    # 4.06–4.11 求財
    ("4.06.02", "SIGNIFIES", "Concept:時干", "Concept:財", "004:23", None, {"topic": "求財", "role": "significator"}),
    ("4.06.07", "SIGNIFIES", "Concept:日干", "Concept:財可就", "004:23", None, {"overcomes": "時干"}),
    ("4.06.08", "SIGNIFIES", "Concept:時干", "Concept:腦心", "004:23", "typo", {"overcomes": "日干"}),
    ("4.06.13", "SIGNIFIES", "Concept:日納", "Concept:倍息", "004:23", None, {"overcomes": "時納"}),
    ("4.07.04", "SIGNIFIES", "Deity:六合", "Person:中人", "004:27", None, {"topic": "求財"}),
    ("4.07.07", "SIGNIFIES", "Deity:玄武", "Concept:防失脫", "004:27", None, {"topic": "求財"}),
    ("4.08.03", "SIGNIFIES", "Concept:吉門", "Concept:腰纏千萬", "004:31", None, {"topic": "求財"}),
    ("4.08.08", "TIMES", "Concept:財庫", "Concept:到手時日", "004:31", None, {"alt": "本命"}),
    ("4.09.03", "SIGNIFIES", "Concept:財星", "Concept:休覓", "004:35", None, {"topic": "求財"}),
    ("4.09.08", "SYMBOLIZES", "Element:土", "Food:菽粟", "004:35", None, {"category": "wealth"}),
    ("4.09.08", "SYMBOLIZES", "Element:土", "Food:菽栗", "004:35", "typo", {}),
    ("4.09.14", "SYMBOLIZES", "Element:金", "Thing:珠玉", "004:35", None, {"topic": "求財"}),
    ("4.10.06", "SIGNIFIES", "Concept:季甲", "Concept:求未得", "004:39", None, {"topic": "求財"}),
    ("4.11.11", "AVOIDS", "Shensha:財神", "Shensha:刑", "004:43", None, {"or": "沖"}),
    ("4.11.25", "SIGNIFIES", "Pattern:熒入白", "Concept:宜買貨", "004:43", None, {"topic": "求財"}),
    ("4.11.29", "SIGNIFIES", "Pattern:三奇入墓", "Concept:見利不得手", "004:43", None, {"topic": "求財"}),
    # 4.12–4.17 行人
    ("4.12.01", "SIGNIFIES", "Concept:時干", "Person:行人", "004:47", None, {"topic": "行人"}),
    ("4.12.06", "SIGNIFIES", "Concept:日支", "Concept:歸時下", "004:47", None, {"combines": "馬"}),
    ("4.12.12", "SIGNIFIES", "Concept:時納", "Concept:行人飛驥", "004:47", None, {"overcomes": "日納"}),
    ("4.13.04", "SIGNIFIES", "Deity:值符", "Concept:想家門", "004:51", None, {"state": "空亡"}),
    ("4.13.07", "SIGNIFIES", "Shensha:馬", "Concept:歸鞭已近", "004:51", None, {"with": "九天", "alt_with": "九地"}),
    ("4.14.03", "AVOIDS", "Concept:值使", "Gate:驚門", "004:55", None, {"or": "傷門", "or2": "杜門", "or3": "死門"}),
    ("4.14.05", "SIGNIFIES", "Gate:開門", "Outcome:不吉", "004:55", None, {"with": "天忌"}),
    ("4.15.03", "SIGNIFIES", "Concept:行人星", "Concept:必回廬", "004:59", None, {"topic": "行人"}),
    ("4.16.05", "SIGNIFIES", "Concept:季甲", "Concept:人便到", "004:63", None, {"state": "開"}),
    ("4.17.18", "SIGNIFIES", "Pattern:白入熒", "Concept:行人將到", "004:67", None, {"topic": "行人"}),
    ("4.17.27", "SIGNIFIES", "Pattern:反吟", "Concept:去客登堂", "004:67", None, {"alt": "伏吟", "with": "馬"}),
    # 4.18–4.21 出行
    ("4.18.02", "SIGNIFIES", "Concept:時干", "Place:所往之地", "004:71", None, {"topic": "出行"}),
    ("4.18.03", "SIGNIFIES", "Concept:日干", "Concept:去向利", "004:71", None, {"overcomes": "時干"}),
    ("4.19.02", "SYMBOLIZES", "Deity:六合", "Person:同伴", "004:75", None, {"topic": "出行"}),
    ("4.19.09", "SYMBOLIZES", "Deity:玄武", "Concept:盜", "004:75", None, {"topic": "出行"}),
    ("4.19.13", "SIGNIFIES", "Deity:九天", "Concept:宜去向", "004:75", None, {"topic": "出行"}),
    ("4.20.02", "FAVOURS", "Concept:用神", "Kin:印", "004:79", None, {"topic": "投托"}),
    ("4.21.09", "SIGNIFIES", "Pattern:大格", "Concept:舟車宜有防", "004:83", None, {"written": "大隔"}),
    ("4.21.13", "SIGNIFIES", "Pattern:熒入白", "Concept:火盜留意", "004:83", None, {"topic": "出行"}),
    # 4.22–4.30 家宅
    ("4.22.02", "SYMBOLIZES", "Deity:值符", "Concept:坐山", "004:87", None, {"topic": "家宅"}),
    ("4.22.02", "SYMBOLIZES", "Deity:值符", "Concept:艮山", "004:87", "typo", {}),
    ("4.22.11", "SYMBOLIZES", "Deity:白虎", "Person:奴婢", "004:87", None, {"category": "person"}),
    ("4.22.23", "SYMBOLIZES", "Deity:九天", "Building:明堂", "004:87", None, {"topic": "家宅"}),
    ("4.22.25", "SYMBOLIZES", "Gate:休門", "Place:門路", "004:87", None, {"house": "坎"}),
    ("4.22.32", "SYMBOLIZES", "Gate:開門", "Place:門路", "004:87", None, {"house": "乾"}),
    ("4.23.07", "SYMBOLIZES", "Stem:丁", "Building:屈灶", "004:91", None, {"topic": "家宅"}),
    ("4.23.32", "SYMBOLIZES", "QimenStar:天沖", "Person:長男", "004:91", None, {"category": "person"}),
    ("4.23.47", "SYMBOLIZES", "QimenStar:天柱", "Person:少女", "004:91", None, {"topic": "家宅"}),
    ("4.24.01", "SYMBOLIZES", "Palace:坎一", "Concept:秀整委曲", "004:95", None, {"state": "得令"}),
    ("4.24.09", "SYMBOLIZES", "Palace:兌七", "Concept:缺凹破敗", "004:95", None, {"state": "失令"}),
    ("4.24.06", "SYMBOLIZES", "Palace:乾六", "Concept:近岡冶", "004:95", None, {"frame": "寅午戌"}),
    ("4.25.01", "AVOIDS", "Deity:玄武", "Shensha:天門", "004:99", None, {"topic": "家宅"}),
    ("4.25.12", "SIGNIFIES", "Concept:仲甲", "Concept:破漏", "004:99", None, {"state": "陰闔"}),
    ("4.26.05", "SIGNIFIES", "Concept:時干", "Concept:住不得", "004:103", None, {"overcomes": "日干"}),
    ("4.27.09", "SIGNIFIES", "Concept:值使", "Concept:防回祿", "004:107", None, {"element": "木", "element2": "火"}),
    ("4.28.06", "SIGNIFIES", "Deity:值符", "Concept:從旁取斷", "004:111", None, {"kin": "鬼"}),
    ("4.29.09", "SIGNIFIES", "Pattern:太陰英景", "Concept:寵婢竊位", "004:115", None, {"topic": "家宅"}),
    ("4.29.10", "REQUIRES", "Pattern:伏刃", "Deity:九地", "004:115", None, {"slot": "deity", "basis": "text"}),
    ("4.29.12", "REQUIRES", "Pattern:飛牒", "Stem:丙", "004:115", None, {"slot": "stem"}),
    ("4.30.10", "SIGNIFIES", "Pattern:白虎猖狂", "Concept:虎首房強", "004:119", None, {"topic": "家宅"}),
    ("4.30.12", "SIGNIFIES", "Pattern:朱雀投江", "Concept:魅祟為殃", "004:119", None, {"topic": "家宅"}),
    ("4.30.27", "SIGNIFIES", "Pattern:天馬", "Concept:無出路", "004:119", None, {"topic": "家宅"}),
    # 4.31–4.42 疾病
    ("4.31.05", "SYMBOLIZES", "Deity:太陰", "Illness:肺勞", "004:123", None, {"topic": "疾病", "category": "illness"}),
    ("4.31.20", "SYMBOLIZES", "Gate:生門", "Illness:癰毒", "004:123", None, {"topic": "疾病"}),
    ("4.31.20", "SYMBOLIZES", "Gate:生門", "Illness:癱毒", "004:123", "typo", {}),
    ("4.31.30", "SYMBOLIZES", "Gate:驚門", "Illness:勞瘵", "004:123", None, {"topic": "疾病"}),
    ("4.32.02", "SYMBOLIZES", "Stem:甲", "Organ:肝", "004:127", None, {"category": "body"}),
    ("4.32.27", "SYMBOLIZES", "QimenStar:天英", "Concept:灶司不安", "004:127", None, {"category": "cause"}),
    ("4.32.28", "SYMBOLIZES", "QimenStar:天芮", "Concept:家先作祟", "004:127", None, {"topic": "疾病"}),
    ("4.33.08", "SYMBOLIZES", "Palace:兌七", "Illness:勞症", "004:131", None, {"topic": "疾病"}),
    ("4.33.11", "FAVOURS", "Palace:艮八", "Concept:針灸", "004:131", None, {"category": "treatment"}),
    ("4.34.07", "SYMBOLIZES", "Concept:孟甲", "BodyPart:上焦", "004:135", None, {"topic": "疾病"}),
    ("4.34.15", "SIGNIFIES", "Concept:季甲", "Illness:痔閉", "004:135", None, {"state": "闔"}),
    ("4.35.04", "SIGNIFIES", "Concept:日干", "Concept:瘥", "004:139", None, {"overcomes": "時干"}),
    ("4.36.02", "SIGNIFIES", "Deity:太陰", "Concept:情慾病", "004:143", None, {"alt": "六合", "overcomes": "值符"}),
    ("4.37.03", "SIGNIFIES", "Concept:凶門", "Concept:堪畏懼", "004:147", None, {"state": "旺相"}),
    ("4.38.02", "SIGNIFIES", "Element:木", "Concept:脾胃傷", "004:151", None, {"overcomes": "土"}),
    ("4.39.06", "FAVOURS", "Element:金", "Concept:溫補", "004:155", None, {"topic": "疾病"}),
    ("4.40.01", "SIGNIFIES", "Shensha:天門", "Concept:發表", "004:159", None, {"topic": "疾病"}),
    ("4.40.08", "SYMBOLIZES", "Concept:季甲", "BodyPart:尾閭", "004:159", None, {"topic": "疾病"}),
    ("4.41.01", "SIGNIFIES", "Pattern:青龍返首", "Concept:吉課成凶", "004:163", None, {"topic": "疾病"}),
    ("4.41.07", "SIGNIFIES", "Pattern:地遁", "Concept:黃泉正客", "004:163", None, {"with": "年命"}),
    ("4.41.17", "SIGNIFIES", "Pattern:喪吊", "Concept:不堪", "004:163", None, {"topic": "疾病"}),
    ("4.42.10", "SIGNIFIES", "Pattern:白入熒", "Concept:災自退", "004:167", None, {"topic": "疾病"}),
    ("4.42.12", "SIGNIFIES", "Pattern:五不遇時", "Concept:將逝", "004:167", None, {"topic": "疾病"}),
    ("4.42.20", "SYMBOLIZES", "Element:木", "Thing:棺", "004:167", None, {"category": "symbol"}),
    # 4.P pattern definitions (master list)
    ("4.P.01", "REQUIRES", "Pattern:青龍返首", "Stem:戊", "004:19", None, {"slot": "heaven", "basis": "standard"}),
    ("4.P.01", "REQUIRES", "Pattern:青龍返首", "Stem:丙", "004:19", None, {"slot": "earth"}),
    ("4.P.02", "REQUIRES", "Pattern:飛鳥跌穴", "Stem:丙", "004:19", None, {"slot": "heaven"}),
    ("4.P.03", "REQUIRES", "Pattern:白虎猖狂", "Stem:辛", "003:151", None, {"slot": "heaven", "basis": "text"}),
    ("4.P.06", "REQUIRES", "Pattern:朱雀投江", "Stem:癸", "003:159", None, {"slot": "earth", "basis": "text"}),
    ("4.P.09", "REQUIRES", "Pattern:伏干格", "Concept:日干", "004:19", None, {"slot": "earth"}),
    ("4.P.13", "REQUIRES", "Pattern:大格", "Stem:癸", "004:119", None, {"slot": "earth"}),
    ("4.P.15", "REQUIRES", "Pattern:刑格", "Stem:己", "004:83", None, {"slot": "earth"}),
    ("4.P.18", "REQUIRES", "Pattern:五不遇時", "Stem:庚", "004:119", None, {"slot": "hour_stem", "case": "1"}),
    ("4.P.19", "REQUIRES", "Pattern:六儀擊刑", "Palace:震三", "004:119", None, {"slot": "palace", "case": "1"}),
    ("4.P.20", "REQUIRES", "Pattern:三奇入墓", "Palace:艮八", "004:119", None, {"case": "3"}),
    ("4.P.23", "REQUIRES", "Pattern:伏吟", "Concept:本宮", "004:111", None, {"system": "qimen"}),
    ("4.P.24", "REQUIRES", "Pattern:門迫", "Palace:離九", "004:19", None, {"case": "1"}),
    ("4.P.25", "REQUIRES", "Pattern:天遁", "Gate:生門", "004:19", None, {"slot": "gate"}),
    ("4.P.34", "HAS_MEMBER", "Pattern:遁格", "Pattern:雲遁", "004:43", None, {"basis": "standard"}),
    ("4.P.35", "REQUIRES", "Pattern:三詐", "Deity:九地", "004:19", None, {"slot": "deity"}),
    ("4.P.39", "REQUIRES", "Pattern:三奇得使", "Stem:庚", "004:19", None, {"slot": "earth", "case": "2"}),
    ("4.P.40", "REQUIRES", "Pattern:玉女守門", "Stem:丁", "004:19", None, {"slot": "earth"}),
    ("4.P.42", "REQUIRES", "Pattern:天馬", "Branch:卯", "004:19", None, {"slot": "sky"}),
    ("4.P.43", "REQUIRES", "Pattern:私門", "General:太常", "004:43", None, {"slot": "general"}),
    ("4.P.48", "HAS_MEMBER", "Pattern:凶格", "Pattern:六儀擊刑", "004:83", None, {}),
    ("4.P.53", "REQUIRES", "Pattern:蛇附蓬星", "QimenStar:天蓬", "004:115", None, {"basis": "name"}),
    ("4.P.66", "REQUIRES", "Pattern:庚辛刑甲乙·飛入中宮", "Palace:中五", "004:167", None, {"slot": "palace", "basis": "text"}),
]


@pytest.mark.parametrize("item,rel,subj,obj,src,variant,quals", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_fact_present(facts, item, rel, subj, obj, src, variant, quals):
    hits = [f for f in find(facts, rel, subj, obj, src, variant, **quals) if f["item"] == item]
    assert hits, f"missing {item}: {rel} {subj} -> {obj} @ {src} {variant or ''} {quals}"


def test_enough_cases():
    assert len(CASES) >= 60
    sections = {c[0].rsplit(".", 1)[0] for c in CASES}
    assert {f"4.{i:02d}" for i in range(1, 43)} <= sections | {"4.P"}


def test_item_counts_match_inventory(facts):
    expected = {}
    with open(ROOT / "ontology" / "coverage" / "expected_qm004.csv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            expected[row["section"]] = int(row["expected"])
    assert sum(v for k, v in expected.items() if k != "4.P") == 659
    got = defaultdict(set)
    for f in facts:
        if f["item"]:
            got[f["item"].rsplit(".", 1)[0]].add(f["item"])
    for section, n in expected.items():
        assert len(got[section]) == n, f"{section}: {len(got[section])} items, inventory counts {n}"


def test_every_section_row_has_topic(facts):
    """One of the six topics of 004, or a sub-topic of one (SUBTOPIC_OF: 買貨 of 求財 …)."""
    topics = {"科試", "求財", "行人", "出行", "家宅", "疾病"}
    parent = {f["subject"]["name"]: f["object"]["name"] for f in facts if f["relation"] == "SUBTOPIC_OF"}
    assert set(parent.values()) <= topics and set(parent) == {"買貨", "賣貨", "藝術圖謀", "索債取捕", "圖謀", "投托"}
    for f in facts:
        if f["item"] and not f["item"].startswith("4.P"):
            topic = (f["qualifiers"].get("topic") or {}).get("name")
            assert parent.get(topic, topic) in topics, f["id"]


def test_typo_rows_have_a_regular_reading(facts):
    regular = {(f["item"]) for f in facts if f["variant"] is None}
    for f in facts:
        if f["variant"] == "typo":
            assert f["item"] in regular, f"{f['item']} has only the text form"
