"""The standard tables (issue #29 item 7): 月厭 生氣 死氣 by month, 喪門 弔客 by year branch and the sixty 納音,
read from ontology/facts/std/ with citations of works outside the seeds (ontology/sources.csv), bound as slots,
firing the rules that waited on them, and turned off by the Liu Ren option ``standard_tables``.

The chart: 2026-12-01T10:00+09:00 — year 丙午 (天河水), month 己亥 (平地木, 十月), day 己酉 (大驛土), hour 己巳 (大林木).
"""

from __future__ import annotations

import pytest

import leishen
from leishen.engine.calendar import BRANCHES
from leishen.engine.chart import ChartRequest
from leishen.engine.liuren.options import LiurenOptions, StandardTables
from leishen.errors import CitationError
from leishen.loaders.build import build_graph, check_citations, read_registry
from leishen.loaders.corpus import load_corpus, parse_citation
from leishen.service.book import reader
from leishen.readings.bindings import chart_bindings
from leishen.readings.standard import nayin_names

MOMENT = "2026-12-01T10:00+09:00"
OFF = LiurenOptions(standard_tables=StandardTables.OFF)


@pytest.fixture(scope="module")
def r():
    return reader()


def _name(r, node_id: str) -> str:
    return r.props[node_id]["name"]


def _table(relation: str) -> dict[str, str]:
    """subject branch → object branch of one standard table, from the graph's facts."""
    data = build_graph()
    names = {n.id: n.props["name"] for n in data.nodes if n.label == "Branch"}
    return {names[f.subject]: names[f.object] for f in data.facts if f.relation == relation}


def test_the_chart_binds_each_table_slot(r):
    b = chart_bindings(leishen.chart(MOMENT), r.lex, r.seasons)
    got = {k: _name(r, b.slots[k].value) for k in ("月厭", "生氣", "死氣", "喪門", "弔客", "年納", "月納", "日納", "時納")}
    # 十月 (亥): 月厭 正月戌 backward → 丑; 生氣 正月子 forward → 酉; 死氣 its clash 卯; 午年: 喪門 申 (+2), 弔客 辰 (−2)
    assert got == {"月厭": "丑", "生氣": "酉", "死氣": "卯", "喪門": "申", "弔客": "辰",
                   "年納": "水", "月納": "木", "日納": "土", "時納": "木"}
    assert b.slots["月厭"].chain == (("Branch:hai", "月建"), ("MONTH_LOATHING", "Branch:chou", "facts/std/month_shensha.csv#11"))
    assert b.slots["喪門"].chain[0] == ("Branch:wu", "太歲")


def test_month_tables_follow_the_classical_rules():
    loathing, living, dead = _table("MONTH_LOATHING"), _table("LIVING_BREATH"), _table("DEAD_BREATH")
    assert len(loathing) == len(living) == len(dead) == 12
    for i in range(12):  # the i-th month (正月 = 寅)
        month = BRANCHES[(2 + i) % 12]
        assert loathing[month] == BRANCHES[(10 - i) % 12]  # 正月在戌, going backward
        assert living[month] == BRANCHES[i % 12]  # 正月在子, going forward
        assert dead[month] == BRANCHES[(6 + i) % 12]  # 正月在午: the clash of 生氣
    assert (loathing["寅"], loathing["午"], loathing["子"], loathing["丑"]) == ("戌", "午", "子", "亥")


def test_year_tables_are_two_branches_either_side_of_the_year():
    door, guest = _table("MOURNING_DOOR"), _table("CONDOLENCE_GUEST")
    for y, year in enumerate(BRANCHES):
        assert door[year] == BRANCHES[(y + 2) % 12] and guest[year] == BRANCHES[(y - 2) % 12]
    assert (door["子"], guest["子"]) == ("寅", "戌")


def test_the_sixty_nayin():
    names = nayin_names()
    assert len(names) == 60 and len(set(names.values())) == 30
    assert names["甲子"] == names["乙丑"] == "海中金" and names["丙寅"] == "爐中火"
    assert names["甲申"] == "井泉水" and names["壬戌"] == names["癸亥"] == "大海水"
    from lunar_python.util import LunarUtil  # the chart library's table agrees phase by phase
    assert all(name[-1] == LunarUtil.NAYIN[p][-1].replace("钏", "釧") for p, name in names.items())


