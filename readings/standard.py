"""The slots of the standard tables: 月厭 生氣 死氣 (by the month), 喪門 弔客 (by the year branch) and the 納音
phase of each pillar, looked up in the rows of ``ontology/facts/std/`` (tables the texts assume but do not
print, each row cited to a work of ``ontology/sources.csv``; see ontology/README.md).

A slot's chain ends with the table's own edge: ``月建 寅 -MONTH_LOATHING-> 戌`` is the hop ``(type, node, fact
id)``, which a finding's path shows as a graph edge with the row's ``src`` (:func:`leishen.readings.walks.chain_walk`),
not as a chart hop. The Liu Ren option ``standard_tables`` (default ``on``) leaves every one of these slots unbound
when ``off``.
"""

from __future__ import annotations

from functools import cache

from leishen.readings.bounds import Bound

#: the table of each slot and the slot it is read from, for Liu Ren (月建 太歲) and Qimen (月支 年支)
SLOT_TABLES = {"月厭": ("MONTH_LOATHING", "月建", "月支"), "生氣": ("LIVING_BREATH", "月建", "月支"),
               "死氣": ("DEAD_BREATH", "月建", "月支"), "喪門": ("MOURNING_DOOR", "太歲", "年支"),
               "弔客": ("CONDOLENCE_GUEST", "太歲", "年支")}
NAYIN = "NAYIN"
OPTION = "standard_tables"
TABLE_FOLDER = "facts/std/"


def standard_tables(facts) -> dict[str, dict]:
    """relation type → {subject id → (object id, fact id)} of the standard tables' rows; for ``NAYIN`` the key
    is ``(stem id, branch id)``."""
    out: dict[str, dict] = {}
    for fact in facts:
        if not fact.file.startswith(TABLE_FOLDER):
            continue
        key = (dict(fact.qualifiers)["stem"], fact.subject) if fact.relation == NAYIN else fact.subject
        out.setdefault(fact.relation, {})[key] = (fact.object, fact.id)
    return out


def tables_on(chart: dict) -> bool:
    """Whether the chart's reading uses the standard tables: its Liu Ren (or Qimen) option ``standard_tables``
    is not ``off``."""
    for system in ("liuren", "qimen"):
        options = (chart.get(system) or {}).get("options")
        if isinstance(options, dict) and options.get(OPTION) == "off":
            return False
    return True


def table_hop(parent: Bound, rel: str, found: tuple[str, str]) -> Bound:
    """The Bound one table row away from *parent*: its chain ends with ``(type, node, fact id)``."""
    node, fact_id = found
    return Bound(node, parent.chain + ((rel, node, fact_id),))


def bind_shensha(slots: dict, tables: dict, systems: tuple[str, ...]) -> None:
    """月厭 生氣 死氣 喪門 弔客, each from the Liu Ren slot it is read from when the chart has Liu Ren (月建,
    太歲), else from the Qimen one (月支, 年支); a slot whose base is unbound stays unbound."""
    for slot, (rel, liuren_base, qimen_base) in SLOT_TABLES.items():
        base = slots.get(liuren_base if "liuren" in systems else qimen_base)
        found = tables.get(rel, {}).get(base.value) if base is not None else None
        if found is not None:
            slots[slot] = table_hop(base, rel, found)


def nayin_hop(pillar_branch: Bound, stem_id: str, tables: dict) -> Bound | None:
    """The 納音 phase of a pillar, one ``NAYIN`` row from the Bound of its branch (None without a row)."""
    found = tables.get(NAYIN, {}).get((stem_id, pillar_branch.value))
    return table_hop(pillar_branch, NAYIN, found) if found is not None else None


@cache
def nayin_names() -> dict[str, str]:
    """pillar (甲子) → its 納音 name (海中金), read from ``ontology/facts/std/nayin.csv``."""
    from leishen.loaders.csvfile import read_dicts
    from leishen.loaders.schema import ontology_dir
    errors: list[str] = []
    rows = read_dicts(ontology_dir() / "facts" / "std" / "nayin.csv", "facts/std/nayin.csv", errors)
    out = {}
    for _, row in rows:
        quals = dict(q.split("=", 1) for q in row["qualifiers"].split("|"))
        out[quals["stem"].partition(":")[2] + row["subject"].partition(":")[2]] = quals["name"]
    return out
