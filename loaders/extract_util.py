"""Shared pieces of the text extractors (``leishen.loaders.extract``): clause splitting and specs.

An extractor reads the passage text (never stored in the repository) and returns tuples shaped
``(RELATION, subject, object, *qualifiers)`` with the names as the text writes them; a
:class:`Spec` says which passages it reads and how a fact row (export dict) maps onto the same
shape, so :func:`leishen.loaders.extract.cross_check` can compare the two sets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from leishen.loaders.derive import BRANCHES, STEMS

B = f"[{BRANCHES}]"
S = f"[{STEMS}]"
CLAUSE = re.compile(r"[，、；。]")
COMMA = re.compile(r"[，；。\n]")
PERIOD = re.compile(r"[。\n]")
GENERALS = ("貴人", "螣蛇", "朱雀", "六合", "勾陳", "青龍",
            "天空", "白虎", "太常", "玄武", "太陰", "天后")
HEADED = re.compile(r"(?:^|(?<=。) )([\u4e00-\u9fff]{1,4}) ")

Row = tuple[str, ...]


def clauses(text: str, sep: re.Pattern = CLAUSE) -> list[str]:
    """The non-empty clauses of *text*, split at the punctuation *sep* matches (and spaces)."""
    return [c.strip() for c in sep.split(text) if c.strip()]


def sections(text: str) -> list[tuple[str, str]]:
    """``[(heading, body)]`` of a passage written ``頭 body。 頭 body。`` (one per line of *text*)."""
    out = []
    for line in text.splitlines():
        parts = HEADED.split(line)
        out += [(parts[i], parts[i + 1]) for i in range(1, len(parts) - 1, 2)]
    return out


def unheaded(text: str) -> str:
    """*text* with the section headings (``印 ``, ``宮室 ``) taken out."""
    return "\n".join(HEADED.sub("", line) for line in text.splitlines())


def leading(body: str, pattern: str) -> list[re.Match]:
    """The matches of *pattern* on the clauses that open *body*, up to the first clause it does not fit."""
    found = []
    for clause in clauses(body):
        m = re.fullmatch(pattern, clause)
        if m is None:
            break
        found.append(m)
    return found


def pairs(term: str) -> list[str]:
    """A four-character list of two binomes (王侯紳士) split in two; anything else kept whole."""
    return [term[:2], term[2:]] if len(term) == 4 else [term]


def chunks(term: str) -> list[str]:
    """A run of binomes cut in two-character pieces (玄琥天后 → 玄琥, 天后)."""
    return [term[i:i + 2] for i in range(0, len(term), 2)]


def general_items(text: str) -> list[tuple[str, str]]:
    """``[(general, term)]`` from clauses that open with a general's name (貴人官宦宅, 貴人屬王侯紳士)."""
    return [(c[:2], c[2:].removeprefix("屬")) for c in clauses(text, COMMA) if c[:2] in GENERALS]


def product(rel: str, subjects: str | list[str], objects: str | list[str], *quals: str) -> set[Row]:
    """Every (rel, subject, object, *quals) for a group written together (甲乙日亥子 → 4 rows)."""
    return {(rel, s, o, *quals) for s in subjects for o in objects}


def qualifier(fact: dict, key: str) -> str:
    """A qualifier of an export dict as a name (node reference) or literal string; '' when absent."""
    value = fact["qualifiers"].get(key, "")
    if isinstance(value, dict):
        return value["name"]
    return "|".join(value) if isinstance(value, list) else str(value)


@dataclass(frozen=True)
class Spec:
    """One extractor and the fact rows it is compared with.

    ``relations`` and ``lines`` select the rows (a row citing one of the lines); ``quals`` are the
    qualifier keys appended to a row's tuple; ``where`` are qualifiers a row must have;
    ``labels`` give, per tuple slot, the node label(s) whose aliases turn a text token into the
    node's name (None: compared as written).  ``fuzzy``: the last slot matches when one term
    contains the other (lists whose items the tables cut or normalise).
    """

    name: str
    doc: str
    lines: tuple[int, ...]
    extract: Callable[[str], set[Row]]
    relations: frozenset[str]
    labels: tuple = ()
    quals: tuple[str, ...] = ()
    where: dict = field(default_factory=dict)
    key: Callable[[dict], Row | None] | None = None
    fuzzy: bool = False

    def row(self, fact: dict) -> Row | None:
        """The fact's tuple, or None when the row is not one this extractor covers."""
        if fact["relation"] not in self.relations or not self.cites(fact):
            return None
        if any(qualifier(fact, k) != v for k, v in self.where.items()):
            return None
        if self.key is not None:
            return self.key(fact)
        return (fact["relation"], fact["subject"]["name"], fact["object"]["name"],
                *(qualifier(fact, q) for q in self.quals))

    def cites(self, fact: dict) -> bool:
        return any(src in self.srcs for src in fact["src"])

    @cached_property
    def srcs(self) -> frozenset[str]:
        return frozenset(f"{self.doc}:{n}" for n in self.lines)
