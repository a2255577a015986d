"""三傳 from the 剋 among the four lessons: 賊剋 (元首/重審), 比用 (知一), 涉害.

Each method is a small pure function of a :class:`Board` that returns a
:class:`Decision`, or ``None`` when its rule does not apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from leishen.engine.liuren.lessons import Lesson, earth_under, follow_plate, four_lessons
from leishen.engine.liuren.options import LiurenOptions, SheHaiRule, SheHaiSeat
from leishen.engine.liuren.tables import (
    BRANCH_ELEMENT, LODGED_STEMS, MENG, STEM_ELEMENT, STEM_LODGING, ZHONG, is_yang_branch, is_yang_stem, overcomes,
)


@dataclass(frozen=True, slots=True)
class Board:
    """What every method reads: the day, the plate and the four lessons."""

    day_stem: int
    day_branch: int
    offset: int
    lessons: tuple[Lesson, Lesson, Lesson, Lesson]
    options: LiurenOptions

    @classmethod
    def build(cls, day_stem: int, day_branch: int, offset: int, options: LiurenOptions) -> Board:
        return cls(day_stem, day_branch, offset, four_lessons(day_stem, day_branch, offset), options)

    @property
    def strong_day(self) -> bool:
        """剛日 (yang stem) or 柔日 (yin stem)."""
        return is_yang_stem(self.day_stem)

    @property
    def stem_upper(self) -> int:
        """干上神 (the upper of the first lesson)."""
        return self.lessons[0].upper

    @property
    def branch_upper(self) -> int:
        """支上神 (the upper of the third lesson)."""
        return self.lessons[2].upper

    @property
    def is_bazhuan_day(self) -> bool:
        """八專日: the stem lodges on the day branch (甲寅 丁未 己未 庚申 癸丑)."""
        return STEM_LODGING[self.day_stem] == self.day_branch


@dataclass(frozen=True, slots=True)
class Decision:
    """The 三傳 with the method (one of :data:`METHODS`) and the 課體 names."""

    transmissions: tuple[int, int, int]
    method: str
    course: tuple[str, ...]


METHODS = ("賊剋", "比用", "涉害", "遙剋", "昴星", "別責", "八專", "伏吟", "返吟")


def ke_candidates(board: Board) -> tuple[str, list[Lesson]]:
    """The lessons that can give the 初傳, and their kind.

    下賊上 ('zei') take precedence over 上剋下 ('ke'); lessons repeating an earlier
    upper branch count once. All four lessons are read: two lessons on the same seat
    can still differ, as the first one's lower is the stem (丁 on 未, 癸 on 丑).
    """
    for kind in ("zei", "ke"):
        found: dict[int, Lesson] = {}
        for lesson in board.lessons:
            hit = lesson.is_zei if kind == "zei" else lesson.is_ke
            if hit and lesson.upper not in found:
                found[lesson.upper] = lesson
        if found:
            return kind, list(found.values())
    return "", []


def ke_steps(board: Board) -> tuple:
    """The 賊剋 → 比用 → 涉害 steps of *board*, as the course's trail shows them: the 剋 candidates and their kind
    (下賊上 / 上剋下), then, of two or more, those like the day in yin-yang, then, unless one alone is, each
    candidate's 涉害 depth (the seat counted as the option says). Each step is ``(name, {field: value})`` with
    lessons as (upper, lower, seat, lower_is_stem)."""
    kind, candidates = ke_candidates(board)
    lesson = lambda c: (c.upper, c.lower, c.seat, c.lower_is_stem)  # noqa: E731
    steps = [("賊剋", {"kind": {"zei": "下賊上", "ke": "上剋下"}.get(kind, kind),
                     "candidates": tuple(map(lesson, candidates))})]
    if len(candidates) > 1:
        alike = like_day(board, candidates)
        steps.append(("比用", {"like_day": tuple(map(lesson, alike))}))
        if len(alike) != 1:
            seat = board.options.shehai_seat is SheHaiSeat.INCLUDE
            steps.append(("涉害", {"seat_counted": seat, "depths": tuple(
                (*lesson(c), shehai_depth(c.upper, c.seat, kind, count_seat=seat)) for c in alike or candidates)}))
    return tuple(steps)


def transmissions_by_zeike(board: Board, kind: str, candidates: list[Lesson]) -> Decision | None:
    """賊剋: exactly one 剋 → its upper is 初傳, the plate gives 中 and 末.

    One 下賊上 (the lower overcoming the upper) is 重審; one 上剋下 with no 下賊上 is 元首.
    """
    if len(candidates) != 1:
        return None
    name = "重審" if kind == "zei" else "元首"
    return Decision(follow_plate(candidates[0].upper, board.offset), "賊剋", (name,))


def like_day(board: Board, candidates: list[Lesson]) -> list[Lesson]:
    """The candidates whose upper shares the day stem's yin/yang (與日比)."""
    yang = board.strong_day
    return [c for c in candidates if is_yang_branch(c.upper) == yang]


