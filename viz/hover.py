"""Hover texts: a relation's citations and, when the corpus folder is found, the cited passages.

The passages are read from the user's corpus at page-build time (never stored in the repository);
without a corpus the hover shows the citations only.
"""

from __future__ import annotations

import json

from leishen.errors import CitationError
from leishen.loaders.corpus import Corpus, load_corpus, parse_citation

PASSAGE_CHARS = 160


class Passages:
    """Looks up passage texts by ``doc:line``.  *corpus* is a loaded :class:`Corpus`, a folder,
    None for the default corpus (``$LEISHEN_CORPUS`` or ``../shared/seeds``, when found), or False
    for none (hovers then show the citations only)."""

    def __init__(self, corpus=None):
        if corpus is False:
            self.corpus = None
        elif isinstance(corpus, Corpus):
            self.corpus = corpus
        else:
            self.corpus = load_corpus(corpus)

    def text(self, src: str) -> str | None:
        if self.corpus is None:
            return None
        try:
            found = self.corpus.passage(parse_citation(src))
        except CitationError:
            return None
        return found if len(found) <= PASSAGE_CHARS else found[: PASSAGE_CHARS - 1] + "…"

    def cited(self, srcs) -> list[str]:
        """One line per citation: ``002:23`` and, when found, the passage after it."""
        lines = []
        for src in srcs or ():
            text = self.text(src)
            lines.append(f"{src}  {text}" if text else str(src))
        return lines


def qualifiers_of(part: dict) -> dict:
    """A fact's qualifiers (given as a dict or its JSON string)."""
    qualifiers = part.get("qualifiers")
    if isinstance(qualifiers, str):
        qualifiers = json.loads(qualifiers or "{}")
    return qualifiers or {}


def qualifier_text(qualifiers, names: dict | None = None) -> str:
    """``k=v`` pairs of a relation's qualifiers, a node by its name (a value given as a node, or as a node id
    that *names* — id → {"name", …} — knows)."""
    if isinstance(qualifiers, str):
        qualifiers = json.loads(qualifiers or "{}")
    names = names or {}

    def shown(v):
        if isinstance(v, dict):
            return v["name"]
        return names[v]["name"] if isinstance(v, str) and v in names else v

    from leishen.service.compact import INTERNAL
    return " ".join(f"{k}={shown(v)}" for k, v in (qualifiers or {}).items()
                    if not (isinstance(v, str) and INTERNAL.search(v)))  # an inventory row id is bookkeeping


def relation_title(kind: str, zh: str | None, parts: list[dict], passages: Passages, names: dict | None = None) -> str:
    """The hover of an edge: type and term, then for every fact it stands for: qualifiers (nodes by name),
    variant, note (internal codes left out: :func:`leishen.service.compact.plain`) and the cited passages."""
    from leishen.service.compact import plain
    lines = [f"{kind} {zh or ''}".strip()]
    for part in parts:
        note = plain(part.get("note"))
        extra = [qualifier_text(part.get("qualifiers"), names), part.get("variant") and f"variant: {part['variant']}",
                 note and f"note: {note}"]
        lines += [f"· {e}" for e in extra if e]
        lines += [f"  {line}" for line in passages.cited(part.get("src"))]
    return "\n".join(lines)
