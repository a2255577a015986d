"""Read the entity, glossary and fact tables of ``ontology/`` and validate every row.

Errors are collected over all files and raised together, each naming file, row and column, so a
broken data change is reported in one go and no graph is built from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from leishen.errors import CitationError, OntologyError
from leishen.loaders.corpus import parse_citation
from leishen.loaders.csvfile import read_table
from leishen.loaders.hangul import hangul_reading  # noqa: F401  (the fallback ko reading)
from leishen.loaders.records import Fact, Node, Ref
from leishen.loaders.schema import Schema

ENTITY_COLUMNS = ("key", "name", "ko", "en", "aliases", "order", "src")
FACT_COLUMNS = ("item", "relation", "subject", "object", "qualifiers", "src", "terms", "variant", "note",
                "when", "polarity", "judgment")
OPTIONAL_FACT_COLUMNS = ("terms", "variant", "note", "order", "item", "qualifiers", "when", "polarity", "judgment")
GLOSSARY_COLUMNS = ("label", "name", "ko", "en", "note", "ko_hanja", "ko_src")
REF = re.compile(r"^([A-Z][A-Za-z]+):(.+)$")
QUALIFIER_KEY = re.compile(r"[a-z][a-z0-9_]*")
VARIANTS = {"", "text", "原本作", "沈本作", "金氏旁註", "一云", "一為", "typo", "lacuna"}


def snake_to_label(stem: str) -> str:
    """``flying_star`` → ``FlyingStar``."""
    return "".join(part.capitalize() for part in stem.split("_"))


def _split(cell: str | None) -> list[str]:
    return [p.strip() for p in (cell or "").split("|") if p.strip()]


def _check_header(header: list[str], columns: tuple[str, ...], rel: str, errors: list[str]) -> bool:
    """A header holding every required column and no unknown one; else an error naming the file."""
    missing = [c for c in columns if c not in header and c not in OPTIONAL_FACT_COLUMNS]
    if missing:
        errors.append(f"{rel} row 1: header lacks column(s) {', '.join(missing)} (expected {','.join(columns)})")
        return False
    unknown = [c for c in header if c not in columns]
    if unknown:
        errors.append(f"{rel} row 1: unknown column(s) {', '.join(unknown)} (allowed: {','.join(columns)})")
        return False
    return True


#: the tables of ``ontology/`` read outside the graph build (by the readings, the pages, ``check --extract``) and
#: their columns; the graph build refuses one whose header holds another column or lacks one of them. The
#: coverage tables are checked by their own reader (loaders/coverage.py), the judgment tables by judgments/.
DATA_TABLES = {"readings/hanja_hangul.csv": ("char", "reading"),
               "readings/judgment_notes.csv": ("en", "zh", "ko", "src"),
               "readings/ko_hanja_names.csv": ("label", "name", "reason"),
               "readings/ui_words.csv": ("key", "zh", "ko", "en", "note"),
               "coverage/extraction_known.csv": ("spec", "kind", "row", "src", "reason")}


def check_data_tables(folder: Path, errors: list[str]) -> None:
    """An error naming file and column for each table of :data:`DATA_TABLES` (under the ontology *folder*) whose
    header holds a column the table does not take, or lacks one it needs (only the header row is read)."""
    import csv
    for rel, columns in DATA_TABLES.items():
        try:
            with (folder / rel).open(encoding="utf-8", newline="") as fh:
                header = [c.strip() for c in next(csv.reader([fh.readline()]), [])]
        except (OSError, UnicodeDecodeError):
            continue  # a missing or unreadable table is its reader's error, named there
        for i, name in enumerate(header, 1):
            if name not in columns:
                errors.append(f"{rel} row 1 column {i} ({name!r}): unknown column (the table takes "
                              f"{','.join(columns)})")
        missing = [c for c in columns if c not in header]
        if missing:
            errors.append(f"{rel} row 1: header lacks column(s) {', '.join(missing)} (expected {','.join(columns)})")


def read_csv(path: Path, columns: tuple[str, ...], rel: str, errors: list[str]) -> list[tuple[int, dict]]:
    """Rows of a CSV as (row number, dict), read strictly (:mod:`leishen.loaders.csvfile`); a missing
    required or an unknown column is an error."""
    table = read_table(path, rel, errors)
    if table is None or not _check_header(table[0], columns, rel, errors):
        return []
    header, rows = table
    return [(n, dict(zip(header, cells))) for n, cells in rows]


@dataclass
class Registry:
    """All nodes by id, and the (label, name-or-alias) → node id index."""

    schema: Schema
    nodes: dict[str, Node] = field(default_factory=dict)
    index: dict[tuple[str, str], str] = field(default_factory=dict)
    glossary: dict[tuple[str, str], dict] = field(default_factory=dict)

    def add(self, node: Node, names: list[str], where: str, errors: list[str]) -> None:
        if node.id in self.nodes:
            errors.append(f"{where} column key: node {node.id} is defined twice")
            return
        self.nodes[node.id] = node
        for name in names:
            other = self.index.setdefault((node.label, name), node.id)
            if other != node.id:
                errors.append(f"{where} column name/aliases: name {name!r} of {node.id} already names {other}")

    def resolve(self, ref: Ref, where: str, errors: list[str]) -> str | None:
        """The node id for *ref*; open labels create the node on first use."""
        label = self.schema.labels.get(ref.label)
        if label is None:
            errors.append(f"{where}: unknown label {ref.label!r} in {ref} (see ontology/schema/*.toml)")
            return None
        found = self.index.get((ref.label, ref.name))
        if found:
            return found
        if label.closed:
            near = sorted(n for (lab, n) in self.index if lab == ref.label)[:24]
            errors.append(f"{where}: unknown {ref.label} {ref.name!r} (known: {' '.join(near)})")
            return None
        return self._create_open(ref)

    def _create_open(self, ref: Ref) -> str:
        gloss = self.glossary.get((ref.label, ref.name), {})
        node = Node(f"{ref.label}:{ref.name}", ref.label, {
            "key": ref.name, "label": ref.label, "name": ref.name,
            "ko": gloss.get("ko") or hangul_reading(ref.name), "en": gloss.get("en", ""),
            "ko_hanja": gloss.get("ko_hanja") or hangul_reading(ref.name), "ko_src": gloss.get("ko_src", ""),
            "aliases": [],
        })
        self.nodes[node.id] = node
        self.index[(ref.label, ref.name)] = node.id
        return node.id


def read_entities(folder: Path, registry: Registry, errors: list[str]) -> None:
    """Read every ``entities/<label>.csv`` into closed-vocabulary nodes."""
    for path in sorted(folder.glob("*.csv")):
        rel = f"entities/{path.name}"
        label = snake_to_label(path.stem)
        ldef = registry.schema.labels.get(label)
        if ldef is None or not ldef.closed:
            errors.append(f"{rel}: {label!r} is not a closed label of the schema")
            continue
        for n, row in read_csv(path, ENTITY_COLUMNS, rel, errors):
            where = f"{rel} row {n}"
            if not row.get("key", "").isascii() or not row.get("key"):
                errors.append(f"{where} column key: key {row.get('key')!r} must be non-empty ASCII")
                continue
            aliases = _split(row.get("aliases"))
            order = row.get("order", "")
            if order and not order.isdigit():
                errors.append(f"{where} column order: {order!r} is not a whole number")
                continue
            props = {"key": row["key"], "label": label, "name": row["name"], "ko": row["ko"], "en": row["en"],
                     "aliases": aliases, "order": int(order) if order else 0,
                     "src": _split(row.get("src"))}
            registry.add(Node(f"{label}:{row['key']}", label, props), [row["name"], *aliases], where, errors)


def read_glossary(folder: Path, registry: Registry, errors: list[str]) -> None:
    """Read ``glossary/*.csv``; the first reading of a (label, name) wins, a conflicting one is an error."""
    for path in sorted(folder.glob("*.csv")):
        rel = f"glossary/{path.name}"
        for n, row in read_csv(path, GLOSSARY_COLUMNS, rel, errors):
            key = (row["label"], row["name"])
            if row["label"] not in registry.schema.labels:
                errors.append(f"{rel} row {n} column label: unknown label {row['label']!r}")
                continue
            old = registry.glossary.get(key)
            if old and old["en"] != row["en"] and row["en"]:
                old.setdefault("others", []).append(f"{rel} row {n}")
                continue
            if not old:
                registry.glossary[key] = {"ko": row.get("ko", ""), "en": row.get("en", ""), "where": f"{rel} row {n}",
                                          "ko_hanja": row.get("ko_hanja", ""), "ko_src": row.get("ko_src", "")}


def _ref(text: str, where: str, column: str, errors: list[str]) -> Ref | None:
    m = REF.match(text)
    if not m:
        errors.append(f"{where} column {column}: {text!r} must be written Label:name")
        return None
    return Ref(m.group(1), m.group(2).strip())


def _qualifiers(cell: str, registry: Registry, where: str, errors: list[str]):
    """Parse ``k=v|k=v``; a segment without '=' continues the previous value as a list."""
    pairs: list[list] = []
    for seg in (cell or "").split("|"):
        seg = seg.strip()
        if not seg:
            continue
        key, eq, value = seg.partition("=")
        if eq and QUALIFIER_KEY.fullmatch(key.strip()):
            pairs.append([key.strip(), value.strip()])
        elif pairs:
            pairs[-1][1] = f"{pairs[-1][1]}|{seg}"
        else:
            errors.append(f"{where} column qualifiers: {cell!r}: {seg!r} is not key=value (snake_case key)")
    out, nodes = [], set()
    for key, value in pairs:
        m = REF.match(value) if ":" in value else None
        if m and m.group(1) in registry.schema.labels:
            node = registry.resolve(Ref(m.group(1), m.group(2).strip()), f"{where} column qualifiers: {key}", errors)
            value = node or value
            nodes.add(key)
        out.append((key, value))
    return tuple(out), frozenset(nodes)


def _quick_node(registry: Registry, text: str) -> tuple[str, str] | None:
    """(node id, label) for a well-formed ``Label:name`` that resolves; None sends the row to full validation."""
    label, sep, name = text.partition(":")
    found = registry.index.get((label, name)) if sep else None
    if found:
        return found, label
    ldef = registry.schema.labels.get(label)
    if ldef is None or ldef.closed or not name or name != name.strip() or not REF.match(text):
        return None
    return registry.resolve(Ref(label, name), "", []), label


def _quick_fact(row: list[str], col: dict, registry: Registry, rel: str, n: int, cites: dict,
                cells: dict) -> Fact | None:
    """The fact of a row that is valid, or None when any part needs the full (error-reporting) validation."""
    rdef = registry.schema.relations.get(row[col["relation"]])
    s = _quick_node(registry, row[col["subject"]])
    o = _quick_node(registry, row[col["object"]])
    variant = row[col["variant"]] if "variant" in col else ""
    if rdef is None or s is None or o is None or variant not in VARIANTS or not rdef.allows(s[1], o[1]):
        return None
    src = row[col["src"]]
    try:
        cite = cites[src] if src in cites else cites.setdefault(src, tuple(parse_citation(p) for p in _split(src)))
    except CitationError:
        return None
    cell = row[col["qualifiers"]] if "qualifiers" in col else ""
    parsed = cells.get(cell)
    if parsed is None:
        errors: list[str] = []
        parsed = _qualifiers(cell, registry, "", errors)
        if errors:
            return None
        cells[cell] = parsed  # a valid cell always parses to the same qualifiers
    quals, node_quals = parsed
    get = lambda name: row[col[name]] if name in col else ""  # noqa: E731
    return Fact(f"{rel}#{n}", rdef.name, s[0], o[0], quals, node_quals, cite, tuple(_split(get("terms"))),
                variant, get("note"), get("item"), rel, n, get("when"), get("polarity"), get("judgment")) if cite else None


def read_fact_row(row: dict, registry: Registry, rel: str, n: int, errors: list[str]) -> Fact | None:
    """Validate one fact row; append errors and return None when it is bad."""
    where = f"{rel} row {n}"
    before = len(errors)
    rdef = registry.schema.relations.get(row.get("relation", ""))
    if rdef is None:
        errors.append(f"{where} column relation: unknown relation type {row.get('relation')!r}")
    s_ref = _ref(row.get("subject", ""), where, "subject", errors)
    o_ref = _ref(row.get("object", ""), where, "object", errors)
    subject = registry.resolve(s_ref, f"{where} column subject", errors) if s_ref else None
    obj = registry.resolve(o_ref, f"{where} column object", errors) if o_ref else None
    if rdef and subject and obj and not rdef.allows(s_ref.label, o_ref.label):
        errors.append(f"{where} column relation: {rdef.name} does not join {s_ref.label} to {o_ref.label} "
                      f"(allowed: {'/'.join(rdef.subject)} → {'/'.join(rdef.object)})")
    quals, node_quals = _qualifiers(row.get("qualifiers", ""), registry, where, errors)
    cites = []
    for part in _split(row.get("src")) or [""]:
        try:
            cites.append(parse_citation(part))
        except CitationError as exc:
            errors.append(f"{where} column src: {exc}")
    variant = row.get("variant", "")
    if variant not in VARIANTS:
        errors.append(f"{where} column variant: {variant!r} is not one of {', '.join(sorted(v for v in VARIANTS if v))}")
    if len(errors) > before:
        return None
    return Fact(f"{rel}#{n}", rdef.name, subject, obj, quals, node_quals, tuple(cites),
                tuple(_split(row.get("terms"))), variant, row.get("note", ""), row.get("item", ""), rel, n,
                row.get("when", ""), row.get("polarity", ""), row.get("judgment", ""))


def read_facts(folder: Path, registry: Registry, errors: list[str]) -> list[Fact]:
    """Read every ``facts/**/*.csv``: a fast path for valid rows, full validation for the others."""
    facts, cites, cells = [], {}, {}
    for path in sorted(folder.rglob("*.csv")):
        rel = f"facts/{path.relative_to(folder).as_posix()}"
        table = read_table(path, rel, errors)
        if table is None or not _check_header(table[0], FACT_COLUMNS, rel, errors):
            continue
        header, rows = table
        col = {name: i for i, name in enumerate(header)}
        for n, row in rows:
            fact = _quick_fact(row, col, registry, rel, n, cites, cells)
            if fact is None:
                fact = read_fact_row(dict(zip(header, row)), registry, rel, n, errors)
            if fact:
                facts.append(fact)
    return facts


def raise_errors(errors: list[str], what: str) -> None:
    """Raise one OntologyError whose first line is the first error (file, row and column), then
    the count and the others (at most 50 shown)."""
    if errors:
        if len(errors) == 1:
            raise OntologyError(errors[0])
        shown = "\n  ".join(errors[1:50])
        more = f"\n  … and {len(errors) - 50} more" if len(errors) > 50 else ""
        raise OntologyError(f"{errors[0]}\n({len(errors)} errors in {what}; the others:)\n  {shown}{more}")
