"""Issue #41's guarantees over 300 seeded random moments × every topic (one ``*`` reading each): no decided answer
rests on a row that needs judgment; no AVOIDS row returned as a prescription; no date for an event the judgment
did not find; no 五味 for an object not judged edible; 出行 and 疾病 read the 值使; no 吉 verdict while a decisive
凶 line of the topic holds, unless the facet names the conflict; every judgment has a summary in zh, ko and en
with no internal code; and the procedure table itself names only real rows and facets."""

from __future__ import annotations

import re

import pytest

import leishen
from leishen.judgments import judge
from leishen.judgments.beside import shensha_line
from leishen.judgments.procedures import check_procedures, procedure_of, procedure_table
from leishen.judgments.tables import facet_table
from leishen.judgments.timing import dated_events
from tests.judgments.conftest import moments

CODE = re.compile(r"\bJ\d+\b|issue #|inventory|\d{3}-S\d+|\.csv#")  # what a user is never shown


@pytest.fixture(scope="module")
def judged_all(reader):
    """(reading, judgments) of 300 seeded moments read for every topic."""
    out = []
    for moment in moments(300, 41):
        chart = leishen.chart(moment)
        reading = reader.read(chart, topic="*")
        out.append((reading, judge(reading, chart, reader)))
    return out


def _facts(reader, reading):
    """finding id → its fact (None for a finding of no table row)."""
    return {f["id"]: reader.facts.get(f["rule"]["fact"]) for f in reading["findings"]}


def test_the_procedure_table_names_real_rows_and_facets(reader):
    items = {f.item for f in reader.facts.values() if f.item}
    facets = {(t, f.name) for t, fs in facet_table().items() for f in fs}
    assert check_procedures(items, facets) == []


def test_no_decided_answer_rests_on_a_row_that_needs_judgment(judged_all):
    for reading, judgments in judged_all:
        certainty = {f["id"]: f["certainty"] for f in reading["findings"]}
        for j in judgments:
            for f in j["facets"]:
                for a in f["answer"] + (f["conflict"] or []):
                    assert all(certainty[x] == "holds" for x in a["findings"]), (reading["moment"], j["topic"], f["facet"])
                assert all(certainty[q["finding"]] == "needs_judgment" for q in f["questions"])


def test_avoid_stays_avoid(judged_all, reader):
    seen = 0
    for reading, judgments in judged_all:
        facts = _facts(reader, reading)
        for j in judgments:
            for f in j["facets"]:
                for a in f["answer"]:
                    avoids = [x for x in a["findings"] if facts[x] is not None and facts[x].relation == "AVOIDS"]
                    if avoids and a["value"] not in ("吉", "凶", "混"):
                        seen += 1
                        assert a["avoid"] and a["zh"].startswith("忌") and a["en"].startswith("avoid: ")
                        assert len(avoids) == len(a["findings"]), "what to avoid is never merged with what to do"
    assert seen, "an AVOIDS answer was met"


def test_dates_only_for_what_was_found(judged_all):
    gates = dated_events()
    for reading, judgments in judged_all:
        for j in judgments:
            by_name = {f["facet"]: f for f in j["facets"]}
            topic_id = f"Topic:{j['topic']}"
            for w in j["when"]:
                gate = gates.get((topic_id, w["for"]["id"]))
                if gate is not None:
                    f = by_name[gate[0]]
                    assert f["status"] == "decided" and gate[1] in {a["value"] for a in f["answer"]}, \
                        (reading["moment"], j["topic"], w["for"]["zh"])
            for u in j["undated"]:
                assert all(u["why"][lang] for lang in ("zh", "ko", "en"))
            speed = by_name.get("遲速")
            for w in j["when"]:  # a rain judged late (雨遲, 003:55) is never dated on the asking day
                if w.get("speed") == "遲":
                    assert speed["status"] == "decided" and w["days"] >= 1, (reading["moment"], w["date"])


