"""The 1,080 turning plates (18 局 × 60 hour pillars): structure, rules and textbook cases."""

from __future__ import annotations

import itertools

import pytest

from leishen.engine.calendar import sexagenary_index, sexagenary_name
from leishen.engine.qimen.chart import chart_from_plate
from leishen.engine.qimen.plate import CentreHost, DeityNames, build_plate, earth_plate, host_palace, walk_palace
from leishen.engine.qimen.symbols import (
    DEITIES_MODERN, DEITIES_YANG_CLASSICAL, GATE_HOME, RING, RING_POS, STAR_HOME, STARS, TERM_JU, YANG_TERMS,
    YI_QI_ORDER,
)
from leishen.engine.qimen.validate import validate_qimen
from leishen.errors import ChartError

ALL_KEYS = list(itertools.product("陽陰", range(1, 10), range(60)))
HOME_OF_STAR = {star: p for p, star in STAR_HOME.items()}
HOME_OF_GATE = {gate: p for p, gate in GATE_HOME.items()}


def _ring_shift(placed: dict[int, str], home_of: dict[str, int]) -> set[int]:
    """The set of ring shifts found (one element iff the placement is a rigid turn)."""
    return {(RING_POS[p] - RING_POS[home_of[placed[p]]]) % 8 for p in RING}


@pytest.mark.parametrize("host", [2, 8, 4, 6])
def test_all_1080_plates_are_structurally_valid(host):
    for dun, ju, hour in ALL_KEYS:
        plate = build_plate(dun, ju, hour, host)
        where = f"{dun}{ju} {sexagenary_name(hour)} host {host}"
        stars = [plate.star[p] for p in RING]
        # each star once: the eight on the ring, 天禽 riding with the host star
        assert sorted(stars + ["天禽"]) == sorted(STARS), where
        assert plate.star[plate.centre_rides_to] == STAR_HOME[host], where
        assert sorted(plate.gate[p] for p in RING) == sorted(GATE_HOME.values()), where
        assert sorted(plate.deity[p] for p in RING) == sorted(DEITIES_MODERN), where
        assert plate.star[5] is plate.gate[5] is plate.deity[5] is plate.heaven[5] is None
        # the earth plate follows the 局: 戊 on the 局's palace, then 己庚辛壬癸丁丙乙 forward (陽) / backward (陰)
        step = 1 if dun == "陽" else -1
        assert [plate.earth[(ju - 1 + step * i) % 9 + 1] for i in range(9)] == list(YI_QI_ORDER), where
        # stars and gates are rigid turns of their home rings
        assert len(_ring_shift(plate.star, HOME_OF_STAR)) == 1, where
        assert len(_ring_shift(plate.gate, HOME_OF_GATE)) == 1, where
        # each heaven stem rides with its star (the earth stem of the star's home palace)
        for p in RING:
            assert plate.heaven[p] == plate.earth[HOME_OF_STAR[plate.star[p]]], where
        # the deities start on the 值符 star's palace, clockwise in 陽遁, counter-clockwise in 陰遁
        start = plate.duty_star_palace
        order = [plate.deity[RING[(RING_POS[start] + step * i) % 8]] for i in range(8)]
        assert order == list(DEITIES_MODERN), where


def test_duty_star_and_gate_follow_the_xun_head():
    for dun, ju, hour in ALL_KEYS:
        plate = build_plate(dun, ju, hour)
        xun_yi = plate.xun_head[2]
        origin = next(p for p, s in plate.earth.items() if s == xun_yi)
        assert plate.duty_star == STAR_HOME[origin]
        assert plate.duty_gate == GATE_HOME[2 if origin == 5 else origin]
        carrier = STAR_HOME[2] if origin == 5 else plate.duty_star
        assert plate.star[plate.duty_star_palace] == carrier
        assert plate.gate[plate.duty_gate_palace] == plate.duty_gate
        # 值符加時干: the 值符 star stands on the palace of the hour stem (甲 → its 儀; centre → 坤)
        stem = sexagenary_name(hour)[0]
        stem = xun_yi if stem == "甲" else stem
        home = next(p for p, s in plate.earth.items() if s == stem)
        assert plate.duty_star_palace == (2 if home == 5 else home)
        # 值使: one palace per hour from the 旬首 palace, centre counted
        assert plate.duty_gate_palace == walk_palace(origin, dun, hour % 10, 2)


