"""The pure Liu Ren engine: (day pillar, plate offset, options) → course.

:func:`compute_course` is what the datetime pipeline calls; it is cached, and there
are only 60 × 12 = 720 distinct courses per set of options. The hour enters only
through the plate offset (月將 − hour branch), so the 三傳 cannot depend on the hour
for a given plate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from leishen.engine.calendar import BRANCHES, STEMS, sexagenary_index
from leishen.engine.liuren.lessons import Lesson, distinct_lessons, heaven_over
from leishen.engine.liuren.methods import Board, Decision, ke_steps, transmissions_by_ke
from leishen.engine.liuren.options import LiurenOptions, SpecialOrder
from leishen.engine.liuren.special import (
    transmissions_by_bazhuan, transmissions_by_bieze, transmissions_by_fanyin, transmissions_by_fuyin,
    transmissions_by_maoxing, transmissions_by_yaoke,
)

#: 三合 shapes of the 三傳 (課體 named by the transmissions)
TRIPLE_NAMES = {frozenset((8, 0, 4)): "潤下", frozenset((2, 6, 10)): "炎上",
                frozenset((11, 3, 7)): "曲直", frozenset((5, 9, 1)): "從革"}
EARTH_BRANCHES = frozenset((1, 4, 7, 10))


@dataclass(frozen=True, slots=True)
class Course:
    """A computed course: plate, lessons, transmissions, method and 課體 names."""

    day: str
    offset: int
    lessons: tuple[Lesson, Lesson, Lesson, Lesson]
    transmissions: tuple[int, int, int]
    method: str
    course: tuple[str, ...]
    steps: tuple = ()  # the 九宗門 steps weighed on the way (:func:`leishen.engine.liuren.methods.ke_steps`)

    @property
    def plate(self) -> dict[str, str]:
        """Earth branch → heaven branch above it."""
        return {BRANCHES[e]: BRANCHES[heaven_over(e, self.offset)] for e in range(12)}

    def lessons_json(self) -> list[dict[str, str]]:
        return [{"upper": BRANCHES[x.upper], "lower": (STEMS if x.lower_is_stem else BRANCHES)[x.lower]}
                for x in self.lessons]

    @property
    def transmission_names(self) -> list[str]:
        return [BRANCHES[b] for b in self.transmissions]


def three_transmissions(board: Board) -> Decision:
    """The nine methods (九宗門) in order.

    伏吟 and 返吟 are decided by the plate; otherwise 賊剋 → 比用 → 涉害 while the lessons
    hold a 剋; then (option ``special_order``) 八專 on its days, 遙剋, 別責 when only three
    lessons are distinct, and 昴星 for four full lessons.
    """
    if board.offset == 0:
        return transmissions_by_fuyin(board)
    if board.offset == 6:
        return transmissions_by_fanyin(board)
    found = transmissions_by_ke(board)
    if found is not None:
        return found
    bazhuan_first = board.options.special_order is SpecialOrder.BAZHUAN_FIRST
    if board.is_bazhuan_day and bazhuan_first:
        return transmissions_by_bazhuan(board)
    found = transmissions_by_yaoke(board)
    if found is not None:
        return found
    if board.is_bazhuan_day:
        return transmissions_by_bazhuan(board)
    if len(distinct_lessons(board.lessons)) == 3:
        return transmissions_by_bieze(board)
    return transmissions_by_maoxing(board)


def shape_names(transmissions: tuple[int, int, int]) -> tuple[str, ...]:
    """課體 named by the shape of the 三傳: 三合 局, 稼穡 (all earth), 進茹/退茹 (連茹)."""
    names = []
    triple = TRIPLE_NAMES.get(frozenset(transmissions))
    if triple and len(set(transmissions)) == 3:
        names.append(triple)
    if set(transmissions) <= EARTH_BRANCHES and len(set(transmissions)) == 3:
        names.append("稼穡")
    first, middle, last = transmissions
    if (middle - first) % 12 == 1 and (last - middle) % 12 == 1:
        names.append("進茹")
    if (first - middle) % 12 == 1 and (middle - last) % 12 == 1:
        names.append("退茹")
    return tuple(names)


@lru_cache(maxsize=8192)
def compute_course(day: str, offset: int, options: LiurenOptions = LiurenOptions()) -> Course:
    """The course of day pillar *day* (e.g. '甲子') on a plate turned by *offset* (0–11)."""
    index = sexagenary_index(day)
    board = Board.build(index % 10, index % 12, offset % 12, options)
    decision = three_transmissions(board)
    return Course(day, offset % 12, board.lessons, decision.transmissions, decision.method,
                  decision.course + shape_names(decision.transmissions), ke_steps(board))
