"""Named options for the points where schools of Da Liu Ren differ.

Every option is passed per call (never a global) and has a documented default
and a source for each value; docs/engine-liuren.md repeats the table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum

from leishen.errors import ChartError


class MonthGeneralRule(StrEnum):
    """How the 月將 is chosen."""

    #: by the 中氣 in force (雨水→亥 … 大寒→子): the sun's actual station; standard since the
    #: Song (《六壬大全》 卷一 月將; Shen Kuo 《夢溪筆談》 on 月將 following the 中氣). Default.
    MIDDLE_TERM = "middle_term"
    #: by the lunar month (正月亥 … 十二月子), as the list in doc 000:71 reads; a leap month
    #: takes the general of the month it repeats.
    LUNAR_MONTH = "lunar_month"


class NobleTable(StrEnum):
    """Which 天乙貴人 table gives the noble's branch for the day stem (晝, 夜)."""

    #: 甲戊庚牛羊，乙己鼠猴鄉，丙丁豬雞位，壬癸蛇兔藏，六辛逢馬虎 — the table the worked charts of
    #: 《六壬大全》 (卷十 畢法 第三十八法, 卷十二 內戰格) agree with (see tests/engine/data). Default.
    DAQUAN = "daquan"
    #: the same rhyme with 壬癸兔蛇 (壬癸 晝卯 夜巳), as printed in almanacs (通書) and 八字 books.
    TONGSHU = "tongshu"
    #: 陽貴 甲羊戊庚牛… / 陰貴 甲牛戊庚羊…, the separate day and night rhymes (used e.g. by kinliuren).
    YANG_YIN = "yang_yin"


class DayNight(StrEnum):
    """Whether the 晝貴 or the 夜貴 leads the generals."""

    #: 卯 to 申 hours are 晝, 酉 to 寅 are 夜 (the sun — the 月將 — stands above the horizon). Default.
    BY_HOUR = "by_hour"
    #: force the day noble (a chart the book marks 晝占).
    DAY = "day"
    #: force the night noble (a chart the book marks 夜占).
    NIGHT = "night"


class SheHaiRule(StrEnum):
    """How 涉害 picks among several equal 剋 candidates."""

    #: 《課經》 (in 《六壬大全》 卷七): walk each candidate from the earth branch it sits on to its
    #: own home, counting the 剋 met on the way (branches and lodged stems; whether the seat
    #: counts is the option ``shehai_seat``, home never counts); the deepest is used; ties go
    #: to the one on a 孟 (見機), then 仲 (察微), then 綴瑕 (剛日 the first seen in the stem
    #: lessons, 柔日 in the branch lessons). Default.
    DEPTH = "depth"
    #: 《六壬經緯》, 《大六壬指南》, 《六壬尋原》, 《類聚》, 《粹言》: no counting — the candidate on a
    #: 孟 first, else on a 仲, then 綴瑕 as above.
    MENG_ZHONG_JI = "meng_zhong_ji"


class SheHaiSeat(StrEnum):
    """Whether the seat (the earth branch a 涉害 candidate sits on) is counted in its depth."""

    #: the seat is not counted: the worked counts of the 《課經》 訂訛 (亥 on 丑 = 5: 辰 戊 未 己 戌;
    #: 午 on 庚 = 2: 酉 辛), and the 涉害 table of 《大六壬預測學》 (丁卯 己卯 辛卯 己亥 with 辰 over
    #: 子 → 未亥卯). Default.
    EXCLUDE = "exclude"
    #: the seat is counted with its lodged stems (亥 on 丑 = 6): the count that reproduces the
    #: tally of the 720 courses in the annotated 課經 (tongziming.com, article 615: 涉害 63, 見機 9,
    #: 綴瑕 1, 返吟 綴瑕 2).
    INCLUDE = "include"