def test_void_and_horse():
    plate = build_plate("陽", 1, sexagenary_index("庚午"))
    assert plate.void == ("戌", "亥")             # 甲子旬空戌亥
    assert plate.horse == "申"                     # 寅午戌馬在申
    assert build_plate("陰", 9, sexagenary_index("癸亥")).void == ("子", "丑")   # 甲寅旬空子丑
    assert build_plate("陰", 9, sexagenary_index("癸亥")).horse == "巳"          # 亥卯未馬在巳


def test_jia_hours_are_fu_yin_for_every_ju():
    """值符常遣加時干: at a 甲 hour the 值符 is carried onto its own 儀, so the plate stays home (伏吟)."""
    for dun, ju in itertools.product("陽陰", range(1, 10)):
        for hour in range(0, 60, 10):
            plate = build_plate(dun, ju, hour)
            for p in RING:
                assert plate.star[p] == STAR_HOME[p]
                assert plate.heaven[p] == plate.earth[p]
                assert plate.gate[p] == GATE_HOME[p]


def test_textbook_fu_yin_example_of_doc_003_line_59():
    """003:59 (inventory 3.I.x1): a 癸未 day, 壬子 hour with 甲辰壬 in 坤二 and 壬 over 壬.

    壬 sits in 坤2 in 陽遁7局 and in 陰遁6局; 壬子 is in the 甲辰 旬 whose 儀 is 壬, so the hour
    stem is the 旬首 儀 and heaven 壬 stands over earth 壬. The 值符 computed is 天芮 (the star of
    坤2); the text names 天沖 and 天柱, which the inventory flags as inconsistent.
    """
    for dun, ju in (("陽", 7), ("陰", 6)):
        plate = build_plate(dun, ju, sexagenary_index("壬子"))
        assert plate.xun_head == "甲辰壬"
        assert plate.earth[2] == plate.heaven[2] == "壬"
        assert plate.duty_star == "天芮" and plate.duty_star_palace == 2


def test_textbook_earth_plate_of_autumn_equinox_doc_003_line_59():
    """003:59 (inventory 3.I.x2): 秋分 上元 is 陰遁7局, with 戊 (甲子) on 兌7."""
    assert TERM_JU["秋分"][0] == 7 and "秋分" not in YANG_TERMS
    assert earth_plate("陰", 7)[7] == "戊"


def test_term_table_follows_the_verse_rule():
    """The 八節 take their own palace as 上元 (冬至1 立春8 春分3 立夏4 夏至9 立秋2 秋分7 立冬6); the
    two terms after each step on by one (陽 forward, 陰 backward); 中元/下元 are six palaces on."""
    eight = {"冬至": 1, "立春": 8, "春分": 3, "立夏": 4, "夏至": 9, "立秋": 2, "秋分": 7, "立冬": 6}
    order = ["冬至", "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小滿", "芒種",
             "夏至", "小暑", "大暑", "立秋", "處暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪"]
    for i, term in enumerate(order):
        lead = order[i - i % 3]
        step = 1 if term in YANG_TERMS else -1
        upper = (eight[lead] - 1 + step * (i % 3)) % 9 + 1
        assert TERM_JU[term] == (upper, (upper - 1 + 6 * step) % 9 + 1, (upper - 1 + 12 * step) % 9 + 1), term


def test_centre_stem_rides_with_tian_rui_when_it_is_the_duty_star():
    """kinqimen mis-rotates the heaven plate when 值符 is 天芮; here 天芮 carries 坤2's stem and 天禽 the centre's."""
    plate = build_plate("陽", 2, sexagenary_index("庚午"))     # 甲子戊 in 坤2: 值符 天芮, 庚 in 巽4
    assert plate.duty_star == "天芮" and plate.duty_star_palace == 4
    assert plate.star[4] == "天芮" and plate.heaven[4] == "戊"
    chart = chart_from_plate(plate)
    assert chart["palaces"]["4"]["star_hosted"] == "天禽" and chart["palaces"]["4"]["heaven_hosted"] == "辛"
    assert chart["palaces"]["2"]["earth_hosted"] == "辛"
    for dun, ju, hour in ALL_KEYS:
        plate = build_plate(dun, ju, hour)
        if plate.duty_star in ("天芮", "天禽"):
            assert plate.heaven[plate.duty_star_palace] == plate.earth[2]
            assert plate.centre_rides_to == plate.duty_star_palace


