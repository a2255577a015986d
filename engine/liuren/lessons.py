"""天盤 and 四課: the plate turned by the month general, and the four lessons read from it.

Branches and stems are integers (indices into BRANCHES / STEMS) inside the engine.
A plate is described by its *offset*: the heaven branch above earth branch ``e`` is
``(e + offset) % 12``, where ``offset = (月將 − hour branch) % 12`` (月將加時).
"""

from __future__ import annotations

from dataclasses import dataclass

from leishen.engine.liuren.tables import BRANCH_ELEMENT, STEM_ELEMENT, STEM_LODGING, overcomes


def plate_offset(month_general: int, hour_branch: int) -> int:
    """月將加時: the month general is laid on the hour branch; returns the rotation (0–11)."""
    return (month_general - hour_branch) % 12


def heaven_over(earth: int, offset: int) -> int:
    """The heaven-plate branch standing over earth branch *earth* (上神)."""
    return (earth + offset) % 12


def earth_under(heaven: int, offset: int) -> int:
    """The earth-plate branch under heaven branch *heaven* (所臨)."""
    return (heaven - offset) % 12


@dataclass(frozen=True, slots=True)
class Lesson:
    """One 課: ``upper`` (a heaven branch) over ``lower``.

    ``lower`` is the day stem for the first lesson (``lower_is_stem``) and a branch
    otherwise; ``seat`` is always the earth branch the upper stands on (the stem's 寄宮
    for the first lesson).
    """

    upper: int
    lower: int
    lower_is_stem: bool
    seat: int

    @property
    def lower_element(self) -> int:
        return STEM_ELEMENT[self.lower] if self.lower_is_stem else BRANCH_ELEMENT[self.lower]

    @property
    def is_zei(self) -> bool:
        """下賊上: the lower overcomes the upper."""
        return overcomes(self.lower_element, BRANCH_ELEMENT[self.upper])

    @property
    def is_ke(self) -> bool:
        """上剋下: the upper overcomes the lower."""
        return overcomes(BRANCH_ELEMENT[self.upper], self.lower_element)

    @property
    def position(self) -> tuple[int, int]:
        """(upper, seat): two lessons with the same position are the same lesson (不備)."""
        return self.upper, self.seat


def four_lessons(day_stem: int, day_branch: int, offset: int) -> tuple[Lesson, Lesson, Lesson, Lesson]:
    """四課.

    一課 干上神 over the day stem (at its 寄宮 甲寅 乙辰 丙戊巳 丁己未 庚申 辛戌 壬亥 癸丑);
    二課 the branch over 一課's upper; 三課 支上神 over the day branch; 四課 the branch over
    三課's upper.
    """
    seat = STEM_LODGING[day_stem]
    first = heaven_over(seat, offset)
    third = heaven_over(day_branch, offset)
    return (
        Lesson(first, day_stem, True, seat),
        Lesson(heaven_over(first, offset), first, False, first),
        Lesson(third, day_branch, False, day_branch),
        Lesson(heaven_over(third, offset), third, False, third),
    )


def distinct_lessons(lessons: tuple[Lesson, ...]) -> list[Lesson]:
    """The lessons with repeated positions dropped, first occurrence kept (in order)."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for lesson in lessons:
        if lesson.position not in seen:
            seen.add(lesson.position)
            kept.append(lesson)
    return kept


def follow_plate(first: int, offset: int) -> tuple[int, int, int]:
    """遞傳: 中傳 is the branch over 初傳, 末傳 the branch over 中傳."""
    middle = heaven_over(first, offset)
    return first, middle, heaven_over(middle, offset)