def test_table_rows_cite_works_outside_the_seeds():
    facts = [f for f in build_graph().facts if f.file.startswith("facts/std/")]
    assert len(facts) == 36 + 24 + 60
    assert all(c.standard and c.doc in ("XJBF", "XKKY", "SMTH") for f in facts for c in f.src)
    by_file = {f.file: {str(c) for g in facts if g.file == f.file for c in g.src} for f in facts}
    assert by_file["facts/std/nayin.csv"] == {"SMTH:卷一·論納音取象"}
    assert "XJBF:卷二十·月表一" in by_file["facts/std/month_shensha.csv"]  # 正月's 月表
    registry, all_facts = read_registry()
    checked, errors = check_citations(registry, all_facts, load_corpus())
    assert not errors and checked == len(all_facts) - len(facts)  # the corpus checks skip them


def test_a_bad_standard_citation_is_refused_in_one_line():
    assert str(parse_citation("XJBF:卷二十七·月表八")) == "XJBF:卷二十七·月表八"
    with pytest.raises(CitationError, match="does not follow its form"):
        parse_citation("XJBF:月表八")
    with pytest.raises(CitationError, match="neither a seed document nor a work"):
        parse_citation("ABCD:卷一·x")
    with pytest.raises(CitationError, match="a work outside the seeds"):
        load_corpus().passage(parse_citation("SMTH:卷一·論納音取象"))


def _finding(reading: dict, fact: str) -> dict:
    return next(f for f in reading["findings"] if f["rule"]["fact"] == fact)


def _table_hops(finding: dict) -> list[dict]:
    walks = [finding["path"], *finding["evidence"]]
    return [h for w in walks for h in w if h.get("key", "").startswith("facts/std/")]


def test_a_structured_liuren_row_fires_through_the_table(r):
    """002:27 子加生氣 (yuejiang_zi): 22:00, 子 over 酉, the 十月 生氣."""
    f = _finding(r.read(leishen.chart("2026-12-01T22:00+09:00")), "facts/002/yuejiang_zi.csv#30")
    assert f["certainty"] == "holds" and f["src"] == ["002:27"] and f["meaning"]["zh"] == "燕子"
    assert [h["node"]["name"] for h in f["path"] if "node" in h][:2] == ["酉", "子"]
    hop, = _table_hops(f)
    assert (hop["rel"], hop["src"], hop["chart"]) == ("LIVING_BREATH", ["XKKY:卷五·月建十二神"], False)


def test_the_mourning_pattern_fires_on_a_natal_branch_two_after_the_year(r):
    """004:163 喪吊: a 午 year and a 申 natal branch (born 1980, 庚申) is 喪門; a 1990 (庚午) birth is neither."""
    reading = r.read(leishen.chart(MOMENT, request=ChartRequest(birth_year=1980)), topic="疾病")
    f = _finding(reading, "facts/004/patterns.csv#222")
    assert f["system"] == "qimen" and f["certainty"] == "holds" and f["src"] == ["004:163"]
    assert f["path"][0] == {"node": {"id": "Branch:shen", "label": "Branch", "key": "shen", "name": "申"}, "slot": "本命"}
    hop, = _table_hops(f)
    assert (hop["rel"], hop["src"], hop["key"]) == ("MOURNING_DOOR", ["XJBF:義例·喪門"], "facts/std/year_shensha.csv#8")
    other = r.read(leishen.chart(MOMENT, request=ChartRequest(birth_year=1990)), topic="疾病")
    assert not [g for g in other["findings"] if g["rule"]["fact"].startswith("facts/004/patterns.csv#22")]


def test_the_option_turns_the_tables_off(r):
    on = leishen.chart(MOMENT, request=ChartRequest(birth_year=1980))
    off = leishen.chart(MOMENT, request=ChartRequest(birth_year=1980, liuren=OFF))
    assert on["liuren"]["options"]["standard_tables"] == "on" and off["liuren"]["options"]["standard_tables"] == "off"
    assert {k: v for k, v in on.items() if k != "liuren"} == {k: v for k, v in off.items() if k != "liuren"}
    b = chart_bindings(off, r.lex, r.seasons)
    assert not {"月厭", "生氣", "死氣", "喪門", "弔客", "年納", "月納", "日納", "時納"} & set(b.slots)
    assert b.options["qimen"]["standard_tables"] == "off"
    reading = r.read(off, topic="疾病")
    assert not [f for f in reading["findings"] if f["rule"]["fact"] == "facts/004/patterns.csv#222"]
    assert not [f for f in reading["findings"] for h in _table_hops(f)]
    assert r.test(off, "eq(月厭, Branch.丑)")["holds"] is False and r.test(on, "eq(月厭, Branch.丑)")["holds"]


def test_the_option_is_refused_with_a_bad_value():
    from leishen.errors import ChartError
    with pytest.raises(ChartError, match="standard_tables: 'maybe' is not one of on, off"):
        LiurenOptions.from_mapping({"standard_tables": "maybe"})
