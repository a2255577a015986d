"""The judgment tables: the facets each topic's text answers (``ontology/judgments/facets.csv``) and the
outcome nodes that answer each (``facet_answers.csv``), the ko/en of every answer value and verdict
(``answer_values.csv``), every row citing its passage. Read once; a bad row
is refused naming the file, the row and the column."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from leishen.errors import LeishenError

#: another folder of judgment tables to read instead of the ontology's (a test sets it); None: the ontology's
TABLES: Path | None = None
KINDS = ("one", "many")  # one: the answers exclude each other; many: they add up
SELECTORS = ("label", "category", "polarity")
ORDERS = ("", "judged_by", "text")  # answer = a node id, or KEY=VALUE over the finding's fact
CITATION = re.compile(r"^\d{3}:\d+$")
CONVENTION = re.compile(r"^J\d+$")  # a project convention of docs/judgments.md, where no line gives the step
INTERNAL = re.compile(r"\s*\((?:[^()]*?(?:conventions|§|issue|inventory|audit|a slot now|graph|\d\.[A-Z]\.\d|\d\.\d\d\.\d\d|"
                      r"\d{3}-S\d)[^()]*)\)"
                      r"|;?\s*(?:audit \d{4}-\d\d-\d\d|issue #\d+)[^;]*")


def plain_note(text: str) -> str:
    """A row's judgment note as a user reads it: references to project notes (conventions §, issue #, inventory
    rows, audit dates, row ids) left out."""
    return INTERNAL.sub("", text).strip(" ;,")


class JudgmentTableError(LeishenError):
    """A row of a judgment table that cannot be read (the message names the file, row and column)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One way a finding answers a facet: its meaning node is ``node``, or its fact matches ``key=value``;
    ``value`` is the answer it gives (``=name``: the meaning's own name, ``=polarity``: the rule's polarity)."""

    node: str | None
    key: str | None
    match: str | None
    value: str
    src: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Facet:
    """A question a topic's text answers: its name (the text's heading), ko/en, whether its answers exclude
    each other (``one``) or add up (``many``), whether it gives the topic's verdict, the system it is read in
    (blank: any), the place it is answered per (``宮``: each palace apart, as 003:75 reads each palace as a
    region), what orders its answers at one place (``order=judged_by``: the general the 用神 rides and the 煞 it
    belongs to and sits on decide its 吉凶, 000:3 000:23 000:79; ``order=text``: a topic's 吉凶, ordered by its
    procedure, judgments/procedures.py), its heading's src, the answers, and ``asked_if`` (the question is asked
    only where another facet has a given answer)."""

    topic: str | None
    name: str
    ko: str
    en: str
    kind: str
    verdict: bool
    system: str | None
    per: str | None
    order: str | None
    src: tuple[str, ...]
    note: str
    answers: tuple[Answer, ...]
    asked_if: tuple | None = None  # (facet, value): the text asks this question only where that facet has that answer
    first: dict = field(init=False, compare=False, hash=False, repr=False)  # answer_index(answers)

    def __post_init__(self):
        object.__setattr__(self, "first", answer_index(self.answers))

    def answer_for(self, meaning: str | None, label: str | None, category: str | None, polarity: str | None):
        """The first of this facet's answers a finding gives (by its meaning node, the meaning's label, its
        row's category or its polarity), or None: the first in the table's order among those the finding's
        four keys look up (:func:`answer_index`)."""
        first = self.first
        hits = [first[k] for k in (("node", meaning), ("label", label), ("category", category),
                                   ("polarity", polarity)) if k in first]
        if polarity in ("吉", "凶", "混") and ("polarity", "*") in first:
            hits.append(first[("polarity", "*")])
        return min(hits)[1] if hits else None


def answer_index(answers: tuple[Answer, ...]) -> dict[tuple[str, str], tuple[int, Answer]]:
    """(``node``, id) / (key, value) → (its position, the answer) of the first answer of a facet that matches
    on it; ``("polarity", "*")`` stands for any of 吉 凶 混."""
    first: dict = {}
    for k, a in enumerate(answers):
        first.setdefault(("node", a.node) if a.node is not None else (a.key, a.match), (k, a))
    return first


def _rows(name: str):
    """(row number, row dict) of a table, the header being row 1."""
    from leishen.loaders.csvfile import read_dicts
    errors: list[str] = []
    rows = read_dicts(tables_dir() / name, f"judgments/{name}", errors, columns=COLUMNS[name])
    if errors:
        raise JudgmentTableError(errors[0])
    for number, row in rows:
        if len(row) != len(COLUMNS[name]):
            raise JudgmentTableError(f"judgments/{name} row {number}: wrong number of columns")
        yield number, row


#: the columns of each judgment table (a header lacking one or holding another is refused, naming them)
COLUMNS = {"answer_values.csv": ("value", "ko", "en", "src", "note"),
           "beside.csv": ("topic", "reads", "seen_at", "category", "src", "note"),
           "exclusive.csv": ("topic", "facet", "value", "other", "other_value", "src", "note"),
           "facet_answers.csv": ("topic", "facet", "answer", "value", "src", "note"),
           "facets.csv": ("topic", "facet", "ko", "en", "kind", "verdict", "system", "per", "order", "src", "note",
                          "asked_if"),
           "procedures.csv": ("topic", "facet", "tier", "role", "items", "src", "note"),
           "timing.csv": ("topic", "event", "facet", "value", "src", "note"),
           "use_gods.csv": ("topic", "system", "slot", "role", "src", "note")}


def tables_dir() -> Path:
    """The folder of the judgment tables: :data:`TABLES` when set, else the ``judgments`` folder of the ontology
    in use (``$LEISHEN_ONTOLOGY``, else the installed one), as every other table."""
    from leishen.loaders.schema import ontology_dir
    return TABLES or ontology_dir() / "judgments"


def _src(name: str, number: int, text: str) -> tuple[str, ...]:
    """The citations of a row's src column (``doc:line``, ``;``-separated); at least one."""
    cited = tuple(c.strip() for c in text.split(";") if c.strip())
    if not cited or not all(CITATION.match(c) for c in cited):
        raise JudgmentTableError(f"judgments/{name} row {number}, column src: expected doc:line, found {text!r}")
    return cited


