"""All 720 courses (60 days × 12 plate offsets): invariants and the counts the books give."""

from __future__ import annotations

from collections import Counter

import pytest

from leishen.engine.calendar import BRANCHES, STEMS, sexagenary_name
from leishen.engine.liuren.chart import liuren_section
from leishen.engine.liuren.course import compute_course
from leishen.engine.liuren.lessons import distinct_lessons, heaven_over
from leishen.engine.liuren.methods import METHODS, Board, like_day
from leishen.engine.liuren.methods import shehai_depth
from leishen.engine.liuren.options import LiurenOptions, SheHaiRule, SheHaiSeat
from leishen.engine.liuren.tables import BRANCH_ELEMENT, STEM_ELEMENT, STEM_LODGING, overcomes

DAYS = [sexagenary_name(i) for i in range(60)]
ALL = [(day, offset) for day in DAYS for offset in range(12)]


def courses(options: LiurenOptions = LiurenOptions()):
    return {(day, offset): compute_course(day, offset, options) for day, offset in ALL}


def test_there_are_720_courses_each_with_a_known_method():
    found = courses()
    assert len(found) == 720
    assert {c.method for c in found.values()} == set(METHODS)


@pytest.mark.parametrize("day", DAYS)
def test_four_lessons_follow_from_the_plate(day):
    stem, branch = STEMS.index(day[0]), BRANCHES.index(day[1])
    for offset in range(12):
        lessons = compute_course(day, offset).lessons
        seat = STEM_LODGING[stem]
        assert (lessons[0].upper, lessons[0].lower, lessons[0].lower_is_stem) == (heaven_over(seat, offset), stem, True)
        assert (lessons[1].lower, lessons[1].upper) == (lessons[0].upper, heaven_over(lessons[0].upper, offset))
        assert (lessons[2].lower, lessons[2].upper) == (branch, heaven_over(branch, offset))
        assert (lessons[3].lower, lessons[3].upper) == (lessons[2].upper, heaven_over(lessons[2].upper, offset))


@pytest.mark.parametrize("day", DAYS)
def test_fuyin_iff_offset_0_and_fanyin_iff_offset_6(day):
    for offset in range(12):
        method = compute_course(day, offset).method
        assert (method == "伏吟") == (offset == 0)
        assert (method == "返吟") == (offset == 6)


def test_transmissions_lie_on_the_plate():
    """Plate-following methods take 中 and 末 from the plate; the first comes from a lesson or a named rule."""
    for (day, offset), c in courses().items():
        first, middle, last = c.transmissions
        uppers = {x.upper for x in c.lessons}
        if c.method in ("賊剋", "比用", "涉害", "遙剋") or (c.method == "返吟" and "無依" in c.course):
            assert first in uppers, (day, offset)
            assert middle == heaven_over(first, offset) and last == heaven_over(middle, offset), (day, offset)
        if c.method in ("別責", "八專"):
            assert middle == last == c.lessons[0].upper, (day, offset)
        if c.method == "昴星":
            assert {middle, last} == {c.lessons[0].upper, c.lessons[2].upper}, (day, offset)


def test_transmissions_do_not_depend_on_the_hour_for_a_plate():
    """The same plate reached from twelve different hours gives the same lessons and 三傳 (kinliuren's bug)."""
    for day in DAYS:
        for offset in range(12):
            seen = set()
            for hour in range(12):
                general = BRANCHES[(hour + offset) % 12]
                chart = liuren_section(day, BRANCHES[hour], general)
                seen.add((tuple(chart["transmissions"]), tuple(x["upper"] for x in chart["lessons"]), chart["method"]))
            assert len(seen) == 1, (day, offset, seen)


def test_zeike_courses_have_exactly_one_ke():
    for (day, offset), c in courses().items():
        if c.method != "賊剋":
            continue
        zei = {x.upper for x in c.lessons if x.is_zei}
        ke = {x.upper for x in c.lessons if x.is_ke}
        if "重審" in c.course:
            assert len(zei) == 1, (day, offset)
        else:
            assert not zei and len(ke) == 1, (day, offset)


def test_remote_ke_is_never_ambiguous():
    """Two 遙剋 candidates occur, but the yin/yang test always leaves one (no 涉害 needed)."""
    for (day, offset), c in courses().items():
        if c.method != "遙剋":
            continue
        index = DAYS.index(day)
        board = Board.build(index % 10, index % 12, offset, LiurenOptions())
        element = STEM_ELEMENT[board.day_stem]
        uppers = {x.upper: x for x in distinct_lessons(board.lessons)}
        found = [x for u, x in uppers.items() if overcomes(BRANCH_ELEMENT[u], element)] or \
                [x for u, x in uppers.items() if overcomes(element, BRANCH_ELEMENT[u])]
        assert len(found) == 1 or len(like_day(board, found)) == 1, (day, offset)


