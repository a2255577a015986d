"""Readings found wanting by probing: find of a rule that tests a pattern, find of the relations of every
system, one id per finding, a pattern read under a topic, the text's variant rows left out by default."""

from __future__ import annotations

from collections import Counter

import pytest

import leishen
from leishen.readings import Reader
from leishen.service.book import new_reader


def _ids(reading):
    return [f["id"] for f in reading["findings"]]


def test_find_reports_a_rule_whose_condition_tests_a_pattern():
    """xingren.csv#67 holds when the pattern 反吟 holds (pattern(P)): find must decide the pattern to see it."""
    moment = "2068-10-11T15:00+08:00"
    read = [i for i in _ids(leishen.read(moment, topic="行人")) if "xingren.csv#67" in i]
    assert read == ["qimen/rules/facts/004/xingren.csv#67"]
    hits = list(leishen.find("facts/004/xingren.csv#67", moment, moment, topic="行人"))
    assert [h["findings"] for h in hits] == [read]  # the asked rule only, not the pattern it tests


def test_find_relations_reads_the_qimen_slots_too():
    moment = "2079-12-12T01:00+08:00"
    read = [i for i in _ids(leishen.read(moment)) if "/relations/" in i]
    assert any(i.startswith("qimen/relations/") for i in read)
    assert next(leishen.find("relations", moment, moment))["findings"] == read


def test_mutual_punishments_are_two_findings_with_two_ids():
    """子刑卯 and 卯刑子 are two facts: each finding names the slots in its relation's direction."""
    reading = leishen.read("2042-11-06T13:37+08:00")
    ids = _ids(reading)
    assert not [i for i, n in Counter(ids).items() if n > 1]
    punish = {i: f for f in reading["findings"] if (i := f["id"]).endswith("/PUNISHES") and "月將" in i and "初傳" in i}
    assert set(punish) == {"liuren/relations/月將-初傳/PUNISHES", "liuren/relations/初傳-月將/PUNISHES"}
    assert {f["rule"]["fact"] for f in punish.values()} and len({f["rule"]["fact"] for f in punish.values()}) == 2


@pytest.mark.parametrize("seed", range(3))
def test_no_reading_repeats_an_id(seed):
    import random
    rng = random.Random(seed)
    for _ in range(40):
        moment = f"{rng.randrange(1900, 2100)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T" \
                 f"{rng.randrange(24):02d}:{rng.randrange(60):02d}+08:00"
        ids = _ids(leishen.read(moment, topic="*"))
        assert len(ids) == len(set(ids)), moment


def test_a_pattern_read_under_a_topic_is_that_topics_finding():
    """伏刃's REQUIRES rows are 家宅's: its finding is counted under 家宅, never as general."""
    moment = "2056-06-26T19:15+08:00"
    found = next(f for f in leishen.read(moment, topic="家宅")["findings"] if "jiazhai.csv#153" in f["id"])
    assert found["topic"] == "家宅"
    assert found["id"] not in _ids(leishen.read(moment))


def test_variant_rows_are_read_only_when_asked():
    """亥刑亥 is written twice in 000:51, once as a slip (variant typo): a default reading has the regular row
    only; a reader of variants has both, apart."""
    moment = "2079-12-12T01:00+08:00"
    regular = [f for f in leishen.read(moment)["findings"] if f["id"].startswith("liuren/relations/太歲-初傳/")]
    assert [(f["rule"]["fact"], f["variant"]) for f in regular] == [("facts/000/relations.csv#13", None)]
    both = [f for f in new_reader(variants=True).read(leishen.chart(moment))["findings"]
            if f["id"].startswith("liuren/relations/太歲-初傳/")]
    assert sorted((f["rule"]["fact"], f["variant"]) for f in both) == [("facts/000/relations.csv#13", None),
                                                                      ("facts/000/relations.csv#14", "typo")]
    assert len({f["id"] for f in both}) == 2


def test_no_leixiang_or_shensha_finding_of_a_default_reading_is_a_variant_row():
    import random
    rng = random.Random(4)
    for _ in range(60):
        moment = f"{rng.randrange(1900, 2100)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T" \
                 f"{rng.randrange(24):02d}:00+08:00"
        for f in leishen.read(moment, topic="*")["findings"]:
            if f["query"] in ("leixiang", "shensha", "relations"):
                assert f["variant"] is None, (moment, f["id"])
            if f["query"] == "shensha":
                assert f["meaning"]["ko"], f["id"]


