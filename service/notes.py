"""The needs-judgment reasons in zh and ko (issue #31).

A rule row that leaves a point to the reader carries its reason in English (the last column of its row in
``ontology/facts/<doc>/*.csv``); ``ontology/readings/judgment_notes.csv`` (columns ``en,zh,ko,src``) gives each
distinct reason, keyed by its exact English text, in Chinese and Korean. The table is read strictly: a row
missing a cell, a ``src`` that is not ``doc:line``, a zh holding hangul, a ko holding none, or a repeated ``en``
is refused in one line naming the file, row and column.

- :func:`judgment_note` — a reason in zh, ko or en (None where the table has no rendering);
- :func:`judgment_names` — a reason as ``{"zh", "ko", "en"}``;
- :func:`with_judgment_names` — a reading whose needs-judgment findings and undated 應期 carry ``judgment_names``.

A 格局's finding joins the reasons of its rows with ``"; "`` (readings/findings.py); such a text is rendered
part by part when it splits into reasons of the table.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from leishen.errors import OntologyError

__all__ = ["NOTES_TABLE", "LANGS", "read_notes", "judgment_note", "judgment_names", "with_judgment_names"]

NOTES_TABLE = Path(__file__).resolve().parents[1] / "ontology" / "readings" / "judgment_notes.csv"
COLUMNS = ("en", "zh", "ko", "src")
LANGS = ("zh", "ko", "en")
JOINER = "; "  # how a pattern's finding joins the reasons of its rows
GLUE = {"zh": "；", "ko": "; "}  # how the renderings of a joined reason are joined again
SRC = re.compile(r"^\d{3}:[1-9]\d*$")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _row_problem(row: dict) -> tuple[str, str] | None:
    """(column, what is wrong) with one row of the table, or None when it is sound."""
    for column in COLUMNS:
        if not row[column]:
            return column, "empty (every reason needs its zh, ko and src)"
    if not SRC.match(row["src"]):
        return "src", f"{row['src']!r} is not a citation doc:line (e.g. 004:7)"
    if HANGUL.search(row["zh"]):
        return "zh", f"{row['zh']!r} holds hangul (the Korean belongs in ko)"
    if not HANGUL.search(row["ko"]):
        return "ko", f"{row['ko']!r} holds no hangul (not a Korean rendering)"
    return None


def read_notes(path: Path | None = None) -> dict[str, dict[str, str]]:
    """English reason → {"zh", "ko", "en", "src"} of the table at *path* (default: the notes table of the ontology
    folder in use); OntologyError in one line naming the file, row and column of the first bad row."""
    from leishen.loaders.csvfile import read_dicts
    from leishen.loaders.schema import ontology_dir
    path = path or ontology_dir() / "readings" / NOTES_TABLE.name
    rel = f"ontology/readings/{path.name}" if path.parent.name == "readings" else str(path)
    errors: list[str] = []
    rows = read_dicts(path, rel, errors, columns=COLUMNS)
    if errors:
        raise OntologyError(errors[0])
    notes: dict[str, dict[str, str]] = {}
    where: dict[str, int] = {}
    for number, row in rows:
        problem = _row_problem(row)
        if problem:
            raise OntologyError(f"{rel} row {number} column {problem[0]}: {problem[1]}")
        if row["en"] in notes:
            raise OntologyError(f"{rel} row {number} column en: repeats the reason of row {where[row['en']]}")
        notes[row["en"]], where[row["en"]] = row, number
    return notes


@lru_cache(maxsize=1)
def _notes() -> dict[str, dict[str, str]]:
    """The table, read once per process."""
    return read_notes()


def _parts(text: str, notes: dict) -> list[str] | None:
    """*text* as a run of the table's reasons joined by ``"; "`` (a reason may hold ``"; "`` itself), or None."""
    pieces = text.split(JOINER)
    found: list[list[str] | None] = [[]] + [None] * len(pieces)  # found[i]: the reasons making pieces[:i]
    for end in range(1, len(pieces) + 1):
        for start in range(end):
            head = found[start]
            if head is not None and JOINER.join(pieces[start:end]) in notes:
                found[end] = head + [JOINER.join(pieces[start:end])]
                break
    return found[-1]


def judgment_note(text: str | None, lang: str) -> str | None:
    """The needs-judgment reason *text* (its English, as the rule row gives it) in *lang*: the text itself in en,
    the table's rendering in zh or ko, None where the table has none. ValueError for another language."""
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    if not text or lang == "en":
        return text
    notes = _notes()
    if text in notes:
        return notes[text][lang]
    parts = _parts(text, notes) if JOINER in text else None
    return GLUE[lang].join(notes[p][lang] for p in parts) if parts else None


def judgment_names(text: str) -> dict[str, str | None]:
    """A reason in the three languages, ``{"zh", "ko", "en"}`` (zh or ko None where the table has no rendering)."""
    return {lang: judgment_note(text, lang) for lang in LANGS}


def _named(item: dict) -> dict:
    """*item* (a finding or a 應期 entry), copied with ``judgment_names`` when it carries a ``judgment``."""
    return {**item, "judgment_names": judgment_names(item["judgment"])} if item.get("judgment") else item


def with_judgment_names(reading: dict) -> dict:
    """*reading* (a reading with its judgments) whose needs-judgment findings and undated 應期 entries carry
    ``judgment_names``; the findings and judgments are copied, never changed in place (a reader keeps its
    findings for the next reading)."""
    out = dict(reading)
    out["findings"] = [_named(f) if f.get("certainty") == "needs_judgment" else f
                       for f in reading.get("findings") or []]
    if reading.get("judgments") is not None:
        out["judgments"] = [{**j, "when": [_named(w) for w in j["when"]]} if j.get("when") else j
                            for j in reading["judgments"]]
    return out
