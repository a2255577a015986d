"""The read-only guard of ad-hoc Cypher on Neo4j: what the text may hold and what its EXPLAIN plan may do.

Three layers, each enough on its own for what it covers:

1. the text (:func:`check_read_only_text`): bounded in size and nesting, ASCII outside literals, an allow-list
   of first clauses, no write clause or administration command in any case (``SHOW``, ``TERMINATE``, ``ALTER``,
   ``CREATE``/``DROP`` …, ``GRANT``/``DENY``/``REVOKE``, ``START``/``STOP``, ``USE``, ``LOAD CSV``, ``FOREACH``,
   ``CALL { … } IN TRANSACTIONS``), and ``CALL`` only of the whitelisted read procedures;
2. ``EXPLAIN`` must say query type ``r`` (read only);
3. the plan (:func:`check_plan`, every operator of it however deep): no LoadCSV operator, no procedure outside
   the whitelist, no variable-length pattern without an upper bound of at most ``MAX_HOPS``.

And the answer's size (:func:`check_records_size`, :func:`check_rows_size`): at most ``LEISHEN_MAX_ANSWER_ROWS``
rows (past them the answer is cut and says ``truncated``) and ``LEISHEN_MAX_ANSWER_BYTES`` bytes of JSON (past
them it is refused whole: :class:`~leishen.errors.AnswerTooLarge`, HTTP 413, naming the limit).
"""

from __future__ import annotations

import re

from leishen.backends.cypher_text import MAX_VALUE_DEPTH, bare_code, blank_literals, refuse_writes_and_commands, words
from leishen.errors import AnswerTooLarge, CypherRefused

MAX_HOPS = 10
ALLOWED_PROCEDURES = frozenset({
    "db.labels", "db.relationshiptypes", "db.propertykeys",
    "db.schema.visualization", "db.schema.nodetypeproperties", "db.schema.reltypeproperties",
})

FIRST_WORDS = frozenset({"MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN", "CALL"})
_CALL = re.compile(r"(?<![\w.$])CALL\b", re.IGNORECASE)
_PROCEDURE = re.compile(r"(?:`[^`]*`|[A-Za-z_][\w]*)(?:\s*\.\s*(?:`[^`]*`|[A-Za-z_][\w]*))*")


def strip_literals(text: str) -> str:
    """The query with strings, backtick names and comments blanked out (keywords inside them don't count)."""
    return blank_literals(text)


def _check_calls(text: str, bare: str) -> None:
    """Every ``CALL`` is a subquery (``CALL {`` / ``CALL (…) {``) or a whitelisted procedure."""
    for call in _CALL.finditer(bare):
        position = call.end()
        while position < len(bare) and bare[position].isspace() and not text[position] == "`":
            position += 1
        if position < len(bare) and bare[position] in "{(":
            continue
        name = _PROCEDURE.match(text, position)
        if not name or bare[name.end():].lstrip().startswith("."):
            raise CypherRefused("CALL must name a whitelisted procedure or open a subquery { … }")
        procedure = re.sub(r"[`\s]", "", name.group(0))
        if procedure.lower() not in ALLOWED_PROCEDURES:
            raise CypherRefused(f"CALL {procedure} is not allowed; allowed procedures: "
                                f"{', '.join(sorted(ALLOWED_PROCEDURES))}")


def check_read_only_text(text: str) -> None:
    """The allow-list: one statement that begins with a reading clause, no write clause, no administration
    command, no LOAD CSV, no USE, no procedure outside the whitelist — judged on the code only (strings,
    comments and backtick names blanked), after the size, nesting and ASCII bounds."""
    bare = bare_code(text)
    found = words(bare)
    refuse_writes_and_commands(found)
    if re.match(r"\s*(EXPLAIN|PROFILE)\b", bare, re.IGNORECASE):
        raise CypherRefused("EXPLAIN/PROFILE are added by leishen itself; give the bare query")
    if ";" in bare.strip().rstrip(";"):
        raise CypherRefused("one statement at a time (found ';')")
    if not found or found[0] not in FIRST_WORDS:
        first = found[0] if found else bare.strip()[:20]
        raise CypherRefused(f"a query must begin with MATCH, OPTIONAL MATCH, WITH, UNWIND, RETURN or CALL, not {first}")
    _check_calls(text, bare)


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
    """Walk an EXPLAIN plan, every operator once (with a stack, not recursion: 500 UNIONs nest the plan 500
    deep): refuse LOAD CSV, non-whitelisted procedures and unbounded variable-length scans."""
    stack = [plan]
    while stack:
        operator = stack.pop()
        check_operator(operator)
        stack.extend(operator.get("children", []))