def _answer(number: int, row: dict) -> Answer:
    """An answer row: a node id (Label:name) or a selector KEY=VALUE."""
    text, src = row["answer"].strip(), _src("facet_answers.csv", number, row["src"])
    value = row["value"].strip()
    if not value:
        raise JudgmentTableError(f"judgments/facet_answers.csv row {number}, column value: empty")
    if "=" in text:
        key, _, match = text.partition("=")
        if key not in SELECTORS:
            raise JudgmentTableError(f"judgments/facet_answers.csv row {number}, column answer: unknown selector "
                                     f"{key!r} (one of {', '.join(SELECTORS)})")
        return Answer(None, key, match, value, src)
    if ":" not in text:
        raise JudgmentTableError(f"judgments/facet_answers.csv row {number}, column answer: expected Label:name "
                                 f"or a selector, found {text!r}")
    return Answer(text, None, None, value, src)


def _asked_if(number: int, text: str) -> tuple | None:
    """A facets.csv ``asked_if`` cell: ``FACET=VALUE`` (the question is asked only where that facet has that
    answer: 002:175 asks the taste of food only), or blank."""
    if not text.strip():
        return None
    facet, sep, value = text.strip().partition("=")
    if not sep or not facet or not value:
        raise JudgmentTableError(f"judgments/facets.csv row {number}, column asked_if: expected FACET=VALUE, "
                                 f"found {text!r}")
    return facet, value


@lru_cache(maxsize=1)
def facet_table() -> dict[str | None, tuple[Facet, ...]]:
    """topic id (None: the general reading) → its facets, in the table's order."""
    answers: dict[tuple, list] = {}
    for number, row in _rows("facet_answers.csv"):
        answers.setdefault((row["topic"] or None, row["facet"]), []).append(_answer(number, row))
    facets: dict[str | None, list] = {}
    for number, row in _rows("facets.csv"):
        key = (row["topic"] or None, row["facet"])
        if row["order"] not in ORDERS:
            raise JudgmentTableError(f"judgments/facets.csv row {number}, column order: {row['order']!r} is not "
                                     "blank, judged_by or text")
        if row["kind"] not in KINDS:
            raise JudgmentTableError(f"judgments/facets.csv row {number}, column kind: {row['kind']!r} is not "
                                     f"one of {', '.join(KINDS)}")
        if key not in answers:
            raise JudgmentTableError(f"judgments/facets.csv row {number}: facet {row['facet']!r} has no answers in "
                                     "facet_answers.csv")
        facets.setdefault(key[0], []).append(Facet(
            key[0], row["facet"], row["ko"], row["en"], row["kind"], row["verdict"] == "yes", row["system"] or None,
            row["per"] or None, row["order"] or None,
            _src("facets.csv", number, row["src"]), row["note"], tuple(answers.pop(key)),
            _asked_if(number, row["asked_if"])))
    if answers:
        topic, facet = next(iter(answers))
        raise JudgmentTableError(f"judgments/facet_answers.csv: answers for {topic or 'the general reading'} "
                                 f"{facet!r}, a facet facets.csv does not declare")
    return {t: tuple(fs) for t, fs in facets.items()}


def check_tables(node_ids) -> list[str]:
    """The answer nodes and topics the tables name that are not nodes of the graph (empty when all are)."""
    missing = []
    for topic, facets in facet_table().items():
        if topic is not None and topic not in node_ids:
            missing.append(topic)
        missing += [a.node for f in facets for a in f.answers if a.node and a.node not in node_ids]
    return missing


@lru_cache(maxsize=1)
def value_names() -> dict[str, tuple[str, str]]:
    """answer value or verdict → (ko, en), from answer_values.csv; every value facet_answers.csv gives (but
    ``=name`` and ``=polarity``, which take the meaning's or the polarity's names) must be there."""
    names = {}
    for number, row in _rows("answer_values.csv"):
        src = row["src"].strip()
        if not CONVENTION.match(src):
            _src("answer_values.csv", number, src)
        if not row["value"].strip() or not row["ko"].strip() or not row["en"].strip():
            raise JudgmentTableError(f"judgments/answer_values.csv row {number}: value, ko and en are required")
        names[row["value"].strip()] = (row["ko"].strip(), row["en"].strip())
    for number, row in _rows("facet_answers.csv"):
        value = row["value"].strip()
        if not value.startswith("=") and value not in names:
            raise JudgmentTableError(f"judgments/facet_answers.csv row {number}, column value: {value!r} has no "
                                     "row in answer_values.csv (its ko and en)")
    return names
