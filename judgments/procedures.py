"""Each topic's own procedure, as data (``ontology/judgments/procedures.csv``): for a facet, the lines its text
makes decisive, the lines it reads first or weighs most, and the lines it names as a caution — every row citing
the line that says so (docs/judgments.md, "Each topic's procedure").

A facet with procedure rows orders its answers by **tier** (0 first) and never by the place a finding is read
at: a decisive line of tier 0 that holds decides the facet whatever the 用神 says, a line of tier 1 (the text's
「最為重」, 「先須」, 「最要」) decides where no decisive line holds, and the findings the procedure does not
name come last, every paragraph equal (the texts rank none of them over the others). A ``caution`` row does not
decide: where it holds beside a 吉 answer, the facet is 未定 and names both (004:43: 反伏門迫 in 求財 is a
conflict to name, not a verdict of its own); a ``caution_here`` row does so only where it is read at a 用神; a
``rescue`` row is the converse: a 吉 that stands beside a 凶 of its own tier as a conflict (004:35)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from leishen.judgments.tables import JudgmentTableError, _rows, _src

#: caution_here: a caution only where read at a 用神; first_caution: a line read first (deciding where no tier above
#: it holds) that is also a caution beside a 吉 of a tier above (004:55's 值使 beside 004:47's 時日 for 行人);
#: rescue: a 吉 line that, where a 凶 of its tier decides, stands beside it as a conflict (004:35's 鬼化為財 beside
#: 財星化鬼), and otherwise weighs as an unnamed line
ROLES = ("decisive", "first", "caution", "caution_here", "first_caution", "rescue")
UNNAMED = 9  # the tier of a finding no procedure row names: after every named tier


@dataclass(frozen=True, slots=True)
class Procedure:
    """One facet's procedure: inventory item → (tier, role, the row's src); the items of its caution rows, and of
    those that count only where read at a 用神 (``caution_here``: a 格 of 004:43 on the asker's or the wealth's
    palace, not anywhere on the plate)."""

    tiers: dict
    cautions: frozenset
    here: frozenset = frozenset()
    rescues: frozenset = frozenset()

    def caution(self, item: str | None, at_use_god: bool) -> bool:
        """Whether a finding of *item* is a caution: a ``caution`` row anywhere, a ``caution_here`` row only where
        it is read at a 用神 (*at_use_god*)."""
        return item in self.cautions and (at_use_god or item not in self.here)

    def tier_of(self, item: str | None) -> int:
        """The tier of a finding's row (its inventory *item*): the tier a procedure row names it in, else
        :data:`UNNAMED`. A caution row is read after every named tier (it never decides)."""
        hit = self.tiers.get(item)
        return hit[0] if hit is not None and not hit[1].startswith("caution") and hit[1] != "rescue" else UNNAMED

    def rescue_tier(self, item: str | None) -> int | None:
        """The tier whose 凶 a ``rescue`` row stands beside (None for any other row)."""
        return self.tiers[item][0] if item in self.rescues else None

    def decisive(self, item: str | None) -> bool:
        """Whether *item*'s row is a decisive line: it counts wherever it is read (every rain sign of 003:55)."""
        hit = self.tiers.get(item)
        return hit is not None and hit[1] == "decisive"


@lru_cache(maxsize=1)
def procedure_table() -> dict[tuple, Procedure]:
    """(topic id, facet) → its :class:`Procedure`; a bad row is refused naming the file, row and column."""
    rows: dict[tuple, dict] = {}
    for number, row in _rows("procedures.csv"):
        role = row["role"].strip()
        if role not in ROLES:
            raise JudgmentTableError(f"judgments/procedures.csv row {number}, column role: {role!r} is not one of "
                                     f"{', '.join(ROLES)}")
        if not row["tier"].strip().isdigit() or int(row["tier"]) >= UNNAMED:
            raise JudgmentTableError(f"judgments/procedures.csv row {number}, column tier: expected 0–{UNNAMED - 1}, "
                                     f"found {row['tier']!r}")
        items = [i.strip() for i in row["items"].split(";") if i.strip()]
        if not items:
            raise JudgmentTableError(f"judgments/procedures.csv row {number}, column items: empty")
        src = _src("procedures.csv", number, row["src"])
        tiers = rows.setdefault((row["topic"], row["facet"]), {})
        for item in items:
            if item in tiers:
                raise JudgmentTableError(f"judgments/procedures.csv row {number}, column items: {item} is named "
                                         "twice for one facet")
            tiers[item] = (int(row["tier"]), role, src)
    return {key: Procedure(tiers, frozenset(i for i, (_, r, _) in tiers.items() if "caution" in r),
                           frozenset(i for i, (_, r, _) in tiers.items() if r == "caution_here"),
                           frozenset(i for i, (_, r, _) in tiers.items() if r == "rescue"))
            for key, tiers in rows.items()}


def procedure_of(topic: str | None, facet: str) -> Procedure | None:
    """The procedure of a topic's facet, or None (a facet its text gives no priority lines for)."""
    return procedure_table().get((topic, facet)) if topic else None


def check_procedures(items, facets) -> list[str]:
    """What the procedure table names that does not exist: an item no fact carries (*items*: the inventory
    items of the facts) or a facet facets.csv does not declare (*facets*: (topic, facet) pairs)."""
    missing = []
    for key, proc in procedure_table().items():
        if key not in facets:
            missing.append(f"{key[0]} {key[1]}")
        missing += [i for i in proc.tiers if i not in items]
    return missing


@lru_cache(maxsize=1)
def exclusive_table() -> dict[str, tuple]:
    """topic id → ((facet, value, other facet, other value, src), …): two answers of different facets the
    texts give on one chart without ordering them (ontology/judgments/exclusive.csv: 003:55 rain beside 003:51
    fine weather); where both are decided, both facets are 未定 and name each other."""
    out: dict[str, list] = {}
    for number, row in _rows("exclusive.csv"):
        src = _src("exclusive.csv", number, row["src"])
        out.setdefault(row["topic"], []).append((row["facet"], row["value"], row["other"], row["other_value"], src))
    return {t: tuple(rows) for t, rows in out.items()}


def exclusive_answers(topic: str | None, facets: list[dict]) -> list[dict]:
    """The facets with :func:`exclusive_table` applied: where both answers of a row are decided, each facet is
    ``未定`` and its ``conflict`` names its own answer and the other's."""
    by_name = {f["facet"]: f for f in facets}
    for facet, value, other, other_value, _ in exclusive_table().get(topic, ()) if topic else ():
        one, two = by_name.get(facet), by_name.get(other)
        if one is None or two is None:
            continue
        mine = [a for a in one["answer"] if a["value"] == value and one["status"] == "decided"]
        theirs = [a for a in two["answer"] if a["value"] == other_value and two["status"] == "decided"]
        if mine and theirs:
            for f, first, second in ((one, mine, theirs), (two, theirs, mine)):
                f.update(status="未定", conflict=first + second, answer=[])
    return facets
