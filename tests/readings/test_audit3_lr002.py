"""Rules of document 002 (射覆, 月將 by placement) mended in the third audit (2026-12-02): each fires where the
text says and not where it must not. Most of them never held because their condition joined a general to a
branch or a day that the plate can never give together (貴人 never rides 辰 or 戌, and the generals run
forward or backward by its seat); the part that cannot co-occur is now left to judgment. The rows whose
pairing is impossible by construction and is kept as the text writes it are pinned by
``test_pairings_the_plate_never_gives``. The ``MENDED`` / ``JUDGED`` rows run in ``test_mended.py``."""

from __future__ import annotations


from leishen.engine.liuren.generals import generals_on_plate
from leishen.engine.liuren.lessons import earth_under
from leishen.engine.liuren.options import NobleTable
from leishen.engine.liuren.tables import BRANCHES, STEMS


MENDED = [
    ("facts/002/shefu_rules.csv#79", "射覆", "2021-03-01T02:37:00+08:00", "2021-03-03T23:07:00+08:00",
     "俱見死囚並克賊 (002:175): the 用, day stem and day branch all 死囚 (dead before: 死 and 囚 phases never "
     "overcome each other); a chart where the day branch is not 死囚 does not count"),
    ("facts/002/yuejiang_wu.csv#32", "*", "2021-11-08T03:10:00+08:00", "2021-03-01T00:20:00+08:00",
     "午 with 螣蛇 in winter (002:59; dead before: 螣蛇 never rides 午 on 丙丁 days); 午 with 螣蛇 outside the "
     "winter months does not count"),
    ("facts/002/yuejiang_wu.csv#33", "*", "2021-11-12T23:37:00+08:00", "2021-03-01T23:10:00+08:00",
     "午 with 朱雀 in winter (002:59; dead before: 朱雀 rides 午 only on 乙己 days); 午 with 朱雀 outside the "
     "winter months does not count"),
    ("facts/002/yuejiang_you.csv#22", "*", "2021-03-03T23:07:00+08:00", "2021-03-07T00:11:00+08:00",
     "酉 with 白虎 (002:71; dead before: 白虎 rides 酉 only on 辛 days, never on 甲乙); a 甲 day has no 酉 白虎"),
    ("facts/002/yuejiang_zi.csv#31", "*", "2021-03-07T00:11:00+08:00", "2021-03-01T00:20:00+08:00",
     "子 with 白虎 overcoming the day (002:27; dead before: 子 overcomes only 丙丁, when 白虎 never rides 子): a 甲 "
     "day, 白虎's metal overcoming it; a 戊 day with 子 白虎 is overcome by neither"),
    ("facts/002/yuejiang_hai.csv#19", "*", "2021-04-13T04:58:00+08:00", "2021-03-02T03:44:00+08:00",
     "亥 with 六合 over the day (002:87; dead before: 六合 never rides 亥 on a 辰 day); 亥 with 六合 elsewhere does "
     "not count"),
    ("facts/002/yuejiang_wei.csv#9", "*", "2021-03-01T00:20:00+08:00", "2021-03-01T04:54:00+08:00",
     "陽比 (002:63) looked for in the lessons and transmissions; before, anywhere on the plate, so on every chart"),
    ("facts/002/yuejiang_wei.csv#10", "*", "2021-03-01T00:20:00+08:00", "2021-03-01T04:54:00+08:00",
     "陰比 (002:63) looked for in the lessons and transmissions; before, anywhere on the plate, so on every chart"),
]


def _plates():
    """Every (day stem, heaven branch, earth branch, general) the plate can give, under every 貴人 table."""
    seen = set()
    for table in NobleTable:
        for stem in range(10):
            for daytime in (True, False):
                for offset in range(12):
                    placed = generals_on_plate(stem, offset, daytime, table)
                    for heaven in range(12):
                        seen.add((STEMS[stem], BRANCHES[heaven], BRANCHES[earth_under(heaven, offset)],
                                  placed[heaven]))
    return seen


def test_pairings_the_plate_never_gives():
    """The 月將 rows kept as the text writes them, noted 'never holds by construction': no day, hour or 貴人
    table puts the general there; and the day parts the mended rows leave to judgment."""
    seen = _plates()
    on = {(h, g) for _, h, _, g in seen}
    over = {(e, g) for _, _, e, g in seen}
    placed = {(h, e, g) for _, h, e, g in seen}
    by_stem = {(s, h, g) for s, h, _, g in seen}
    for heaven, general in [("丑", "六合"), ("未", "六合"), ("戌", "天空"), ("辰", "天空")]:
        assert (heaven, general) not in on  # chou#23 wei#18 wei#31 xu#7 xu#13 xu#14 xu#29 chen#13
    for earth, general in [("丑", "六合"), ("亥", "朱雀")]:
        assert (earth, general) not in over  # chou#30 hai#42
    for triple in [("卯", "子", "天后"), ("寅", "巳", "玄武"), ("酉", "卯", "太常"), ("酉", "酉", "螣蛇"),
                   ("子", "辰", "白虎"), ("子", "卯", "太常")]:
        assert triple not in placed  # mao#20 mao#23 yin#9 you#16 you#24 zi#16 zi#17
    assert {s for s, h, g in by_stem if (h, g) == ("午", "螣蛇")} & {"丙", "丁"} == set()  # wu#32
    assert {s for s, h, g in by_stem if (h, g) == ("午", "朱雀")} & {"丙", "丁"} == set()  # wu#33
    assert {s for s, h, g in by_stem if (h, g) == ("酉", "白虎")} == {"辛"}  # you#22
    assert {s for s, h, g in by_stem if (h, g) == ("子", "白虎")} & {"丙", "丁"} == set()  # zi#31
    assert {s for s, h, g in by_stem if (h, g) == ("亥", "六合")} == {"乙", "己", "辛"}  # hai#19 hai#20
