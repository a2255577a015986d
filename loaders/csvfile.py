"""Read one CSV table of ``ontology/`` strictly: every problem is a line naming file, row and column.

The csv module forgives too much for hand-edited data: a quote that is never closed swallows the
rows after it into one cell, a stray quote stays in a cell, a repeated column name silently wins,
bytes that are not UTF-8 end in a traceback.  :func:`read_table` turns each of these into an error
(appended to the caller's list, so all files are reported in one go):

- the path is a directory or missing; the bytes are not UTF-8 (with the byte offset); the file is
  empty, or (unless ``rows_required=False``) has a header and no rows;
- a column name is empty or appears twice in the header;
- a record spans several lines (an unbalanced quote: "row 3 column note … swallows lines 3–48"), or
  a quote is never closed before the file ends (the last row: "row 49 column note: … the file ends inside it");
- a cell holds a double quote (a stray quote: no table of ours quotes anything inside a cell);
- (:func:`read_dicts` given its columns) a required column is missing or a column is not one of them;
- a row has more cells than the header has columns (an unquoted comma); a row repeats an earlier one.

Rows are numbered by the line they start on (the header is row 1).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from leishen.loaders.regular import read_utf8

Row = tuple[int, list[str]]


def read_text(path: Path, rel: str, errors: list[str]) -> str | None:
    """The UTF-8 text of *path* (a regular file of bounded size: :mod:`leishen.loaders.regular`), or None after
    appending why it cannot be read."""
    try:
        return read_utf8(path, rel, ValueError)
    except ValueError as exc:
        errors.append(str(exc))
        return None


def _header_problem(header: list[str], rel: str) -> str | None:
    seen: dict[str, int] = {}
    for i, name in enumerate(header, 1):
        if not name:
            return f"{rel} row 1 column {i}: empty column name"
        if name in seen:
            return f"{rel} row 1 column {i}: column {name!r} appears twice (columns {seen[name]} and {i})"
        seen[name] = i
    return None


def _row_problem(header: list[str], start: int, end: int, cells: list[str], rel: str) -> str:
    """Why a record is refused: it spans lines, holds a quote, or has too many cells."""
    names = lambda i: header[i] if i < len(header) else str(i + 1)  # noqa: E731
    if end > start:
        i = next((k for k, c in enumerate(cells) if "\n" in c or "\r" in c), len(cells) - 1)
        return (f"{rel} row {start} column {names(i)}: a quote opened here is not closed on its line; "
                f"it swallows lines {start}–{end}")
    for i, cell in enumerate(cells):
        if '"' in cell:
            return f"{rel} row {start} column {names(i)}: a stray quote (\") in {cell!r}"
    return f"{rel} row {start}: {len(cells)} cells but the header has {len(header)} columns (an unquoted comma?)"


def _ends_inside_a_quote(text: str, start: int, line_num: int) -> bool:
    """Whether the record starting on line *start* is the file's last and its quote is never closed: csv takes
    the end of the file as the end of an open quoted cell, so the record neither spans lines nor keeps a quote
    (its own lines' quotes then do not pair up)."""
    if line_num < text.count("\n") + (not text.endswith("\n")):
        return False
    return "\n".join(text.split("\n")[start - 1:]).count('"') % 2 == 1


def read_table(path: Path, rel: str, errors: list[str], *, rows_required: bool = True
               ) -> tuple[list[str], list[Row]] | None:
    """(header, [(row number, stripped cells padded to the header)]) of the CSV at *path*, or None
    when the file cannot be used at all; every problem is appended to *errors*."""
    text = read_text(path, rel, errors)
    if text is None:
        return None
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        header = [c.strip() for c in next(reader, [])]
        if not header:
            errors.append(f"{rel}: empty file (no header row)")
            return None
        problem = _header_problem(header, rel)
        if problem:
            errors.append(problem)
            return None
        rows, seen, before, last = [], {}, len(errors), 1
        width, quoted = len(header), '"' in text
        for cells in reader:
            start, last = last + 1, reader.line_num
            if not cells:
                continue
            if last > start or len(cells) > width or (quoted and '"' in "".join(cells)):
                errors.append(_row_problem(header, start, last, cells, rel))
                continue
            if quoted and _ends_inside_a_quote(text, start, reader.line_num):
                errors.append(f"{rel} row {start} column {header[min(len(cells), width) - 1]}: a quote opened "
                              f"here is never closed (the file ends inside it)")
                continue
            cells = [c.strip() for c in cells]
            if not any(cells):
                continue
            if len(cells) < width:
                cells += [""] * (width - len(cells))
            key = tuple(cells)
            if key in seen:
                errors.append(f"{rel} row {start}: repeats row {seen[key]}")
                continue
            seen[key] = start
            rows.append((start, cells))
    except csv.Error as exc:
        errors.append(f"{rel} row {reader.line_num}: not a well-formed CSV row ({exc})")
        return None
    if rows_required and not rows and len(errors) == before:
        errors.append(f"{rel}: a header and no rows (restore its rows)")
    return header, rows


def read_dicts(path: Path, rel: str, errors: list[str], *, rows_required: bool = True,
               columns: tuple[str, ...] | None = None) -> list[tuple[int, dict]]:
    """The rows of :func:`read_table` as (row number, {column: cell}); given *columns*, a header lacking one
    of them or holding another is refused (row 1, naming the columns)."""
    table = read_table(path, rel, errors, rows_required=rows_required)
    if table is None:
        return []
    header, rows = table
    if columns is not None and set(header) != set(columns):
        missing, unknown = [c for c in columns if c not in header], [c for c in header if c not in columns]
        what = "; ".join(filter(None, (missing and f"lacks column(s) {', '.join(missing)}",
                                       unknown and f"unknown column(s) {', '.join(unknown)}")))
        errors.append(f"{rel} row 1: {what} (expected {','.join(columns)})")
        return []
    return [(n, dict(zip(header, cells))) for n, cells in rows]