def test_taste_only_of_food(judged_all):
    for reading, judgments in judged_all:
        j = next(x for x in judgments if x["topic"] == "射覆")
        by_name = {f["facet"]: f for f in j["facets"]}
        edible = by_name["可食否"]["status"] == "decided" and {a["value"] for a in by_name["可食否"]["answer"]} == {"可食"}
        assert edible or (by_name["五味"]["status"] == "not asked" and not by_name["五味"]["answer"])


def test_one_shape_by_the_first_clause(judged_all, reader):
    """射覆's 形狀 is decided by 002:171's first clause (the 用's 孟仲季: 圓 方 碎並尖) alone; what the vigour
    clause and 002:183 give is named as also, never beside it as a second answer (issue #41 item 7)."""
    first = {"圓", "方", "碎並尖"}
    for reading, judgments in judged_all:
        shape = next(f for f in next(x for x in judgments if x["topic"] == "射覆")["facets"] if f["facet"] == "形狀")
        assert shape["status"] == "decided" and {a["value"] for a in shape["answer"]} <= first, reading["moment"]
        assert all(set(a["src"]) == {"002:171"} for a in shape["answer"]), reading["moment"]


def test_lines_that_read_the_transmissions_are_not_dropped(judged_all):
    """002:151's 中末總棄 sets aside the 射覆 findings read at the 中傳 and 末傳, but not a line that reads the three
    transmissions itself (002:183 發用日辰俱入傳 → 有表裡, 002:167 傳空加日): where it holds, 表裡 is decided by it."""
    seen = 0
    for reading, judgments in judged_all:
        j = next(x for x in judgments if x["topic"] == "射覆")
        aside = {o["finding"] for o in j.get("overridden") or ()}
        whole = [f for f in reading["findings"] if f["certainty"] == "holds" and f["topic"] == "射覆"
                 and (f["rule"] or {}).get("item") == "002-S36.SF-56a"]
        assert not aside & {f["id"] for f in whole}, reading["moment"]
        if whole:
            seen += 1
            inside = next(f for f in j["facets"] if f["facet"] == "表裡")
            assert inside["status"] == "decided" and {f["id"] for f in whole} & set(inside["findings"]), reading["moment"]
    assert seen


def test_the_liu_ren_signs_are_named_beside_every_topic(judged_all):
    """000:23: a 神煞 of 000:23–87 seen at 干支 三傳 占時 本命 is read for whatever is asked, so each that holds is
    named by every topic's judgment (under "also holds", once by meaning), and decides nothing."""
    for reading, judgments in judged_all:
        signs = {(f["meaning"].get("zh"), f["polarity"]) for f in reading["findings"] if f["topic"] is None
                 and f["certainty"] == "holds" and shensha_line(f)}
        assert signs, reading["moment"]
        for j in judgments:
            if j["topic"] in ("出行", "求財", "行人", "科試", "家宅", "疾病", "天時", "射覆"):
                named = {(a["meaning"].get("zh"), a["polarity"]) for a in j["also"]}
                assert signs <= named, (reading["moment"], j["topic"], signs - named)


TOMB = {"寅": "未", "卯": "未", "巳": "戌", "午": "戌", "申": "丑", "酉": "丑", "亥": "辰", "子": "辰"}  # 000:43


def test_the_return_is_dated_where_the_horse_enters_its_tomb(judged_all):
    """004:47 若使時馬繫日支，投墓 … 定返期: where the hour's horse is the day branch or combines with it, the
    return is dated on the first day whose branch is the 墓 of the horse's phase (000:43), never elsewhere."""
    seen = 0
    for reading, judgments in judged_all:
        j = next(x for x in judgments if x["topic"] == "行人")
        held = any((f.get("rule") or {}).get("item") == "4.12.07" and f["certainty"] == "holds"
                   for f in reading["findings"])
        dates = [w for w in j["when"] if w["for"]["zh"] == "返期"]
        if not held:
            assert not dates, reading["moment"]
            continue
        seen += 1
        horse = reading["chart"]["qimen"]["horse"]
        (w,) = dates
        assert w["branch"] == TOMB[horse] == w["pillar"][1] and 0 <= w["days"] < 12, reading["moment"]
        assert {"004:47", "000:43"} <= set(w["src"]), reading["moment"]
    assert seen


