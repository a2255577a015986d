"""Issue #29 (fidelity), items 6, 9 and 11, on real charts: the exact findings (or their absence), their path
and src.

- 6: 004's 類象 tables of 家宅 (004:87, 004:91) and 疾病 (004:123, 004:127, 004:131) are read at the palaces the
  topic's significators name (conventions-qm004 §6) and answer the facets 宅相, 病處 and 病因;
- 9: Qimen reads the day stem's palace on the heaven plate, 003's 蝗 (003:99) as 004 (conventions-qm003 §6);
- 11: the reading option ``lessons`` (``core`` by default; ``all`` adds 課2上 and 課4上 to the 神煞 places).

2026-12-01 10:00 +09:00: Qimen 陰遁五局, day 己酉, hour 己巳; the heaven-plate 己 in 艮八 (太陰, 傷門, 天輔, earth
丁), the earth-plate 己 in 巽四 (景門); 值符 天禽 in 巽四 (its star 天芮, 天禽 hosted). Liu Ren 甲辰旬, 課2上 丑.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import leishen
from leishen.readings.lore import ReadingOptionError

MOMENT = "2026-12-01T10:00+09:00"
AUDIT = [MOMENT, "2025-02-03T23:30+08:00", "2024-06-21T12:00+08:00", "1999-09-09T09:09+08:00",
         "2030-01-15T04:00+08:00"]


def _tables(reading) -> list[dict]:
    return [f for f in reading["findings"] if f["query"] == "leixiang" and f["system"] == "qimen"]


def _walk(f) -> list[str]:
    return [h.get("node", {}).get("name") or h["rel"] for h in f["path"]]


def _one(findings, slot, item, meaning) -> dict:
    """The one finding read at *slot* from the table row *item* meaning *meaning*."""
    found = [f for f in findings if slot in f["bindings"] and f["rule"]["item"] == item
             and f["meaning"]["zh"] == meaning]
    assert len(found) == 1, (slot, item, meaning, [(f["id"], f["meaning"]["zh"]) for f in findings])
    return found[0]


def _facet(reading, topic, name) -> dict:
    judgment = next(j for j in reading["judgments"] if j["topic"] == topic)
    return next(fc for fc in judgment["facets"] if fc["facet"] == name)


@pytest.fixture(scope="module")
def house():
    return leishen.read(MOMENT, topic="家宅")


@pytest.fixture(scope="module")
def illness():
    return leishen.read(MOMENT, topic="疾病")


# ---- item 6: the 類象 tables at the topic's palaces -------------------------------------------------

def test_house_tables_at_the_house_palace(house):
    """時干 宅 (4.26.02): at the hour stem's palace 艮八 the house by 十干 (己 住居, earth 丁 屈灶, 004:91), by
    九星 (天輔 鼎筺, 004:91) and by the gate (傷門 門路, 004:87)."""
    found = _tables(house)
    dwelling = _one(found, "時干", "4.23.10", "住居")
    assert _walk(dwelling) == ["己", "STANDS_IN", "艮八", "HEAVEN_STEM", "己", "SYMBOLIZES", "住居"]
    assert dwelling["path"][0]["slot"] == "時干" and dwelling["path"][2]["slot"] == "宮"
    assert dwelling["path"][5]["src"] == ["004:91"] and dwelling["path"][5]["chart"] is False
    assert dwelling["src"] == ["004:91"] and dwelling["topic"] == "家宅" and dwelling["polarity"] is None
    assert dwelling["bindings"] == {"時干": "Stem:ji", "宮": "Palace:p8", "天": "Stem:ji"}
    assert dwelling["id"].startswith("qimen/leixiang/時干/Stem:ji/facts/004/jiazhai.csv#")
    stove = _one(found, "時干", "4.23.07", "屈灶")
    assert _walk(stove) == ["己", "STANDS_IN", "艮八", "EARTH_STEM", "丁", "SYMBOLIZES", "屈灶"]
    door = _one(found, "時干", "4.22.27", "門路")
    assert _walk(door)[3:] == ["GATE", "傷門", "SYMBOLIZES", "門路"] and door["src"] == ["004:87"]
    assert _one(found, "時干", "4.23.38", "鼎筺")["src"] == ["004:91"]


def test_house_persons_at_the_asker_palace_only(house):
    """日干 居人 (4.26.01): the people of 004:87 / 004:91 are read at the asker's palace (太陰 女婢, 天輔 長女), the
    house rows are not; at the house's palace no person is read (both stems 己: one palace, two readings)."""
    found = _tables(house)
    maid = _one(found, "日干", "4.22.07", "女婢")
    assert _walk(maid) == ["己", "STANDS_IN", "艮八", "DEITY", "太陰", "SYMBOLIZES", "女婢"]
    assert maid["src"] == ["004:87"] and maid["path"][0]["slot"] == "日干"
    assert _one(found, "日干", "4.23.36", "長女")["src"] == ["004:91"]
    asker = {f["meaning"]["zh"] for f in found if "日干" in f["bindings"]}
    assert asker == {"女婢", "長女", "僧尼"}
    assert not [f for f in found if "時干" in f["bindings"] and f["meaning"]["zh"] in asker]