def test_a_rule_holding_by_an_absence_starts_at_the_slots_it_examined():
    """jiazhai.csv#125: at 值符宮, neither of its stems overcomes the other; qiucai.csv#18: no 刑 害 between the
    day and hour branches and no 剋 of the hour stem on the day stem. Each path starts at a slot."""
    moment = "1982-08-22T09:37+08:00"
    house = next(f for f in leishen.read(moment, topic="家宅")["findings"] if "jiazhai.csv#125" in f["id"])
    assert house["path"][0]["slot"] == "宮" and house["path"][1] == {"rel": "HEAVEN_STEM", "chart": True, "src": None}
    assert house["id"].endswith("@" + house["path"][0]["node"]["id"])
    assert [h["rel"] for h in house["evidence"][0] if "rel" in h] == ["EARTH_STEM"]
    wealth = next(f for f in leishen.read(moment, topic="求財")["findings"] if "qiucai.csv#18" in f["id"])
    assert set(wealth["bindings"]) == {"日支", "時支", "時干", "日干"} and wealth["path"][0]["slot"] == "日支"


def test_the_graph_checks_walk_a_variant_relation_only_when_asked():
    """changsheng.csv#122 is the text's slip 乙 帝旺 at 卯 (甲 is meant): a default reading never walks it, so 乙 at
    卯 is not 帝旺 there; a reader of variants walks it, and its finding says it is a variant."""
    moment = "1980-05-12T22:55+08:00"
    chart = leishen.chart(moment)
    assert chart["pillars"]["day"][0] == "乙"

    def walked(reading):
        return {f["id"] for f in reading["findings"]
                for walk in (f["path"], *f["evidence"]) for h in walk if h.get("key") == "facts/000/changsheng.csv#122"}

    assert walked(leishen.read(moment, topic="*")) == set()
    assert "liuren/stages/末傳/LifeStage:di_wang" not in _ids(leishen.read(moment))
    with_variants = new_reader(variants=True).read(chart)
    assert "liuren/stages/末傳/LifeStage:di_wang" in walked(with_variants)
    found = next(f for f in with_variants["findings"] if f["id"] == "liuren/stages/末傳/LifeStage:di_wang")
    assert found["variant"] == "text"


def test_a_chart_without_liu_ren_keeps_the_askers_birth_for_qimen():
    """本命 is a slot Qimen rules test too: a Qimen-only chart carries the birth on its own and binds it."""
    from leishen.engine.chart import ChartRequest
    request = ChartRequest(systems=("qimen",), birth_year=1984, sex="male")
    chart = leishen.chart("2026-12-01T10:00+09:00", request=request)
    assert chart["birth"] == {"year": 1984, "ben_ming": "甲子", "sex": "male", "xing_nian": "戊申"}
    reading = leishen.read(chart, topic="*")  # checked as a typed chart: the top-level birth is part of the shape
    assert {"本命", "本命干", "行年"} <= set(reading["bindings"])
    assert "birth" not in leishen.chart("2026-12-01T10:00+09:00", request=ChartRequest(birth_year=1984))


def test_lore_findings_show_the_options_of_their_system_and_a_typed_copy_reads_alike():
    import json
    from leishen.engine.chart import ChartRequest
    from leishen.engine.liuren.options import LiurenOptions
    chart = leishen.chart("2026-12-01T10:00+09:00", request=ChartRequest(liuren=LiurenOptions.from_mapping(
        {"noble_table": "daquan"})))
    from leishen.service import book
    computed = book.read(chart, topic="*")
    for f in computed["findings"]:
        section = chart[f["system"]]["options"]
        assert f["options"] == {k: v for k, v in section.items() if v is not None}, f["id"]
    # through the readings door both ways (its 年景 findings are the 立春 chart's, 003:75): the chart as computed,
    # and a JSON copy of it read as a typed chart
    door = leishen.read(chart, topic="*")
    typed = leishen.read(json.loads(json.dumps(chart)), topic="*")
    assert [(f["id"], f["options"]) for f in typed["findings"]] == [(f["id"], f["options"]) for f in door["findings"]]
    outside = [f["id"] for f in computed["findings"] if "k_year_regions" not in f["id"]]
    assert outside == [f["id"] for f in door["findings"] if "k_year_regions" not in f["id"]]


