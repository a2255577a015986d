"""Assemble a whole chart (moment, pillars, term, and the Liu Ren / Qimen / Nine Star parts).

The shape (keys never renamed; values in traditional Chinese)::

    {"moment": {"local": "1952-12-26T19:17:00+08:00", "utc": "1952-12-26T11:17:00+00:00"},
     "pillars": {"year": "壬辰", "month": "壬子", "day": "丙午", "hour": "戊戌"},
     "solar_term": {"name": "冬至", "start": "1952-12-22T05:43:06+08:00"},
     "middle_term": {…}, "calendar": {"day_boundary": "23:00", "longitude": null},
     "liuren": {…}, "qimen": {…}, "ninestar": {…}}

Qimen and Nine Star come from :mod:`leishen.engine.qimen.chart` and
:mod:`leishen.engine.ninestar`; every system's school options are records made from engine/options.csv.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from leishen.engine.calendar import MomentFacts, check_moment, moment_facts
from leishen.engine.liuren.chart import birth_section, chart_year, liuren_from_facts
from leishen.engine.liuren.options import LiurenOptions
from leishen.engine.options import NinestarOptions, QimenOptions
from leishen.errors import ChartError

SYSTEMS = ("liuren", "qimen", "ninestar")
#: Options every system takes from the calendar, set once for the whole chart.
CALENDAR_KEYS = ("day_boundary", "longitude")


@dataclass(frozen=True)
class ChartRequest:
    """What to compute besides the moment: systems, calendar options and per-system options."""

    systems: tuple[str, ...] = SYSTEMS
    day_boundary: str = "23:00"
    longitude: float | None = None
    liuren: LiurenOptions = LiurenOptions()
    qimen: QimenOptions = QimenOptions()
    ninestar: NinestarOptions = NinestarOptions()
    birth_year: int | None = None
    sex: str | None = None

    def __post_init__(self) -> None:
        """Check the systems; school options given as a mapping (``{"method": "zhi_run"}``) become their record,
        a bad key or value a ChartError naming ``system.options.key`` and the choices."""
        for name, kind in (("liuren", LiurenOptions), ("qimen", QimenOptions), ("ninestar", NinestarOptions)):
            object.__setattr__(self, name, kind.from_mapping(getattr(self, name)))
        unknown = [s for s in self.systems if s not in SYSTEMS]
        if unknown or not self.systems:
            raise ChartError(f"system: {','.join(unknown) or '(none)'} is not one of {', '.join(SYSTEMS)}")


def parse_systems(text: str) -> tuple[str, ...]:
    """'liuren,qimen' → ('liuren', 'qimen'), checked, order and duplicates normalised."""
    wanted = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [s for s in wanted if s not in SYSTEMS]
    if unknown or not wanted:
        raise ChartError(f"system: {','.join(unknown) or repr(text)} is not one of {', '.join(SYSTEMS)}")
    return tuple(s for s in SYSTEMS if s in wanted)


def _qimen(facts: MomentFacts, request: ChartRequest) -> dict:
    from leishen.engine.qimen.chart import qimen_from_facts
    return qimen_from_facts(facts, **request.qimen.to_dict())


def _ninestar(facts: MomentFacts, request: ChartRequest) -> dict:
    from leishen.engine.ninestar import ninestar_from_facts
    return ninestar_from_facts(facts, **request.ninestar.to_dict())


def moment_json(moment: datetime) -> dict[str, str]:
    """{"local": ISO with the moment's own offset, "utc": ISO in UTC}."""
    return {"local": moment.isoformat(), "utc": moment.astimezone(timezone.utc).isoformat()}


def calendar_json(facts: MomentFacts, request: ChartRequest) -> dict:
    """The calendar part shared by every system."""
    p = facts.pillars
    return {
        "moment": moment_json(facts.moment),
        "pillars": {"year": p.year, "month": p.month, "day": p.day, "hour": p.hour},
        "solar_term": {"name": facts.term, "start": facts.term_start.isoformat()},
        "middle_term": {"name": facts.middle, "start": facts.middle_start.isoformat()},
        "calendar": {"day_boundary": request.day_boundary, "longitude": request.longitude},
    }


def build_chart(moment: datetime, request: ChartRequest = ChartRequest()) -> dict:
    """The chart of an aware *moment* for the systems and options in *request*.

    The calendar (:func:`~leishen.engine.calendar.moment_facts`) is computed once and handed to
    every system.
    """
    check_moment(moment)
    facts = moment_facts(moment, day_boundary=request.day_boundary, longitude=request.longitude)
    chart = calendar_json(facts, request)
    if "liuren" in request.systems:
        chart["liuren"] = liuren_from_facts(facts, request.liuren, longitude=request.longitude,
                                            birth_year=request.birth_year, sex=request.sex)
    elif request.birth_year is not None:  # no Liu Ren section to hold it: the asker's 本命 and 行年 on their own
        chart["birth"] = birth_section({"year": request.birth_year, "sex": request.sex, "chart_year": chart_year(facts)})
    if "qimen" in request.systems:
        chart["qimen"] = _qimen(facts, request)
    if "ninestar" in request.systems:
        chart["ninestar"] = _ninestar(facts, request)
        if request.birth_year is not None:  # 003:3–11 身命: the asker's natal 紫白 star, the year star of the birth year
            from leishen.engine.ninestar import year_star
            chart["ninestar"]["natal"] = year_star(request.birth_year)
    return chart
