"""Engine gaps a second audit (2026-12-01) found: the five 干合 were not in the graph; a 甲 natal year never
stood on a Qimen plate; ``not`` held over an unbound slot (天 of 中五, 本命 without a birth year); a group
pattern (凶格) could not be tested in one palace."""

from __future__ import annotations

from datetime import datetime

import leishen
from leishen.engine.chart import ChartRequest, build_chart
from leishen.service.book import reader
from leishen.readings.bindings import chart_bindings

from fired import random_moments


def _names(walk):
    return [h["node"]["name"] if "node" in h else (h["rel"], h.get("src")) for h in walk]


def test_the_stem_harmonies_are_edges_of_the_graph():
    """甲子 day: the 己巳 hour combines with the day stem (甲己), the 庚午 hour does not."""
    r = reader()
    yes = r.test(leishen.chart("2024-01-01T10:00+08:00"), "rel(日干, STEM_COMBINES, 時干)", system="qimen")
    assert yes["holds"] and _names(yes["walks"][0]) == ["甲", ("STEM_COMBINES", ["003:87"]), "己"]
    assert not r.test(leishen.chart("2024-01-01T12:00+08:00"), "rel(日干, STEM_COMBINES, 時干)", system="qimen")["holds"]
    pairs = {(e.src, e.dst) for e in r.data.edges if e.type == "STEM_COMBINES"}
    assert pairs == {(r.lex.id("Stem", a), r.lex.id("Stem", b)) for a, b in ("甲己", "乙庚", "丙辛", "丁壬", "戊癸")}


def test_gan_jian_he_can_hold():
    """更得三奇及干見合則有利 (003:87): 休門 in a wood or earth palace with a wonder combining with the earth stem
    (it never held: no 干合 edge)."""
    reading = reader().read(build_chart(datetime.fromisoformat("2006-10-18T21:13:00+08:00")), topic="田禾")
    assert "facts/003/n_crops_silk.csv#3" in {f["rule"]["fact"] for f in reading["findings"]}


def test_a_jia_natal_year_stands_as_its_yi():
    r = reader()
    moment = "2025-03-04T10:00+08:00"
    b = chart_bindings(leishen.chart(moment, request=ChartRequest(birth_year=1984, sex="male")), r.lex, r.seasons)
    assert b.slots["本命盤干"].chain == (("Stem:jia", "本命干"), ("HIDES_AS", "Stem:wu"))  # 甲子 → 戊
    b = chart_bindings(leishen.chart(moment, request=ChartRequest(birth_year=1985, sex="male")), r.lex, r.seasons)
    assert b.slots["本命盤干"] is b.slots["本命干"]


def test_not_needs_the_slots_it_reads_bound():
    """年命無傷 (004:163, jibing.csv#156) held in 中五, which has no heaven stem (so 'not overcome by the
    heaven stem' held by default); and not(...) of 本命 holds only with a birth year."""
    r = reader()
    moment = "2026-04-03T22:00+08:00"
    reading = r.read(leishen.chart(moment, request=ChartRequest(birth_year=1985, sex="male")), topic="疾病")
    assert not [f for f in reading["findings"] if f["rule"]["fact"] == "facts/004/jibing.csv#156"]
    assert not r.test(leishen.chart(moment), "not(eq(本命, Branch.子))", system="liuren")["holds"]
    assert r.test(leishen.chart(moment, request=ChartRequest(birth_year=1985, sex="male")),
                  "not(eq(本命, Branch.子))", system="liuren")["holds"]  # 乙丑: 丑


def test_a_group_pattern_in_one_palace():
    """凶格 in a palace is one of its members there, witnessed by the member's walk through the palace
    (1971-01-18 04:52: 三奇入墓 in 乾六, 格 in 坎一, and in 艮八 only the whole-plate 伏吟)."""
    r, chart = reader(), build_chart(datetime.fromisoformat("1971-01-18T04:52:00+08:00"))
    here = "some(宮, all(eq(宮, Palace.{}), pattern_here(Pattern.凶格)))"
    got = r.test(chart, here.format("乾六"), system="qimen")
    assert got["holds"] and [n for n in _names(got["walks"][1]) if isinstance(n, str)] == ["乾六", "丙", "三奇入墓", "凶格"]
    assert [n for n in _names(r.test(chart, here.format("坎一"), system="qimen")["walks"][1])
            if isinstance(n, str)] == ["坎一", "庚", "格", "凶格"]
    # audit 2026-12-02 (test_audit3_pat_r3): this chart is a whole-plate 伏吟 (天蓬 in 坎一), which now holds in
    # every palace, so 艮八 has a 凶格 too, witnessed by 天蓬 in 坎一 (it was "none in 艮八" before)
    got = r.test(chart, here.format("艮八"), system="qimen")
    assert got["holds"] and [n for n in _names(got["walks"][1]) if isinstance(n, str)] == ["坎一", "天蓬", "伏吟", "凶格"]


def test_a_liuren_season_is_the_months_three_month_season():
    """春 in 002 (丑加卯 春 雨雷, 002:35) is the 寅卯辰 months: the 辰 month (Season:季 in 000's IN_SEASON table) is
    spring too."""
    chart = leishen.chart("2024-04-10T00:30:00+08:00")
    assert chart["liuren"]["month_branch"] == "辰"
    found = {f["rule"]["fact"] for f in reader().read(chart)["findings"]}
    assert "facts/002/yuejiang_chou.csv#33" in found and "facts/002/yuejiang_chou.csv#34" not in found


def test_every_pattern_a_rule_tests_is_one_its_system_can_find():
    """pattern(P) is the pattern of the rule's own system: its REQUIRES rows in that system, or (Liu Ren) a
    課體 the engine names on one of the 720 courses. A Qimen rule of 004 testing a Liu Ren pattern (三門四戶,
    喪吊, 天乙·祿·馬) could never hold."""
    from leishen.engine.calendar import sexagenary_name
    from leishen.engine.liuren.course import compute_course
    from leishen.engine.liuren.options import LiurenOptions
    from leishen.readings.bindings import COURSE_PATTERNS
    from leishen.readings.search import patterns_tested
    r = reader()
    found = {(rules[0].system, p) for (p, _), rules in r.cases.items() if rules}
    names = set()
    for day in range(60):
        for offset in range(12):
            course = compute_course(sexagenary_name(day), offset, LiurenOptions())
            names |= {course.method, *course.course}
    found |= {("liuren", r.lex.id("Pattern", n)) for name in names for n in (name, COURSE_PATTERNS.get(name))
              if r.lex.id("Pattern", n or "")}
    dead = sorted((rule.fact, p) for rule in r.rules for p in rule.patterns if (rule.system, p) not in found)
    assert dead == []


def test_bindings_name_the_paths_own_start():
    """A slot two walks start from with different nodes (宮 of two some(宮, …)) is bound, in ``bindings``, to the
    node the path starts from (the evidence's palace used to overwrite it)."""
    r, seen = reader(), 0
    for moment in random_moments(60, 3):
        for f in r.read(leishen.chart(moment), topic="*")["findings"]:
            start = f["path"][0]
            if start.get("slot") and "node" in start:
                assert f["bindings"][start["slot"]] == start["node"]["id"], f["id"]
                seen += "/" in f["id"]
    assert seen > 0  # findings held in two instances were among them