def test_bieze_is_the_nine_courses_of_the_verse():
    """別責無剋三課備，剛三柔六九為宗: 戊辰 戊午 丙辰 with 午 on the stem; 辛丑 辛未 twice; 丁酉; 辛酉."""
    got = sorted((day, BRANCHES[c.lessons[0].upper]) for (day, _), c in courses().items() if c.method == "別責")
    assert got == sorted([("戊辰", "午"), ("戊午", "午"), ("丙辰", "午"), ("辛丑", "丑"), ("辛丑", "未"),
                          ("辛未", "丑"), ("辛未", "未"), ("丁酉", "巳"), ("辛酉", "酉")])


def test_maoxing_has_sixteen_courses():
    """《六壬大全》: 凡昴星止十六課."""
    assert sum(c.method == "昴星" for c in courses().values()) == 16


def test_bazhuan_days_are_four_of_the_five_shared_seat_days():
    """癸丑 shares a seat but always has a 剋, so 八專 occurs only on 甲寅 丁未 己未 庚申."""
    days = {day for (day, _), c in courses().items() if c.method == "八專"}
    assert days == {"甲寅", "丁未", "己未", "庚申"}


def test_only_yi_and_gui_days_have_a_ke_in_fuyin():
    with_ke = {day[0] for day in DAYS if compute_course(day, 0).lessons[0].is_zei or compute_course(day, 0).lessons[0].is_ke}
    assert with_ke == {"乙", "癸"}
    assert {"".join(compute_course(d, 0).transmission_names) for d in DAYS if d[0] == "癸"} == {"丑戌未"}


def test_shehai_tally_matches_the_published_count():
    """With the seat counted (``shehai_seat=include``), the annotated 課經's tally of the 720 courses:
    涉害 63, 見機 9, 綴瑕 1 (戊辰日 干上子) and 返吟 綴瑕 2 (戊辰 戊戌 干上亥).

    It counts 察微 2 where leishen finds 3 (and 比用 82 where leishen finds 81): one course the
    annotator reads by a rule leishen does not follow; see docs/engine-liuren.md.
    """
    tally = Counter()
    zhuixia = []
    for (day, _), c in courses(LiurenOptions(shehai_seat=SheHaiSeat.INCLUDE)).items():
        if c.method == "涉害":
            tally[c.course[0]] += 1
        if "綴瑕" in c.course:
            zhuixia.append((day, BRANCHES[c.lessons[0].upper], c.method))
    assert tally["涉害"] == 63 and tally["見機"] == 9 and tally["綴瑕"] == 1 and tally["察微"] == 3
    assert sorted(zhuixia) == [("戊戌", "亥", "返吟"), ("戊辰", "亥", "返吟"), ("戊辰", "子", "涉害")]
    assert sum(c.method == "比用" for c in courses().values()) == 81


def test_meng_zhong_ji_school_changes_only_shehai_courses():
    depth, seats = courses(), courses(LiurenOptions(shehai=SheHaiRule.MENG_ZHONG_JI))
    changed = [key for key in depth if depth[key].transmissions != seats[key].transmissions]
    assert changed, "the two 涉害 schools should disagree somewhere"
    assert all(depth[key].method in ("涉害", "返吟") for key in changed)


def test_shehai_depth_follows_the_dinge_worked_counts():
    """《課經》 訂訛: 亥 on 丑 passes 辰 戊 未 己 戌 (5, the seat not counted); 午 on 申 passes 酉 辛 (2)."""
    hai, chou, wu, shen = (BRANCHES.index(b) for b in "亥丑午申")
    assert shehai_depth(hai, chou, "zei") == 5
    assert shehai_depth(hai, chou, "zei", count_seat=True) == 6
    assert shehai_depth(wu, shen, "ke") == 2
    assert shehai_depth(wu, shen, "ke", count_seat=True) == 4


@pytest.mark.parametrize("day", ["丁卯", "己卯", "辛卯", "己亥"])
def test_shehai_seat_excluded_gives_the_yuce_table(day):
    """辰 over 子 (offset 4): the 訂訛 count and the 《大六壬預測學》 table give 未亥卯; counting the seat gives 亥卯未."""
    assert compute_course(day, 4).transmission_names == ["未", "亥", "卯"]
    seat = LiurenOptions(shehai_seat=SheHaiSeat.INCLUDE)
    assert compute_course(day, 4, seat).transmission_names == ["亥", "卯", "未"]


def test_shehai_seat_is_a_named_option_defaulting_to_exclude():
    assert LiurenOptions().shehai_seat is SheHaiSeat.EXCLUDE
    assert LiurenOptions.from_mapping({"shehai_seat": "include"}).shehai_seat is SheHaiSeat.INCLUDE
    assert LiurenOptions().to_dict()["shehai_seat"] == "exclude"