def test_a_caution_that_holds_never_leaves_a_clean_good_answer(judged_all, reader):
    """A ``caution`` or ``first_caution`` row of a facet's procedure (004:43's 反伏 for 求財, 004:55's 值使 for 行人,
    004:19's 熒入白 反伏 人元休囚 for 科試) that holds beside a 吉 answer makes the facet 未定 naming both: the facet
    is never decided 吉 while it holds (a ``caution_here`` row counts only at a 用神 and is left out here)."""
    seen = set()
    for reading, judgments in judged_all:
        items = {(f.get("rule") or {}).get("item") for f in reading["findings"] if f.get("certainty") == "holds"}
        for (topic, name), proc in procedure_table().items():
            cautions = {i for i, (_, role, _) in proc.tiers.items() if role in ("caution", "first_caution")}
            if not items & cautions:
                continue
            j = next((x for x in judgments if x["topic"] == reader.props[topic]["name"]), None)
            f = next((x for x in (j or {}).get("facets", ()) if x["facet"] == name), None)
            if f is not None:
                seen.add(topic)
                assert not (f["status"] == "decided" and {a["value"] for a in f["answer"]} == {"吉"}), \
                    (reading["moment"], topic, name)
    assert {"Topic:科試", "Topic:求財", "Topic:行人"} <= seen, seen


def test_the_colour_is_the_day_stems_first(judged_all):
    """002:159 (五鄉日干定源流, then the 用: 更次用物): 射覆's 五色 is decided by the table read on the day stem (its phase and
    vigour); the 用's colour comes after it, never beside it as a second answer."""
    for reading, judgments in judged_all:
        j = next(x for x in judgments if x["topic"] == "射覆")
        colour = next(f for f in j["facets"] if f["facet"] == "五色")
        by_id = {f["id"]: f for f in reading["findings"]}
        assert colour["status"] == "decided" and len(colour["answer"]) == 1, reading["moment"]
        assert all("日干" in by_id[fid]["bindings"] and "初傳" not in by_id[fid]["bindings"]
                   for fid in colour["findings"]), reading["moment"]


def test_snow_is_dated_only_by_its_own_signs(judged_all):
    """003:63 各以落宮所得之干以定其期 dates the snow of its own two signs (天心 with 壬癸 in 兌, 天柱 with 壬癸 in 乾):
    a snow found by another line is not dated by it."""
    for reading, judgments in judged_all:
        j = next(x for x in judgments if x["topic"] == "天時")
        own = any((f.get("rule") or {}).get("item") == "3.J.05" and f["certainty"] == "holds"
                  for f in reading["findings"])
        dated = [w for w in j["when"] if w["for"]["zh"] == "雪"]
        assert own or not dated, reading["moment"]


def test_a_meaning_of_another_line_is_named_with_its_line(judged_all):
    """A finding whose meaning is a reason's (晴 of 003:19 beside 晴 of 003:51) is still named under "also holds"
    with its own line: what holds is never hidden behind another line's words."""
    seen = 0
    for reading, judgments in judged_all:
        for j in judgments:
            if not j["topic"]:
                continue
            by_id = {f["id"]: f for f in reading["findings"]}
            reasons = {(by_id[r["finding"]]["meaning"].get("zh"), r["polarity"], tuple(r["src"]))
                       for r in j["reasons"] if r["finding"] in by_id}
            also = {(a["meaning"].get("zh"), a["polarity"], tuple(a["src"])) for a in j["also"]}
            twins = {(zh, pol, src) for zh, pol, src in also if any(zh == z and pol == p and src != s
                                                                      for z, p, s in reasons)}
            seen += len(twins)
    assert seen, "a meaning two lines give, one a reason, the other named under also holds"


