"""The chart's own trail: why the 三傳 are what they are, and how the Qimen 局 was found.

For Liu Ren, the 九宗門 steps are replayed with the engine's own functions: the 剋 candidates and
their kind (下賊上 / 上剋下), those like the day in yin-yang (比用), and for 涉害 each candidate's depth,
with the method that decided and the school options in force. For Qimen: the solar term, the 元,
the 符頭, the 遁 and 局, and the 局 method option (拆補 / 置閏). A practitioner can check the chart,
not only the reading.
"""

from __future__ import annotations

from leishen.engine.calendar import BRANCHES, STEMS
from leishen.engine.liuren import methods
from leishen.engine.liuren.options import LiurenOptions, SheHaiSeat


def _lesson(lesson) -> dict:
    lower = STEMS[lesson.lower] if lesson.lower_is_stem else BRANCHES[lesson.lower]
    return {"upper": BRANCHES[lesson.upper], "lower": lower, "seat": BRANCHES[lesson.seat]}


def liuren_trail(lr: dict) -> dict:
    """The 九宗門 steps of a Liu Ren section (candidates, 比用, 涉害 depths, the deciding method)."""
    out = {"method": lr.get("method"), "course": lr.get("course"), "transmissions": lr.get("transmissions"),
           "options": lr.get("options", {})}
    try:
        options = LiurenOptions.from_mapping(lr.get("options") or {})
        board = methods.Board.build(STEMS.index(lr["day"][0]), BRANCHES.index(lr["day"][1]), int(lr["offset"]), options)
    except (KeyError, ValueError, TypeError, AttributeError):
        out["steps"] = None  # a typed-in chart without the plate offset: the method is reported as given
        return out
    out["steps"] = _steps(board, options)
    return out


def _steps(board: methods.Board, options: LiurenOptions) -> list:
    """The 九宗門 steps on one board."""
    kind, candidates = methods.ke_candidates(board)
    steps = [{"step": "賊剋", "kind": {"zei": "下賊上", "ke": "上剋下"}.get(kind, kind),
              "candidates": [_lesson(c) for c in candidates]}]
    if len(candidates) > 1:
        alike = methods.like_day(board, candidates)
        steps.append({"step": "比用", "like_day": [_lesson(c) for c in alike]})
        if len(alike) != 1:
            pool = alike or candidates
            seat = options.shehai_seat is SheHaiSeat.INCLUDE
            steps.append({"step": "涉害", "seat_counted": seat,
                          "depths": [{**_lesson(c), "depth": methods.shehai_depth(c.upper, c.seat, kind, count_seat=seat)}
                                     for c in pool]})
    return steps


def qimen_trail(qm: dict) -> dict:
    """How the 局 was found: term, 元, 符頭, 遁 and 局, and the method option used."""
    return {"term": qm.get("term"), "yuan": qm.get("yuan"), "fu_tou": qm.get("fu_tou"), "dun": qm.get("dun"),
            "ju": qm.get("ju"), "xun_head": qm.get("xun_head"), "method": (qm.get("options") or {}).get("method"),
            "options": qm.get("options", {})}


def chart_trail(chart: dict) -> dict:
    """The trail of every system in a chart."""
    out = {}
    if chart.get("liuren"):
        out["liuren"] = liuren_trail(chart["liuren"])
    if chart.get("qimen"):
        out["qimen"] = qimen_trail(chart["qimen"])
    if chart.get("ninestar"):
        out["ninestar"] = {"year": chart["ninestar"].get("year"), "month": chart["ninestar"].get("month"),
                           "day": chart["ninestar"].get("day"), "options": chart["ninestar"].get("options", {})}
    return out
