"""The chart's own trail, as the engine found it: why the 三傳 are what they are, and how the Qimen 局 was found.

For Liu Ren, the 九宗門 steps the engine weighed while deciding the course (:func:`compute_course` keeps them:
:func:`leishen.engine.liuren.methods.ke_steps`): the 剋 candidates and their kind (下賊上 / 上剋下), those like
the day in yin-yang (比用), and for 涉害 each candidate's depth, with the method that decided and the school options
in force. For Qimen: the solar term, the 元, the 符頭, the 遁 and 局, and the 局 method option (拆補 / 置閏). A
practitioner can check the chart, not only the reading.
"""

from __future__ import annotations

from leishen.engine.calendar import BRANCHES, STEMS
from leishen.engine.liuren.course import compute_course
from leishen.engine.liuren.options import LiurenOptions
from leishen.errors import LeishenError


def _lesson(upper: int, lower: int, seat: int, lower_is_stem: bool) -> dict:
    return {"upper": BRANCHES[upper], "lower": (STEMS if lower_is_stem else BRANCHES)[lower], "seat": BRANCHES[seat]}


def liuren_trail(lr: dict) -> dict:
    """The 九宗門 steps of a Liu Ren section (candidates, 比用, 涉害 depths, the deciding method): those of the
    engine's course of its day, plate offset and options, each trail its own copy."""
    out = {"method": lr.get("method"), "course": lr.get("course"), "transmissions": lr.get("transmissions"),
           "options": lr.get("options", {})}
    try:
        course = compute_course(lr["day"], int(lr["offset"]), LiurenOptions.from_mapping(lr.get("options") or {}))
    except (KeyError, ValueError, TypeError, AttributeError, LeishenError):
        out["steps"] = None  # a typed-in chart without the plate offset: the method is reported as given
        return out
    out["steps"] = [_step(name, fields) for name, fields in course.steps]
    return out


def _step(name: str, fields: dict) -> dict:
    """One step of :func:`leishen.engine.liuren.methods.ke_steps` in the trail's JSON."""
    if name == "賊剋":
        return {"step": name, "kind": fields["kind"], "candidates": [_lesson(*c) for c in fields["candidates"]]}
    if name == "比用":
        return {"step": name, "like_day": [_lesson(*c) for c in fields["like_day"]]}
    return {"step": name, "seat_counted": fields["seat_counted"],
            "depths": [{**_lesson(*d[:4]), "depth": d[4]} for d in fields["depths"]]}


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