def test_travel_and_illness_read_the_duty_gate(judged_all):
    for reading, judgments in judged_all:
        for j in judgments:
            if j["topic"] in ("出行", "疾病") and reading["chart"].get("qimen"):
                gods = [g for g in j["use_god"] if g["slot"] == "值使宮"]
                assert gods and gods[0]["role"] == "先看", (reading["moment"], j["topic"])


def test_no_good_verdict_while_a_decisive_ill_line_holds(judged_all, reader):
    for reading, judgments in judged_all:
        facts = _facts(reader, reading)
        for j in judgments:
            verdict_facet = next((f for f in j["facets"] if f["verdict"]), None)
            proc = verdict_facet and procedure_of(f"Topic:{j['topic']}", verdict_facet["facet"])
            if proc is None:
                continue
            aside = {o["finding"] for o in j["overridden"]}
            decisive = [f for f in reading["findings"] if f["topic"] == j["topic"] and f["polarity"] == "凶"
                        and f["certainty"] == "holds" and f["id"] not in aside and facts[f["id"]] is not None
                        and proc.tiers.get(facts[f["id"]].item, (9, ""))[1] == "decisive"]
            if decisive:
                assert j["verdict"] != "吉", (reading["moment"], j["topic"], [f["id"] for f in decisive])


def test_a_rescue_stands_beside_the_ill_of_its_tier(judged_all, reader):
    """004:35 and 004:103: where a decisive 凶 of a tier holds (財星化鬼 4.09.03; 宅若傷人 住不得 4.26.05) beside a
    ``rescue`` row of that tier (鬼化為財 or 投子舍 必獲成; 值符從中作生授 福神到堂 4.26.07), the facet is 未定
    naming both; a rescue never decides 吉 over a tier above it. Every rescue row of the table is met."""
    rescues = {(topic, name): proc for (topic, name), proc in procedure_table().items() if proc.rescues}
    seen = set()
    for reading, judgments in judged_all:
        items = {(f.get("rule") or {}).get("item") for f in reading["findings"] if f.get("certainty") == "holds"}
        for (topic, name), proc in rescues.items():
            j = next(x for x in judgments if x["topic"] == reader.props[topic]["name"])
            f = next(x for x in j["facets"] if x["facet"] == name)
            ill = {i for i, (tier, role, _) in proc.tiers.items() if role == "decisive"
                   and any(tier == proc.rescue_tier(r) for r in proc.rescues)}
            if items & ill and items & proc.rescues:
                seen |= items & proc.rescues
                assert f["status"] == "未定" and {a["value"] for a in f["conflict"]} == {"吉", "凶"}, reading["moment"]
    assert seen == set().union(*(p.rescues for p in rescues.values())), seen


def test_every_judgment_has_a_summary_in_three_languages(judged_all):
    for reading, judgments in judged_all[:100]:
        for j in judgments:
            for lang in ("zh", "ko", "en"):
                text = j["summary"][lang]
                assert text and not CODE.search(text), (reading["moment"], j["topic"], lang, text)


@pytest.mark.parametrize("row, says", [
    ("Topic:出行,可行否,0,maybe,4.19.16,004:75,x", "column role: 'maybe'"),
    ("Topic:出行,可行否,x,first,4.19.16,004:75,x", "column tier"),
    ("Topic:出行,可行否,0,first,,004:75,x", "column items: empty"),
    ("Topic:出行,可行否,0,first,4.19.16,75,x", "column src"),
])
def test_a_bad_procedure_row_is_refused_naming_its_column(tmp_path, monkeypatch, row, says):
    from leishen.judgments import procedures, tables
    (tmp_path / "procedures.csv").write_text("topic,facet,tier,role,items,src,note\n" + row + "\n", encoding="utf-8")
    monkeypatch.setattr(tables, "TABLES", tmp_path)
    procedures.procedure_table.cache_clear()
    try:
        with pytest.raises(tables.JudgmentTableError, match=f"procedures.csv row 2, {says}"):
            procedures.procedure_table()
    finally:
        monkeypatch.undo()
        procedures.procedure_table.cache_clear()
