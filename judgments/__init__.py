"""leishen.judgments — a reading's answer to its question: per topic a verdict with its 用神, facets, 應期
dates and cited reasons, computed from the reading's findings and the chart by the texts' own procedure
(docs/judgments.md). A judgment never re-evaluates a rule, so it is the same on every backend."""

from __future__ import annotations


def judge(reading: dict, chart: dict, reader, *, request=None, options: dict | None = None) -> list[dict]:
    """The judgments of a reading: one for the general reading, then one per topic read (docs/judgments.md).
    *request* is the chart request the reading's chart was cast with (a topic read on another moment's chart,
    年景 on the 立春 chart, is cast with it); *options* the judgment's school options (``timing_stem``:
    earth | heaven, ``nianjing_chart``: lichun | asked)."""
    from leishen.judgments.procedure import judge_reading
    return judge_reading(reading, chart, reader, request=request, options=options)


def check_tables() -> int:
    """Read every judgment table of the ontology in use (JudgmentTableError naming the file, row and column of
    the first bad row, as a judgment would): how many tables were read."""
    from leishen.judgments.beside import beside_table
    from leishen.judgments.procedures import exclusive_table, procedure_table
    from leishen.judgments.tables import COLUMNS, facet_table, value_names
    from leishen.judgments.timing import dated_events
    from leishen.judgments.usegod import general_use_gods
    for table in (facet_table, value_names, procedure_table, exclusive_table, beside_table, dated_events,
                  general_use_gods):
        table()
    return len(COLUMNS)
