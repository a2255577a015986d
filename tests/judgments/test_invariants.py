"""What holds of every judgment, on random moments × every topic: a 用神, method steps, reasons that are
findings of the same reading, a known verdict; the facet tables name real nodes; and the findings that hold on
every chart are method, chart lore, or listed here with the reason."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

import leishen
from leishen.judgments import judge
from leishen.judgments.choose import VERDICTS
from leishen.judgments.tables import JudgmentTableError, _answer, _src, check_tables, facet_table
from leishen.judgments.usegod import is_method

LORE = {"kin", "stages", "vigour", "relations", "shensha", "leixiang"}
# findings that hold on every chart and are neither method nor lore, each with the reason they stay findings
# (besides the needs-judgment rows: the text's open questions, listed under needs_judgment with their reason)
SIGNIFICATOR = "a significator of its topic (what a slot stands for), stated for every chart; method in all but name"
ALWAYS_JUSTIFIED: dict[str, str] = {
    "qimen/rules/facts/004/kesi.csv#16": "004:7 值符 gives the overall judgment (總斷): a reading instruction",
    "qimen/rules/facts/004/qiucai.csv#11": SIGNIFICATOR + " (時支: the price, 004:23)",
    "qimen/rules/facts/004/qiucai.csv#13": SIGNIFICATOR + " (日支: the goods' vigour, 004:23)",
    "liuren/rules/facts/002/shefu_rules.csv#137": "002:163's 無物 test failing (有物): its three conditions together are "
                                                 "rare, so there is a thing on nearly every chart, as the text expects",
}


def random_moments(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    start = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=8)))
    return [(start + timedelta(minutes=rng.randrange(0, 100 * 365 * 24 * 60))).isoformat() for _ in range(n)]


@pytest.fixture(scope="module")
def every_topic(reader):
    """(reading, judgments) of 60 random moments read for every topic."""
    out = []
    for moment in random_moments(60, 28):
        chart = leishen.chart(moment)
        reading = reader.read(chart, topic="*")
        out.append((reading, judge(reading, chart, reader)))
    return out


def test_every_judgment_has_use_god_method_and_own_reasons(every_topic):
    for reading, judgments in every_topic:
        ids = {f["id"] for f in reading["findings"]}
        assert judgments[0]["topic"] is None
        for j in judgments:
            assert j["verdict"] in VERDICTS
            assert j["use_god"], (reading["moment"], j["topic"])
            assert all(g["node"]["id"] and g["src"] for g in j["use_god"])
            assert all(r["finding"] in ids for r in j["reasons"])
            assert j["reasons"] or not j["counts"]["findings"], (reading["moment"], j["topic"])
            assert all(o["finding"] in ids and o["by"] in ids for o in j["overridden"])
            for f in j["facets"]:
                assert f["status"] in ("decided", "未定", "open", "not asked")
                assert set(f["findings"]) <= ids
                assert (f["status"] == "未定") == (f["conflict"] is not None)


def test_every_topic_judgment_has_method(every_topic):
    """Every topic the texts give a procedure for has method steps (the general reading's method is its 用神
    rows of use_gods.csv)."""
    for reading, judgments in every_topic:
        for j in judgments[1:]:
            if j["topic"] in ("射覆", "天時", "行人", "疾病", "科試", "求財", "出行", "田禾"):
                assert j["method"], (reading["moment"], j["topic"])


def test_findings_on_every_chart_are_method_or_lore(reader):
    """#28 item 6: a finding that holds on every one of 200 random moments tells charts apart not at all: it
    must be a method step (READ_FROM, SEEN_AT, JUDGED_BY, COUNTS_ONLY_WITH, TIMES, category=method, a
    significator), chart lore, or justified in ALWAYS_JUSTIFIED."""
    always = None
    for moment in random_moments(200, 6):
        ids = {f["id"]: f for f in reader.read(leishen.chart(moment), topic="*", trail=False)["findings"]}
        always = {k: ids[k] for k in (ids if always is None else always) if k in ids}
    unexplained = [(fid, f["rule"]["name"]) for fid, f in always.items()
                   if f["query"] not in LORE and not is_method(reader.facts.get(f["rule"]["fact"]))
                   and fid not in ALWAYS_JUSTIFIED and not open_question(f, reader)]
    assert unexplained == []


def open_question(finding: dict, reader) -> bool:
    """A needs-judgment row: what decides it is the text's open question (its ``judgment``), so it may hold on
    every chart (its chart part is the topic alone, or a place every chart has)."""
    return finding["certainty"] == "needs_judgment" and bool(finding.get("judgment"))


def test_tables_name_real_nodes(reader):
    assert check_tables(set(reader.props)) == []
    assert set(facet_table()) - {None} <= set(reader.topic_ids)


@pytest.mark.parametrize("row, message", [
    ({"answer": "colour=白", "value": "白", "src": "002:159"}, "unknown selector 'colour'"),
    ({"answer": "白", "value": "白", "src": "002:159"}, "expected Label:name"),
    ({"answer": "Colour:白", "value": "", "src": "002:159"}, "column value: empty"),
    ({"answer": "Colour:白", "value": "白", "src": "line 159"}, "column src: expected doc:line"),
])
def test_bad_answer_rows_are_refused_naming_row_and_column(row, message):
    with pytest.raises(JudgmentTableError, match=message) as info:
        _answer(7, row) if row["src"] != "line 159" else _src("facet_answers.csv", 7, row["src"])
    assert "row 7" in str(info.value)


def test_every_answer_and_verdict_reads_in_ko_and_en(every_topic):
    """Every answer value a judgment gives, and its verdict, has its ko and en (answer_values.csv)."""
    for _moment, judgments in every_topic:
        for j in judgments:
            assert j["verdict_names"]["ko"] and j["verdict_names"]["en"], j["verdict"]
            for f in j["facets"]:
                for a in f["answer"]:
                    assert a["ko"] and a["en"], (j["topic"], f["facet"], a["value"])


def test_a_value_without_its_gloss_is_refused(tmp_path, monkeypatch):
    from leishen.judgments import tables
    for name in ("facets.csv", "facet_answers.csv"):
        (tmp_path / name).write_text((tables.tables_dir() / name).read_text(encoding="utf-8"), encoding="utf-8")
    lines = (tables.tables_dir() / "answer_values.csv").read_text(encoding="utf-8").splitlines()
    (tmp_path / "answer_values.csv").write_text("\n".join(l for l in lines if not l.startswith("不來,")) + "\n",
                                                encoding="utf-8")
    monkeypatch.setattr(tables, "TABLES", tmp_path)
    tables.value_names.cache_clear()
    try:
        with pytest.raises(tables.JudgmentTableError, match=r"facet_answers.csv row \d+, column value: '不來'"):
            tables.value_names()
    finally:
        tables.value_names.cache_clear()