def check_operator(plan: dict) -> None:
    """One plan operator: no LoadCSV, no procedure outside the whitelist, no unbounded variable-length pattern."""
    operator = plan.get("operatorType", "").split("@")[0]
    details = str((plan.get("args") or plan.get("arguments") or {}).get("Details", ""))
    if operator.startswith("LoadCSV"):
        raise CypherRefused("LOAD CSV is not allowed (it reads files and URLs)")
    if operator.startswith("ProcedureCall"):
        procedure = details.split("(", 1)[0].strip()
        if procedure.lower() not in ALLOWED_PROCEDURES:
            raise CypherRefused(f"CALL {procedure} is not allowed")
    if any(word in operator for word in ("VarLength", "ShortestPath", "Repeat", "Trail")):
        reason = _unbounded(details.replace("`", ""))
        if reason:
            raise CypherRefused(f"refused: {reason} ({details.strip()}); bound it, e.g. [*..{min(6, MAX_HOPS)}] "
                               f"(at most {MAX_HOPS} hops)")


# --- the size of an answer -------------------------------------------------------------------------------------

def answer_bounds() -> tuple[int, int]:
    """(most rows, most bytes of JSON) of an ad-hoc answer: ``LEISHEN_MAX_ANSWER_ROWS`` and ``_BYTES``."""
    from leishen import settings
    return settings.get("LEISHEN_MAX_ANSWER_ROWS"), settings.get("LEISHEN_MAX_ANSWER_BYTES")


def _too_large(at_least: int, most: int) -> AnswerTooLarge:
    return AnswerTooLarge(f"the answer holds at least {at_least:,} bytes of JSON, more than the {most:,} an answer "
                          "may hold (LEISHEN_MAX_ANSWER_BYTES); return fewer or smaller values (LIMIT, a slice, "
                          "count() instead of collect())")


def least_size(value, budget: int, depth: int = 0) -> int:
    """A lower bound of the JSON size of a driver *value* (a list of n values takes at least 2n bytes, a string its
    length), walked only until it passes *budget*: a list of ten million numbers is judged by its length. A value
    whose lists and maps nest more than MAX_VALUE_DEPTH deep is refused (CypherRefused), not recursed into."""
    if isinstance(value, str):
        return len(value) + 2
    if isinstance(value, (list, tuple, dict)) and depth >= MAX_VALUE_DEPTH:
        raise CypherRefused(f"a value of the result nests lists or maps more than {MAX_VALUE_DEPTH} deep; "
                            "return flatter values")
    if isinstance(value, (list, tuple)):
        total = 2 + 2 * len(value)
        for item in value:
            if total > budget:
                break
            total += least_size(item, budget - total, depth + 1) - 1
        return total
    if isinstance(value, dict):
        total = 2
        for key, item in value.items():
            if total > budget:
                break
            total += len(key) + 4 + least_size(item, budget - total, depth + 1)
        return total
    props = getattr(value, "items", None)  # a Node or a Relationship: its properties
    if callable(props):
        return least_size(dict(props()), budget, depth)
    return 1


def check_records_size(records, keys, most: int) -> None:
    """AnswerTooLarge naming LEISHEN_MAX_ANSWER_BYTES when *records* surely pass *most* bytes of JSON (judged
    before they are converted, so a 79 MB list is refused without being copied)."""
    total = 2
    for record in records:
        for key in keys:
            total += len(key) + 4 + least_size(record[key], most - total)
            if total > most:
                raise _too_large(total, most)


def check_rows_size(rows: list[dict], most: int) -> None:
    """AnswerTooLarge when the converted *rows* take more than *most* bytes of JSON (the exact size)."""
    import json
    size = len(json.dumps(rows, ensure_ascii=False).encode())
    if size > most:
        raise _too_large(size, most)