def test_the_readings_package_is_reachable_from_import_leishen_alone():
    import subprocess
    import sys
    code = ("import leishen; print(leishen.readings.Reader.__name__ == 'Reader' and "
            "len(leishen.read(leishen.chart('2026-12-01T10:00+09:00'))['findings']) > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "True", out.stderr


def _walk_names(walk):
    return [h["node"]["name"] if "node" in h else h["rel"] for h in walk]


def test_a_rule_of_a_branch_over_the_askers_year_names_the_year():
    """yuejiang_xu.csv#34 (戌加年命): 戌 over the 本命 position. Its evidence names 本命 (it decided the finding)."""
    from leishen.engine.chart import ChartRequest
    chart = leishen.chart("2026-12-01T10:00+09:00", request=ChartRequest(birth_year=1973, sex="male"))
    found = next(f for f in leishen.read(chart, topic="*")["findings"] if "yuejiang_xu.csv#34" in f["id"])
    assert found["bindings"] == {"地": "Branch:chou", "本命": "Branch:chou"}
    assert [h.get("slot") for walk in found["evidence"] for h in walk[:1]][-1] == "本命"
    assert _walk_names(found["evidence"][-1]) == ["丑"]  # the 本命 position itself, at its slot


def test_tianyi_lu_ma_needs_the_salary_and_the_horse_as_well_as_the_noble():
    """004:19 天乙·祿·馬: the noble on the day, the day stem's 祿 (its 臨官 branch) and the day's 驛馬 in the lessons
    or the transmissions. 己卯 day, 2026-01-04 23:00: 貴人 on 申 over 未 (己's 寄宮), 祿 午 is 末傳, 馬 巳 is 中傳."""
    found = next(f for f in leishen.read("2026-01-04T23:00+08:00")["findings"] if "patterns.csv#219" in f["id"])
    walks = [[h.get("slot") or h.get("rel") or h["node"]["name"] for h in w] for w in [found["path"], *found["evidence"]]]
    assert walks[0] == ["地", "PLATE_OVER", "申", "RIDDEN_BY", "貴人", "REQUIRES", "天乙·祿·馬"]
    assert ["末傳", "OBJECT", "己十二長生午", "QUALIFIER", "臨官"] in walks and ["中傳"] in walks and ["驛馬"] in walks
    assert found["certainty"] == "needs_judgment"  # 乘吉 (riding auspicious signs) is the reader's
    # 乙亥 day, 2026-01-01 09:00: the noble is on the day and 祿 卯 is 中傳, but 馬 巳 is nowhere: no pattern
    reading = leishen.read("2026-01-01T09:00+08:00")
    assert not [f for f in reading["findings"] if "patterns.csv#219" in f["id"]]


def test_the_three_gates_favour_wealth_only_standing_on_the_day():
    """qiucai.csv#72 (004:43 三門四戶最宜生合): a gate branch (卯 未 酉) over the day stem's 寄宮 or the day branch
    that generates the day stem or combines with the day branch; a gate branch elsewhere does not count."""
    assert not [f for f in leishen.read("1999-07-24T12:43+08:00", topic="求財")["findings"] if "qiucai.csv#72" in f["id"]]
    found = next(f for f in leishen.read("2026-01-02T05:00+08:00", topic="求財")["findings"] if "qiucai.csv#72" in f["id"])
    walks = [[h.get("slot") or h.get("rel") or h["node"]["name"] for h in w] for w in [found["path"], *found["evidence"]]]
    # 丙子 day: 卯 over 巳, 丙's 寄宮, and 卯 (wood) generates 丙 (fire)
    assert walks[0][:3] == ["地", "PLATE_OVER", "卯"] and found["id"].endswith("@Branch:si")
    assert ["日干", "LODGES", "巳"] in walks
    assert ["地", "PLATE_OVER", "卯", "HAS_ELEMENT", "木", "GENERATES", "火", "HAS_ELEMENT", "日干"] in walks


def test_the_duty_gate_meeting_the_coming_direction_is_not_read_on_a_gate_the_line_avoids():
    """xingren.csv#23 (004:55 門合來方歸意濃) is good only when the 值使 is not 驚 傷 杜 死, which the same line avoids
    (#24): on 2026-12-01 10:00+09:00 the 值使 is 死門, so #24 holds and #23 does not; on 12-04 08:00 it is 休門."""
    chart = leishen.chart("2026-12-01T10:00+09:00")
    assert chart["qimen"]["duty_gate"] == "死門"
    ids = _ids(leishen.read(chart, topic="行人"))
    assert "qimen/rules/facts/004/xingren.csv#24" in ids and "qimen/rules/facts/004/xingren.csv#23" not in ids
    other = leishen.chart("2026-12-04T08:00+09:00")  # the 值使 is 休門
    assert other["qimen"]["duty_gate"] == "休門"
    assert "qimen/rules/facts/004/xingren.csv#23" in _ids(leishen.read(other, topic="行人"))