class SpecialOrder(StrEnum):
    """Whether a 八專 day without 剋 uses 八專 before looking for a 遙剋."""

    #: 八專 before 遙剋: 《六壬大全》's 八專 example (甲寅日 辰時 丑將, 初傳 丑 though 申 遙剋 甲). Default.
    BAZHUAN_FIRST = "bazhuan_first"
    #: the plain 九宗門 order (賊剋 比用 涉害 遙剋 昴星 別責 八專): 遙剋 wins whenever present.
    REMOTE_FIRST = "remote_first"


class FuYinKe(StrEnum):
    """伏吟 on 乙 and 癸 days, where the first lesson carries a 剋."""

    #: use the 剋 (干上神 first), 《景祐六壬神定經》 and the 課經 verse 乙癸有剋法不同. Default.
    USE_KE = "use_ke"
    #: ignore it and treat the day as any 柔日 (支上神 first).
    IGNORE_KE = "ignore_ke"


class VoidException(StrEnum):
    """Whether a void branch that is the day stem's 祿 stays void (旬空)."""

    #: every 旬 leaves its two branches void, without exception: 甲子旬中戌亥空 … (000:75). Default.
    NONE = "none"
    #: the 祿 of the day stem is not void (X日Y不空, 002:147: 壬日亥不空, 庚日申不空, 辛日酉不空, 丁己日午不空 …;
    #: every case the text lists is the stem's 祿).
    LU_NOT_VOID = "lu_not_void"


class StandardTables(StrEnum):
    """Whether a reading uses the standard tables the texts assume but do not print (ontology/facts/std/: 月厭 生氣
    死氣 by month, 喪門 弔客 by year branch, the sixty 納音), each row cited to a work outside the seeds
    (ontology/sources.csv). The chart itself does not change; the reading binds the slots 月厭 生氣 死氣 喪門 弔客
    and 年納 月納 日納 時納 from them (docs/rules.md)."""

    #: bind them: 《欽定協紀辨方書》 月表 (月厭) and 義例 (喪門 弔客), 《御定星曆考原》 卷五 (生氣; 死氣 its clash),
    #: 《三命通會》 卷一 論納音取象 (納音). Default.
    ON = "on"
    #: leave them unbound: only what the seeds print is read (the rules that need them do not hold).
    OFF = "off"


@dataclass(frozen=True, slots=True)
class LiurenOptions:
    """All Liu Ren school options; hashable, so it is part of the course cache key."""

    month_general: MonthGeneralRule = MonthGeneralRule.MIDDLE_TERM
    noble_table: NobleTable = NobleTable.DAQUAN
    day_night: DayNight = DayNight.BY_HOUR
    shehai: SheHaiRule = SheHaiRule.DEPTH
    shehai_seat: SheHaiSeat = SheHaiSeat.EXCLUDE
    special_order: SpecialOrder = SpecialOrder.BAZHUAN_FIRST
    fuyin_ke: FuYinKe = FuYinKe.USE_KE
    void_exception: VoidException = VoidException.NONE
    standard_tables: StandardTables = StandardTables.ON

    @classmethod
    def from_mapping(cls, values: dict[str, str] | None) -> LiurenOptions:
        """Build from plain strings (CLI, JSON), naming a bad key or value in the error."""
        if not values:
            return cls()
        kinds = {f.name: f.type for f in fields(cls)}
        enums = {name: globals()[kind] for name, kind in kinds.items()}
        parsed = {}
        for key, raw in values.items():
            if key not in enums:
                raise ChartError(f"liuren.options.{key}: unknown option; known: {', '.join(enums)}")
            try:
                parsed[key] = enums[key](raw)
            except ValueError as exc:
                allowed = ", ".join(member.value for member in enums[key])
                raise ChartError(f"liuren.options.{key}: {raw!r} is not one of {allowed}") from exc
        return cls(**parsed)

    def to_dict(self) -> dict[str, str]:
        """Plain-string form for the chart JSON."""
        return {key: str(value) for key, value in asdict(self).items()}
