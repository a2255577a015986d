"""Named options for the points where schools of Da Liu Ren differ.

Every option is passed per call (never a global); its choices, default, doc, the school each choice follows
and its source are rows of engine/options.csv (:mod:`leishen.engine.options`), from which these enumerations
and :class:`LiurenOptions` are made. docs/engine-liuren.md explains them.
"""

from __future__ import annotations

from leishen.engine.options import choice_enum, options_class

MonthGeneralRule = choice_enum("month_general", "MonthGeneralRule", __name__)
NobleTable = choice_enum("noble_table", "NobleTable", __name__)
DayNight = choice_enum("day_night", "DayNight", __name__)
SheHaiRule = choice_enum("shehai", "SheHaiRule", __name__)
SheHaiSeat = choice_enum("shehai_seat", "SheHaiSeat", __name__)
SpecialOrder = choice_enum("special_order", "SpecialOrder", __name__)
FuYinKe = choice_enum("fuyin_ke", "FuYinKe", __name__)
VoidException = choice_enum("void_exception", "VoidException", __name__)
StandardTables = choice_enum("standard_tables", "StandardTables", __name__)

#: All Liu Ren school options as one frozen, hashable record (part of the course cache key); each field holds
#: the member of its enumeration; ``from_mapping`` builds it from plain strings naming a bad key or value.
LiurenOptions = options_class("liuren", "LiurenOptions", __name__, {
    "month_general": MonthGeneralRule, "noble_table": NobleTable, "day_night": DayNight, "shehai": SheHaiRule,
    "shehai_seat": SheHaiSeat, "special_order": SpecialOrder, "fuyin_ke": FuYinKe,
    "void_exception": VoidException, "standard_tables": StandardTables})