def test_illness_tables_and_the_cause_at_the_duty_star(illness):
    """時干 病 (4.35.02, reads=body): 太陰 肺勞 骨虛 and 傷門 拘攣 風寒 (004:123), the body part of 己 胃 and of the
    earth 丁 齒 舌 小腸 (004:127); 值符 病因 (4.36.01): in 值符宮 巽四 天芮 家先作祟, hosted 天禽 城隍 社神 降福 (004:127)."""
    found = _tables(illness)
    lung = _one(found, "時干", "4.31.05", "肺勞")
    assert _walk(lung) == ["己", "STANDS_IN", "艮八", "DEITY", "太陰", "SYMBOLIZES", "肺勞"] and lung["src"] == ["004:123"]
    stomach = _one(found, "時干", "4.32.13", "胃")
    assert _walk(stomach)[3:] == ["HEAVEN_STEM", "己", "SYMBOLIZES", "胃"] and stomach["src"] == ["004:127"]
    assert {f["meaning"]["zh"] for f in found if "時干" in f["bindings"]} == {
        "肺勞", "骨虛", "拘攣", "風寒", "胃", "齒", "舌", "小腸"}
    cause = _one(found, "值符宮", "4.32.28", "家先作祟")
    assert _walk(cause) == ["巽四", "STAR", "天芮", "SYMBOLIZES", "家先作祟"] and cause["path"][0]["slot"] == "值符宮"
    assert cause["bindings"] == {"值符宮": "Palace:p4", "星": "QimenStar:tian_rui"}
    assert cause["id"].startswith("qimen/leixiang/值符宮/QimenStar:tian_rui/facts/004/jibing.csv#")
    assert _walk(_one(found, "值符宮", "4.32.29", "城隍降福"))[1:3] == ["STAR_HOSTED", "天禽"]
    assert {f["meaning"]["zh"] for f in found if "值符宮" in f["bindings"]} == {"家先作祟", "城隍降福", "社神降福"}
    assert all(f["variant"] is None for f in found)  # the typo rows (癱毒 …) are read only with variants


def test_the_facets_take_the_tables(house, illness):
    """宅相 (category house), 病處 (illness, body) and 病因 (cause) are answered by the table findings."""
    by_id = {f["id"]: f for f in _tables(house) + _tables(illness)}
    shape = _facet(house, "家宅", "宅相")
    assert {"住居", "屈灶", "門路", "鼎筺"} <= {a["value"] for a in shape["answer"]}
    assert "女婢" not in {a["value"] for a in shape["answer"]}  # a person is no part of the house
    where = _facet(illness, "疾病", "病處")
    answers = {a["value"]: a for a in where["answer"]}
    assert {"肺勞", "胃", "小腸"} <= set(answers) and answers["胃"]["src"] == ["004:127"]
    assert all(by_id[fid]["rule"]["item"] == "4.32.13" for fid in answers["胃"]["findings"])
    cause = {a["value"]: a for a in _facet(illness, "疾病", "病因")["answer"]}
    assert {"家先作祟", "城隍降福", "社神降福"} <= set(cause) and cause["家先作祟"]["src"] == ["004:127"]


