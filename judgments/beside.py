"""What a judgment names beside itself from the other art and never weighs: the class symbols of the topics its
reading reads beside (READS_BESIDE in the graph: 家宅 → 宮室 000:107, 疾病 → 臟腑 000:131, 射覆 → 器用 顏色 飛潛動植
飲食) and the general Liu Ren lines a topic names (``ontology/judgments/beside.csv``: 000:95's weather signs beside
天時, 000:59's 驛馬 beside 出行 and 行人, 000:23–43's 盜 財 劫 臨官 病 死 beside 求財 科試 疾病, 002's placements by
category …), each where it stands over the day stem or branch, in a transmission, the hour or the natal branch
(000:23–59: 干支 三傳 占時 本命) or at the places its row names. A project reading: the texts do not join the arts,
so these lines decide no facet and no verdict (docs/judgments.md, "Beside the judgment"). Also which general lines
every topic names under "also holds" (:func:`general_line`, :func:`shensha_line`) and what makes two findings one
line to name (:func:`line_key`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from leishen.judgments.tables import JudgmentTableError, _rows, _src

#: the Liu Ren places a line named beside a judgment is seen at unless its row names others: the uppers over the
#: day stem and the day branch, the transmissions, the hour and the natal branch (000:23–59: 干支 三傳 占時 本命,
#: 干 and 支 read as 干上 and 支上, conventions.md §2), the places the 神煞 of 000 are read at
SEEN_AT = ("課1上", "課3上", "初傳", "中傳", "末傳", "占時", "本命")
KINDS = ("line", "lines", "item")  # the general findings citing a line, a range of lines, or of one inventory item
LINES = re.compile(r"\d{3}:\d+-\d+")


@dataclass(frozen=True, slots=True)
class BesideRow:
    """A row of beside.csv: the general findings it names (*kind* and *what*: ``line 000:95``, ``lines
    002:23-91``, ``item 000-S09.m1``; of one *category* where it names one), the places they must be seen at, its
    src."""

    kind: str
    what: str
    seen_at: tuple
    src: tuple
    category: str | None = None  # only the rows of this category (002's placements: weather, illness …; placement)
    lines: frozenset = frozenset()  # the citations a line or lines row names (002:23-91 → 002:23 … 002:91)

    def names(self, f: dict) -> bool:
        """Whether general finding *f* is one this row names."""
        if self.kind == "item":
            return (f.get("rule") or {}).get("item") == self.what
        return not self.lines.isdisjoint(f["src"]) and self.category in (None, row_category(f), placement(f))


def cited_lines(kind: str, what: str) -> frozenset:
    """The citations a ``line`` or ``lines`` row names (none for an ``item`` row)."""
    if kind != "lines":
        return frozenset({what}) if kind == "line" else frozenset()
    doc, _, span = what.partition(":")
    first, _, last = span.partition("-")
    return frozenset(f"{doc}:{n}" for n in range(int(first), int(last) + 1))


@lru_cache(maxsize=1)
def beside_table() -> dict[str, tuple[BesideRow, ...]]:
    """Topic id → its :class:`BesideRow` s; a bad row refused naming the file, row and column."""
    out: dict[str, list] = {}
    for number, row in _rows("beside.csv"):
        kind, _, what = row["reads"].strip().partition(" ")
        if kind not in KINDS or not what.strip() or (kind == "lines" and not LINES.fullmatch(what.strip())):
            raise JudgmentTableError(f"judgments/beside.csv row {number}, column reads: expected 'line DOC:LINE', "
                                     f"'lines DOC:FIRST-LAST' or 'item ITEM', found {row['reads']!r}")
        seen_at = tuple(row["seen_at"].split()) or SEEN_AT
        out.setdefault(row["topic"].strip(), []).append(BesideRow(
            kind, what.strip(), seen_at, _src("beside.csv", number, row["src"]), row["category"].strip() or None,
            cited_lines(kind, what.strip())))
    return {topic: tuple(rows) for topic, rows in out.items()}


#: the category a placement row without a ``category`` qualifier has by what it names (002:95–147's heavenly
#: generals by placement name illnesses and weather as nodes of those labels, the month generals' rows qualify them)
CATEGORY_OF_LABEL = {"Illness": "illness", "Weather": "weather"}


def row_category(f: dict) -> str | None:
    """The ``category`` qualifier of a finding's own row (its path's last edge), else the category its object's
    label names (an ``Illness`` node: illness)."""
    path = f.get("path") or ()
    if len(path) < 2:
        return None
    return (path[-2].get("qualifiers") or {}).get("category") \
        or CATEGORY_OF_LABEL.get((path[-1].get("node") or {}).get("label"))


def placement(f: dict) -> str | None:
    """``placement`` for a finding of a placement row (PLACEMENT_MEANS: 002's 貴人加亥 …), the category a beside
    row names to take a range's placements alone, not the generals' own matters."""
    path = f.get("path") or ()
    return "placement" if len(path) >= 2 and path[-2].get("rel") == "PLACEMENT_MEANS" else None


def read_beside(facts: dict, props: dict) -> dict[str, frozenset]:
    """Topic id → the zh names of the topics its reading reads beside (the graph's READS_BESIDE facts)."""
    out: dict[str, set] = {}
    for fact in facts.values():
        if fact.relation == "READS_BESIDE":
            out.setdefault(fact.subject, set()).add(props[fact.object]["name"])
    return {topic: frozenset(names) for topic, names in out.items()}


def seen_in_lessons(f: dict, places: frozenset) -> bool:
    """Whether a finding's chart path stands on one of *places* (node ids: a lesson's upper, a transmission …); a
    plate position's earth branch (slot 地) is where the sign is, not the sign."""
    return any(hop["node"]["id"] in places for hop in f.get("path") or () if "node" in hop and hop.get("slot") != "地")


def beside_of(topic_id: str, beside_names: frozenset, reading: dict, shown: set) -> list[dict]:
    """The findings named beside a topic's judgment, each once by meaning and line: those of the topics read beside
    (*beside_names*) and the general ones its beside.csv rows name, that hold and are seen in the lessons or
    transmissions; *shown*: finding ids the judgment already names. Each as {finding, meaning, polarity, src,
    topic (the beside topic's name, None for a general line), at (the chart's names on its path)}."""
    rows = beside_table().get(topic_id, ())
    if not beside_names and not rows:
        return []
    bindings = reading.get("bindings") or {}

    def places(slots: tuple) -> frozenset:
        return frozenset(bindings[s] for s in slots if isinstance(bindings.get(s), str))
    default = places(SEEN_AT)
    meanings: dict = {}
    for f in reading["findings"]:
        topic = f.get("topic")
        row = None if topic else next((r for r in rows if r.names(f)), None)
        if (topic in beside_names or row is not None) and f.get("certainty") == "holds" and f["id"] not in shown \
                and seen_in_lessons(f, places(row.seen_at) if row else default):
            key, at = line_key(f), chart_names(f)  # each line's own
            if len(at) > len(meanings.get(key, {"at": at})["at"]) or key not in meanings:  # the fullest path
                meanings[key] = {"finding": f["id"], "meaning": dict(f["meaning"]), "polarity": f["polarity"],
                                 "src": list(f["src"]), "topic": topic, "at": at}
    return list(meanings.values())


def line_key(f: dict) -> tuple:
    """What makes two findings one line to name: the meaning's zh, the polarity and the citations."""
    return f["meaning"].get("zh"), f["polarity"], tuple(f["src"])


def chart_names(f: dict) -> list[str]:
    """The names of the chart's nodes on a finding's path, in order (亥 玄武), the earth position left out."""
    path = f.get("path") or ()
    return [hop["node"]["name"] for k, hop in enumerate(path) if "node" in hop and hop.get("slot") != "地"
            and (k == 0 or path[k - 1].get("chart"))]


def of_000(f: dict) -> bool:
    """Whether a finding cites a line of 000 (the Liu Ren 格局, 神煞 and 類象 text)."""
    return any(str(c).startswith("000:") for c in f["src"])


GENERAL_LINES = {"003": range(3, 12), "000": range(3, 16)}  # the day's centre star (003:3–11), the 格局 (000:3–15)
SHENSHA_LINES = {"000": range(23, 88)}  # 000:23–87: the 神煞, each read for whatever is asked (若問事之人 … 見者)


def cites_any(f: dict, lines: dict) -> bool:
    """Whether a finding cites one of *lines* (document → the range of its lines)."""
    for cited in f.get("src") or ():
        doc, _, line = str(cited).partition(":")
        if doc in lines and line.isdigit() and int(line) in lines[doc]:
            return True
    return False


def shensha_line(f: dict) -> bool:
    """A Liu Ren 神煞 of 000:23–87 seen at 干支 三傳 占時 本命: each line reads it for any question asked (000:23
    若問事之人 … 見者), so every topic names it beside its judgment, deciding nothing."""
    return f["system"] == "liuren" and f.get("query") == "rules" and cites_any(f, SHENSHA_LINES)


def general_line(f: dict) -> bool:
    """A general finding named beside every topic's judgment (never deciding it): a line of the day's centre star
    (003:3–11) or a Liu Ren 格局 (000:3–15)."""
    return cites_any(f, GENERAL_LINES)
