"""三傳 when the four lessons give no usable 剋: 遙剋, 昴星, 別責, 八專, and the plates
伏吟 (offset 0) and 返吟 (offset 6)."""

from __future__ import annotations

from leishen.engine.liuren.lessons import Lesson, distinct_lessons, earth_under, follow_plate, heaven_over
from leishen.engine.liuren.methods import Board, Decision, like_day, transmissions_by_ke
from leishen.engine.liuren.options import FuYinKe
from leishen.engine.liuren.tables import (
    BRANCH_ELEMENT, HORSE, PUNISHMENT, STEM_COMBINATION, STEM_ELEMENT, STEM_LODGING, overcomes,
)

ROOSTER = 9  # 酉, the 昴 mansion's branch


def transmissions_by_yaoke(board: Board) -> Decision | None:
    """遙剋: no 剋 inside any lesson, so look between the day stem and the other uppers.

    An upper (of the second to fourth lesson) that overcomes the day stem is used first
    (神遙剋日, 蒿矢); failing that, one the day stem overcomes (日遙剋神, 彈射). Several
    are narrowed to the one like the day in yin/yang, then the first seen.
    """
    stem = STEM_ELEMENT[board.day_stem]
    uppers: dict[int, Lesson] = {}
    for lesson in distinct_lessons(board.lessons):   # the first lesson never qualifies: it has no 剋
        uppers.setdefault(lesson.upper, lesson)
    for name, hit in (("蒿矢", lambda b: overcomes(BRANCH_ELEMENT[b], stem)),
                      ("彈射", lambda b: overcomes(stem, BRANCH_ELEMENT[b]))):
        found = [lesson for upper, lesson in uppers.items() if hit(upper)]
        if found:
            matching = like_day(board, found)
            chosen = (matching or found)[0]
            return Decision(follow_plate(chosen.upper, board.offset), "遙剋", (name,))
    return None


def transmissions_by_maoxing(board: Board) -> Decision:
    """昴星: four full lessons without 剋 or 遙剋; look to 酉 (the 昴 mansion).

    剛日 (虎視): 初傳 the branch over earth 酉, 中 支上神, 末 干上神.
    柔日 (冬蛇掩目): 初傳 the earth branch under heaven 酉, 中 干上神, 末 支上神.
    """
    if board.strong_day:
        first = heaven_over(ROOSTER, board.offset)
        return Decision((first, board.branch_upper, board.stem_upper), "昴星", ("虎視",))
    first = earth_under(ROOSTER, board.offset)
    return Decision((first, board.stem_upper, board.branch_upper), "昴星", ("冬蛇掩目",))


def transmissions_by_bieze(board: Board) -> Decision:
    """別責: only three distinct lessons (不備), no 剋, no 遙剋.

    剛日: 初傳 the branch over the 寄宮 of the stem combining with the day stem (干合上神);
    柔日: 初傳 the branch after the day branch in its 三合 (支前三合, e.g. 酉 → 丑).
    中傳 and 末傳 are both 干上神.
    """
    if board.strong_day:
        partner = STEM_LODGING[STEM_COMBINATION[board.day_stem]]
        first = heaven_over(partner, board.offset)
    else:
        first = (board.day_branch + 4) % 12
    return Decision((first, board.stem_upper, board.stem_upper), "別責", ("別責",))


def transmissions_by_bazhuan(board: Board) -> Decision:
    """八專: stem and branch share a seat (甲寅 丁未 己未 庚申) and the two lessons have no 剋.

    剛日: count three (inclusive) forward from 干上神; 柔日: count three backward from the
    upper of the fourth lesson. 中傳 and 末傳 are both 干上神 (all three equal: 獨足).
    """
    if board.strong_day:
        first = (board.stem_upper + 2) % 12
    else:
        first = (board.lessons[3].upper - 2) % 12
    names = ("八專", "獨足") if first == board.stem_upper else ("八專",)
    return Decision((first, board.stem_upper, board.stem_upper), "八專", names)


def transmissions_by_fuyin(board: Board) -> Decision:
    """伏吟 (月將 on its own hour: heaven = earth); the chain follows 刑, not the plate.

    初傳: a 剋 in the first lesson (only 乙 and 癸 days) gives 干上神 (option ``fuyin_ke``);
    otherwise 剛日 干上神 (自任), 柔日 支上神 (自信). 中傳: what 初傳 punishes; if it punishes
    itself (辰 午 酉 亥), the other of 干上/支上神 (杜傳). 末傳: what 中傳 punishes; if that is
    itself again, the branch clashing with 中傳.
    """
    stem_up, branch_up = board.stem_upper, board.branch_upper
    lesson = board.lessons[0]
    if (lesson.is_ke or lesson.is_zei) and board.options.fuyin_ke is FuYinKe.USE_KE:
        first, other, names = stem_up, branch_up, ["伏吟", "自信" if not board.strong_day else "自任"]
    elif board.strong_day:
        first, other, names = stem_up, branch_up, ["伏吟", "自任"]
    else:
        first, other, names = branch_up, stem_up, ["伏吟", "自信"]
    middle = PUNISHMENT[first]
    if middle == first:
        middle = other
        names.append("杜傳")
    last = PUNISHMENT[middle]
    if last == middle:
        last = (middle + 6) % 12
    return Decision((first, middle, last), "伏吟", tuple(names))


def transmissions_by_fanyin(board: Board) -> Decision:
    """返吟 (heaven = the clash of earth).

    With a 剋, the usual 賊剋/比用/涉害 rules pick 初傳 (無依). Without one (only 丁己辛 days
    on 丑未: 井欄射, 無親), 初傳 is the 驛馬 of the day branch, 中傳 支上神, 末傳 干上神.
    """
    inner = transmissions_by_ke(board)
    if inner is not None:
        return Decision(inner.transmissions, "返吟", ("返吟", "無依", *inner.course))
    first = HORSE[board.day_branch]
    return Decision((first, board.branch_upper, board.stem_upper), "返吟", ("返吟", "無親", "井欄射"))
