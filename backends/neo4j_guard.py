"""The read-only guard of ad-hoc Cypher on Neo4j: what the text may hold and what its EXPLAIN plan may do."""

from __future__ import annotations

import re

from leishen.errors import BackendError

MAX_HOPS = 10
ALLOWED_PROCEDURES = frozenset({
    "db.labels", "db.relationshiptypes", "db.propertykeys",
    "db.schema.visualization", "db.schema.nodetypeproperties", "db.schema.reltypeproperties",
})

_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)
_CALL = re.compile(r"(?<![\w.$])CALL\s+([A-Za-z_][\w.]*)", re.IGNORECASE)


def strip_literals(text: str) -> str:
    """The query with strings, backtick names and comments blanked out (keywords inside them don't count)."""
    return _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group(0)), text)


def check_read_only_text(text: str) -> None:
    """Refuse what the plan check cannot see or what must never run: LOAD CSV, procedures, several statements."""
    bare = strip_literals(text)
    if not bare.strip():
        raise BackendError("the query is empty")
    if re.search(r"\bLOAD\s+CSV\b", bare, re.IGNORECASE):
        raise BackendError("LOAD CSV is not allowed (it reads files and URLs)")
    if re.match(r"\s*(EXPLAIN|PROFILE)\b", bare, re.IGNORECASE):
        raise BackendError("EXPLAIN/PROFILE are added by leishen itself; give the bare query")
    if ";" in bare.strip().rstrip(";"):
        raise BackendError("one statement at a time (found ';')")
    for name in _CALL.findall(bare):
        if name.lower() not in ALLOWED_PROCEDURES:
            raise BackendError(f"CALL {name} is not allowed; allowed procedures: {', '.join(sorted(ALLOWED_PROCEDURES))}")


_VAR_LENGTH = re.compile(r"\*\s*(\d*)\s*(\.\.\s*(\d*))?\s*\]")
_QUANTIFIER = re.compile(r"\{\s*(\d+)\s*,\s*(\d*|\*)\s*\}")


def _unbounded(details: str) -> str | None:
    """Why a plan operator's details describe an unbounded (or too long) variable-length pattern, else None."""
    for low, dots, high in _VAR_LENGTH.findall(details):
        upper = high if dots else low
        if not upper:
            return "a variable-length relationship without an upper bound"
        if int(upper) > MAX_HOPS:
            return f"a variable-length relationship of up to {upper} hops"
    for _, high in _QUANTIFIER.findall(details):
        if high in ("", "*"):
            return "a quantified path pattern without an upper bound"
        if int(high) > MAX_HOPS:
            return f"a quantified path pattern of up to {high} hops"
    return None


def check_plan(plan: dict) -> None:
    """Walk an EXPLAIN plan: refuse LOAD CSV, non-whitelisted procedures and unbounded variable-length scans."""
    operator = plan.get("operatorType", "").split("@")[0]
    details = str((plan.get("args") or plan.get("arguments") or {}).get("Details", ""))
    if operator.startswith("LoadCSV"):
        raise BackendError("LOAD CSV is not allowed (it reads files and URLs)")
    if operator.startswith("ProcedureCall"):
        procedure = details.split("(", 1)[0].strip()
        if procedure.lower() not in ALLOWED_PROCEDURES:
            raise BackendError(f"CALL {procedure} is not allowed")
    if any(word in operator for word in ("VarLength", "ShortestPath", "Repeat", "Trail")):
        reason = _unbounded(details.replace("`", ""))
        if reason:
            raise BackendError(f"refused: {reason} ({details.strip()}); bound it, e.g. [*..{min(6, MAX_HOPS)}] "
                               f"(at most {MAX_HOPS} hops)")
    for child in plan.get("children", []):
        check_plan(child)