def test_a_jia_stem_is_read_where_its_yi_stands():
    """2025-02-03 23:30 +08:00, day 甲辰 (儀 壬), hour 甲子 (儀 戊): the asker's palace is 壬's (乾六), the house's
    戊's (坤二, 戊 on the heaven plate there), each walked through HIDES_AS."""
    found = _tables(leishen.read("2025-02-03T23:30+08:00", topic="家宅"))
    maid = _one(found, "日干", "4.22.07", "女婢")
    assert _walk(maid) == ["甲", "HIDES_AS", "壬", "STANDS_IN", "乾六", "DEITY", "太陰", "SYMBOLIZES", "女婢"]
    assert maid["bindings"] == {"日干": "Stem:jia", "日盤干": "Stem:ren", "宮": "Palace:p6", "神": "Deity:tai_yin"}
    seat = _one(found, "時干", "4.22.01", "宅")
    assert _walk(seat)[:5] == ["甲", "HIDES_AS", "戊", "STANDS_IN", "坤二"] and seat["src"] == ["004:87"]
    assert {f["bindings"]["宮"] for f in found if "時干" in f["bindings"]} == {"Palace:p2"}


def test_the_illness_palace_reads_its_own_row():
    """2024-06-21 12:00 +08:00, hour 甲午 (儀 辛 in 離九): the 九宮 row of 離九 (風症, 004:131) is read at the
    illness's palace itself, with no hop to what stands there; its treatment row (宜和解) is a rule, not a table."""
    found = _tables(leishen.read("2024-06-21T12:00+08:00", topic="疾病"))
    wind = _one(found, "時干", "4.33.12", "風症")
    assert _walk(wind) == ["甲", "HIDES_AS", "辛", "STANDS_IN", "離九", "SYMBOLIZES", "風症"]
    assert wind["src"] == ["004:131"] and wind["bindings"] == {"時干": "Stem:jia", "時盤干": "Stem:xin",
                                                               "宮": "Palace:p9"}
    assert not [f for f in found if f["rule"]["item"] == "4.33.14"]


@pytest.mark.parametrize("moment", AUDIT)
def test_the_audit_moments_cite_the_tables(moment):
    """On each audit moment a 家宅 reading cites 004:87 and 004:91, a 疾病 reading 004:123 and 004:127."""
    house_src = {s for f in _tables(leishen.read(moment, topic="家宅")) for s in f["src"]}
    illness_src = {s for f in _tables(leishen.read(moment, topic="疾病")) for s in f["src"]}
    assert {"004:87", "004:91"} <= house_src <= {"004:87", "004:91"}
    assert {"004:123", "004:127"} <= illness_src <= {"004:123", "004:127", "004:131"}


def test_no_tables_without_a_topic_that_names_them():
    """The general reading and a topic with no such table (求財) read none."""
    assert not _tables(leishen.read(MOMENT))
    assert not _tables(leishen.read(MOMENT, topic="求財"))


# ---- item 9: the day stem's palace on the heaven plate -------------------------------------------

def _heaven_palace(chart: dict, stem: str) -> str:
    """The palace whose heaven stem (or hosted heaven stem) is *stem*."""
    cells = chart["qimen"]["palaces"].items()
    return next(f"Palace:p{n}" for n, c in cells if stem in (c.get("heaven"), c.get("heaven_hosted")))


def test_locusts_read_the_day_stem_on_the_heaven_plate():
    """003:99 死驚杜傷臨日干則來: the heaven-plate 己 stands in 艮八 with 傷門, so 3.Q.01 (來) holds there; the
    earth-plate 己 of 巽四 with 景門 (3.Q.02, 不至: the old reading) is not read."""
    reading = leishen.read(MOMENT, topic="蝗")
    found = [f for f in reading["findings"] if f["topic"] == "蝗"]
    assert [(f["rule"]["item"], f["meaning"]["zh"]) for f in found] == [("3.Q.01", "來")]
    come = found[0]
    assert come["bindings"] == {"宮": "Palace:p8", "日干": "Stem:ji"} and come["src"] == ["003:99"]
    assert _walk(come)[:3] == ["艮八", "GATE", "傷門"] and come["polarity"] == "凶"