def test_xun_head_in_the_centre_walks_the_duty_gate_from_the_centre():
    """陽遁1局 壬 in 中5: 甲辰旬 值符 天禽 (with 天芮), 值使 死門; 乙巳 hour puts 死門 on 乾6, not 震3."""
    plate = build_plate("陽", 1, sexagenary_index("乙巳"))
    assert plate.xun_head == "甲辰壬" and plate.duty_star == "天禽" and plate.duty_gate == "死門"
    assert plate.duty_gate_palace == 6 and plate.gate[6] == "死門"
    assert build_plate("陽", 1, sexagenary_index("甲辰")).duty_gate_palace == 2   # the 旬首 hour itself: 中5 → 坤2


def test_plates_are_cached_and_validated_by_the_hand_chart_validator():
    assert build_plate("陰", 4, 17) is build_plate("陰", 4, 17)
    for dun, ju, hour in ALL_KEYS[::7]:
        chart = chart_from_plate(build_plate(dun, ju, hour))
        assert validate_qimen(chart)["palaces"] == chart["palaces"]


@pytest.mark.parametrize("rule, dun, term, host", [
    (CentreHost.KUN2, "陽", 0, 2), (CentreHost.GEN8_KUN2, "陽", 0, 8), (CentreHost.GEN8_KUN2, "陰", 12, 2),
    (CentreHost.FOUR_CORNERS, "陽", 0, 8), (CentreHost.FOUR_CORNERS, "陽", 6, 4),
    (CentreHost.FOUR_CORNERS, "陰", 12, 2), (CentreHost.FOUR_CORNERS, "陰", 18, 6), (CentreHost.FOUR_CORNERS, "陽", 23, 6),
])
def test_centre_host_rules(rule, dun, term, host):
    assert host_palace(rule, dun, term) == host


def test_other_host_changes_who_carries_the_centre():
    plate = build_plate("陽", 1, sexagenary_index("乙巳"), host=8)   # 壬 in 中5, hosted in 艮8
    assert plate.duty_gate == "生門" and plate.star[plate.centre_rides_to] == "天任"


def test_classical_deity_names_in_yang_dun_only():
    yang = build_plate("陽", 3, 5, deities=DeityNames.BY_DUN)
    yin = build_plate("陰", 3, 5, deities="by_dun")
    assert sorted(filter(None, yang.deity.values())) == sorted(DEITIES_YANG_CLASSICAL)
    assert sorted(filter(None, yin.deity.values())) == sorted(DEITIES_MODERN)


def test_bad_plate_arguments_name_the_field():
    with pytest.raises(ChartError, match=r"^dun: '中'"):
        build_plate("中", 1, 0)
    with pytest.raises(ChartError, match=r"^ju: 10"):
        build_plate("陽", 10, 0)
    with pytest.raises(ChartError, match=r"^hour: 60"):
        build_plate("陽", 1, 60)
    with pytest.raises(ChartError, match=r"^deities: 'green'"):
        build_plate("陽", 1, 0, deities="green")
    with pytest.raises(ChartError, match=r"^centre_host: palace 5"):
        build_plate("陽", 1, 0, host=5)



def test_kinqimen_tian_rui_case_documented():
    """A measured kinqimen 0.0.6.6 disagreement (2024-06-11 10:00 UTC+8, 陽遁9局, 癸巳 hour).

    甲申庚 sits in 坤2, so 值符 is 天芮; the hour stem 癸 is in 中五, hosted in 坤2, so the 值符
    stays home and the plate is 伏吟: each heaven stem equals its earth stem. kinqimen shows the
    stars at home but turns the heaven stems (坎辛 坤丁 震戊 巽庚 乾乙 兌己 艮壬 離丙), so a stem no
    longer rides with its star. leishen keeps stem and star together (checked for all plates above).
    """
    plate = build_plate("陽", 9, sexagenary_index("癸巳"))
    assert plate.duty_star == "天芮" and plate.duty_star_palace == 2
    kinqimen_heaven = {1: "辛", 2: "丁", 3: "戊", 4: "庚", 6: "乙", 7: "己", 8: "壬", 9: "丙"}
    for p in RING:
        assert plate.star[p] == STAR_HOME[p] and plate.heaven[p] == plate.earth[p]
        assert plate.heaven[p] != kinqimen_heaven[p]
