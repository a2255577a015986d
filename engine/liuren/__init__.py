"""Da Liu Ren (大六壬) chart engine.

``compute_course(day, offset, options)`` is the pure, cached engine (720 courses per set of
options); ``liuren_section(day, hour, general, options)`` gives the JSON section from pillars;
``liuren_chart(moment, options)`` runs the whole datetime pipeline. See docs/engine-liuren.md.
"""

from leishen.engine.liuren.chart import liuren_chart, liuren_from_facts, liuren_section
from leishen.engine.liuren.course import Course, compute_course
from leishen.engine.liuren.options import (
    DayNight, FuYinKe, LiurenOptions, MonthGeneralRule, NobleTable, SheHaiRule, SpecialOrder,
)

__all__ = ["liuren_chart", "liuren_from_facts", "liuren_section", "Course", "compute_course", "LiurenOptions",
           "MonthGeneralRule", "NobleTable", "DayNight", "SheHaiRule", "SpecialOrder", "FuYinKe"]