@pytest.mark.parametrize("moment", AUDIT)
def test_one_day_stem_palace_for_003_and_004(moment):
    """The palace 3.Q reads (003) is the palace 004's asker is read at (the 家宅 persons, 4.39's 日干.宮): the
    day stem (a 甲 day: its 儀) on the heaven plate."""
    reading = leishen.read(moment, topic="蝗")
    chart, b = reading["chart"], reading["bindings"]
    palace = _heaven_palace(chart, _stem_name(b["日盤干"]))
    locust = [f for f in reading["findings"] if f["topic"] == "蝗"]
    assert len(locust) == 1 and locust[0]["bindings"]["宮"] == palace
    asker = {f["bindings"]["宮"] for f in _tables(leishen.read(moment, topic="家宅")) if "日干" in f["bindings"]}
    assert asker <= {palace}


_STEMS = {"jia": "甲", "yi": "乙", "bing": "丙", "ding": "丁", "wu": "戊", "ji": "己", "geng": "庚", "xin": "辛",
          "ren": "壬", "gui": "癸"}


def _stem_name(node_id: str) -> str:
    return _STEMS[node_id.split(":")[1]]


# ---- item 11: the reading option lessons ------------------------------------------------------------

def test_lessons_core_is_the_default_and_all_adds_the_second_and_fourth():
    """課2上 丑 is 甲辰旬's 閉口 (002:147): read only with lessons=all; every core finding stays."""
    core, every = leishen.read(MOMENT), leishen.read(MOMENT, options={"lessons": "all"})
    assert core["options"] == {"lessons": "core"} and every["options"] == {"lessons": "all"}
    places = lambda r: [f["id"].split("/")[2] for f in r["findings"] if f["query"] == "shensha"]  # noqa: E731
    assert places(core) == ["干上"] and places(every) == ["干上", "課2上"]
    shut = next(f for f in every["findings"] if f["query"] == "shensha" and "課2上" in f["bindings"])
    assert shut["meaning"]["zh"] == "閉口" and shut["src"] == ["002:147"] and shut["rule"]["item"] == "002-S27.43"
    assert _walk(shut) == ["甲辰旬", "XUN_SHENSHA", "丑"] and shut["path"][2]["slot"] == "課2上"
    assert shut["bindings"] == {"旬": "Xun:jia_chen", "課2上": "Branch:chou"}
    assert {f["id"] for f in core["findings"]} == {f["id"] for f in every["findings"]} - {shut["id"]}


def test_lessons_all_reads_the_fourth_lesson():
    """1999-09-09 09:09 +08:00, 甲子旬: 課4上 子 carries a 神煞 of the decade only with lessons=all."""
    every = leishen.read("1999-09-09T09:09+08:00", options={"lessons": "all"})
    fourth = [f for f in every["findings"] if f["query"] == "shensha" and "課4上" in f["bindings"]]
    assert [(f["bindings"]["課4上"], f["src"]) for f in fourth] == [("Branch:zi", ["002:147"])]
    assert not [f for f in leishen.read("1999-09-09T09:09+08:00")["findings"] if "課4上" in f["bindings"]
                and f["query"] == "shensha"]


def test_a_bad_lessons_value_is_refused_in_one_line():
    with pytest.raises(ReadingOptionError) as err:
        leishen.read(MOMENT, options={"lessons": "some"})
    assert str(err.value).startswith("lessons: 'some' is not one of core, all") and "\n" not in str(err.value)


def test_lessons_travels_through_the_cli_and_the_query_models():
    from leishen.cli.read_cmds import read
    from leishen.service.requests import ReadingQuery, checked
    out = CliRunner().invoke(read, [MOMENT, "--lessons", "all", "--json"])
    assert out.exit_code == 0, out.output
    reading = json.loads(out.output)
    assert reading["options"] == {"lessons": "all"}
    assert any(f["query"] == "shensha" and "課2上" in f["bindings"] for f in reading["findings"])
    assert checked(ReadingQuery, {"moment": MOMENT, "lessons": "all"}).options() == {"lessons": "all"}
    assert checked(ReadingQuery, {"moment": MOMENT}).options() == {}