def transmissions_by_biyong(board: Board, candidates: list[Lesson]) -> Decision | None:
    """比用: of two or more 剋, the only one whose upper matches the day in yin/yang (知一)."""
    matching = like_day(board, candidates)
    if len(candidates) < 2 or len(matching) != 1:
        return None
    return Decision(follow_plate(matching[0].upper, board.offset), "比用", ("知一",))


def shehai_depth(upper: int, seat: int, kind: str, count_seat: bool = False) -> int:
    """Depth of 涉害: the 剋 met walking forward from *seat* to the upper's own home.

    Every earth branch after the seat up to (not including) home counts, with the stems
    lodged there; with *count_seat* the seat and its lodged stems count too (option
    ``shehai_seat``). For a 下賊上 candidate count what overcomes it, for a 上剋下 candidate
    what it overcomes. 《課經》 訂訛: 亥 on 丑 passes 辰 戊 未 己 戌 (5; 6 with the seat 丑);
    午 on 庚 (申) passes 酉 辛 (2; 4 with the seat 申 庚).
    """
    element = BRANCH_ELEMENT[upper]
    depth = 0
    position = seat if count_seat else (seat + 1) % 12
    while position != upper:
        met = (BRANCH_ELEMENT[position], *(STEM_ELEMENT[s] for s in LODGED_STEMS[position]))
        if kind == "zei":
            depth += sum(overcomes(e, element) for e in met)
        else:
            depth += sum(overcomes(element, e) for e in met)
        position = (position + 1) % 12
    return depth


def first_seen(board: Board, pool: list[Lesson]) -> Lesson:
    """綴瑕: 剛日 the candidate seen first in the stem lessons (一二課), 柔日 in the branch lessons."""
    order = (0, 1, 2, 3) if board.strong_day else (2, 3, 0, 1)
    uppers = {c.upper: c for c in pool}
    for index in order:
        upper = board.lessons[index].upper
        if upper in uppers:
            return uppers[upper]
    return pool[0]


def transmissions_by_shehai(board: Board, kind: str, candidates: list[Lesson]) -> Decision | None:
    """涉害: several 剋 that are all, or none, like the day.

    The pool is the like-day candidates if two or more match, else all of them. Then
    (option ``shehai``) the deepest 涉害 (涉害), a tie broken by the candidate on a 孟
    (見機), then on a 仲 (察微), then 綴瑕 (:func:`first_seen`).
    """
    if len(candidates) < 2:
        return None
    matching = like_day(board, candidates)
    pool = matching if len(matching) >= 2 else candidates
    name = "涉害"
    if board.options.shehai is SheHaiRule.DEPTH:
        count_seat = board.options.shehai_seat is SheHaiSeat.INCLUDE
        depths = {c.upper: shehai_depth(c.upper, earth_under(c.upper, board.offset), kind, count_seat)
                  for c in pool}
        deepest = max(depths.values())
        pool = [c for c in pool if depths[c.upper] == deepest]
    if len(pool) > 1:
        pool, name = _by_seat_class(board, pool)
    chosen = pool[0] if len(pool) == 1 else first_seen(board, pool)
    if len(pool) > 1:
        name = "綴瑕"
    return Decision(follow_plate(chosen.upper, board.offset), "涉害", (name,))


def _by_seat_class(board: Board, pool: list[Lesson]) -> tuple[list[Lesson], str]:
    """Keep the candidates seated on a 孟 (見機), else on a 仲 (察微)."""
    for seats, name in ((MENG, "見機"), (ZHONG, "察微")):
        seated = [c for c in pool if earth_under(c.upper, board.offset) in seats]
        if seated:
            return seated, name
    return pool, "綴瑕"


def transmissions_by_ke(board: Board) -> Decision | None:
    """The first three of the nine methods, in order: 賊剋, 比用, 涉害 (None without any 剋)."""
    kind, candidates = ke_candidates(board)
    if not candidates:
        return None
    return (transmissions_by_zeike(board, kind, candidates)
            or transmissions_by_biyong(board, candidates)
            or transmissions_by_shehai(board, kind, candidates))
