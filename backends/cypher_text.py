"""The text checks both Cypher guards share: size and nesting bounds, literals blanked out, keyword words.

A query is first bounded (bytes, nesting depth, boolean operators) so that no later step — a regular expression here, the
planner behind ``EXPLAIN`` on Neo4j, grand-cypher's parser — can spend minutes on it. Then its string
literals, backtick names and comments are blanked (same length, same offsets), so that keywords inside them
never count and never cause a refusal; only what is left is code. Code must be ASCII: a look-alike letter
(Cyrillic ``С``, fullwidth ``ＣＲＥＡＴＥ``) or an invisible space outside a string is refused instead of
being guessed at.
"""

from __future__ import annotations

import re

from leishen.errors import CypherRefused

MAX_QUERY_BYTES = 20_000
MAX_NESTING = 40
# Neo4j's planner is super-linear; measured EXPLAIN times on the project machine: 400 ANDs 1.5 s, 1,200 ORs 5.5 s,
# a path of 15 hops 5 s (30 hops 15 s), 30 OPTIONAL MATCH 7 s, 1,000 additions 1.7 s
MAX_BOOLEAN_OPERATORS = 200
MAX_PATTERN_HOPS = 12
MAX_MATCH_CLAUSES = 12
MAX_ARITHMETIC = 300
# 500 UNIONs nested the EXPLAIN plan 500 deep (the plan check recursed past Python's limit: a 500); 100 plan at once
MAX_UNIONS = 100
# a parameter or a result value nested deeper is refused: 500 levels recursed past Python's limit (a 500) in
# converting the result; 64 is far more than a graph's values need
MAX_VALUE_DEPTH = 64
_HOP = re.compile(r"\)\s*<?-")
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)
_OPENERS, _CLOSERS = "([{", ")]}"
# a bare word: not a property (n.set), a parameter ($start), a label or type (:Create), or a map key (set: 1)
_WORD = re.compile(r"(?<![\w.$:])(" + NAME + r")(?!\w)(?!\s*:(?!:))")


def check_size(text: str, max_bytes: int = MAX_QUERY_BYTES) -> None:
    """Refuse a query that is not a string, is empty, or is longer than ``max_bytes`` bytes of UTF-8."""
    if not isinstance(text, str):
        raise CypherRefused(f"the query must be a string, not {type(text).__name__}")
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > max_bytes:
        raise CypherRefused(f"the query is {size:,} bytes; at most {max_bytes:,} are accepted")
    if not text.strip():
        raise CypherRefused("the query is empty")


def blank_literals(text: str) -> str:
    """The query with strings, backtick names and comments replaced by spaces (same length, same offsets)."""
    return _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group(0)), text)


def check_code(bare: str, max_depth: int = MAX_NESTING) -> None:
    """Refuse code (the blanked query) with characters outside ASCII, unbalanced brackets or deep nesting."""
    for offset, char in enumerate(bare):
        if ord(char) > 126 or (ord(char) < 32 and char not in "\t\n\r"):
            raise CypherRefused(f"character {char!r} (U+{ord(char):04X}) at offset {offset} is outside ASCII; "
                                "non-ASCII text belongs in a string literal or a `backtick` name")
    depth = 0
    for offset, char in enumerate(bare):
        if char in _OPENERS:
            depth += 1
            if depth > max_depth:
                raise CypherRefused(f"brackets are nested more than {max_depth} deep (offset {offset})")
        elif char in _CLOSERS:
            depth -= 1
            if depth < 0:
                raise CypherRefused(f"unbalanced {char!r} at offset {offset}")
    if depth:
        raise CypherRefused("unbalanced brackets (or an unterminated string or comment)")


def bare_code(text: str) -> str:
    """Bound ``text``, blank its literals, check what is left; return the blanked code."""
    check_size(text)
    bare = blank_literals(text)
    check_code(bare)
    check_complexity(bare)
    return bare


def check_complexity(bare: str) -> None:
    """Refuse code whose planning alone could take seconds: too many boolean operators, relationship hops in
    patterns, MATCH clauses, arithmetic operators or UNIONs."""
    found = words(bare)
    measures = [
        (sum(1 for w in found if w in ("AND", "OR", "XOR", "NOT")), MAX_BOOLEAN_OPERATORS, "boolean operators",
         "use IN [...] with a list, or a parameter"),
        (len(_HOP.findall(bare)), MAX_PATTERN_HOPS, "relationship hops in its patterns", "use a bounded [*..n]"),
        (found.count("MATCH"), MAX_MATCH_CLAUSES, "MATCH clauses", "combine them"),
        (sum(bare.count(c) for c in "+*/%^"), MAX_ARITHMETIC, "arithmetic operators", "use a list function"),
        (found.count("UNION"), MAX_UNIONS, "UNIONs", "use UNWIND over a list, or IN [...]"),
    ]
    for count, most, what, hint in measures:
        if count > most:
            raise CypherRefused(f"the query has {count} {what}; at most {most} are accepted ({hint})")


def value_depth(value) -> int:
    """How deep lists and maps nest in a JSON-like value (a scalar is 0, ``[1]`` is 1), counted with a stack."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def words(bare: str) -> list[str]:
    """The bare words of blanked code, upper-cased (keywords, function names, variables), in order."""
    return [m.group(1).upper() for m in _WORD.finditer(bare)]


# clauses that write, in Neo4j 5 (INSERT is GQL's CREATE; NODETACH DELETE; CALL { … } IN TRANSACTIONS)
WRITE_WORDS = frozenset({"CREATE", "MERGE", "SET", "DELETE", "DETACH", "NODETACH", "REMOVE", "FOREACH", "INSERT",
                         "TRANSACTIONS"})
# administration and everything that reaches past the graph: files, other databases, the planner
ADMIN_WORDS = frozenset({"SHOW", "TERMINATE", "ALTER", "DROP", "GRANT", "DENY", "REVOKE", "RENAME", "USE", "LOAD",
                         "DEALLOCATE", "REALLOCATE", "ENABLE", "DRYRUN", "EXPLAIN", "PROFILE", "CYPHER", "PERIODIC"})
_SCHEMA_OBJECTS = frozenset({"DATABASE", "DATABASES", "USER", "USERS", "ROLE", "ROLES", "INDEX", "INDEXES", "CONSTRAINT",
                             "CONSTRAINTS", "ALIAS", "SERVER", "COMPOSITE", "OR", "TEXT", "RANGE", "POINT", "LOOKUP",
                             "FULLTEXT", "VECTOR", "BTREE"})


def refuse_writes_and_commands(found: list[str]) -> None:
    """Refuse code whose bare words (upper-cased, in order) hold a write clause or an administration command."""
    if found and found[0] in ("START", "STOP"):
        raise CypherRefused(f"{found[0]} is an administration command; only read queries are allowed")
    for word, following in zip(found, [*found[1:], ""]):
        if word in ("CREATE", "DROP") and following in _SCHEMA_OBJECTS:
            raise CypherRefused(f"{word} {following} is an administration command; only read queries are allowed")
        if word in WRITE_WORDS:
            what = "CALL { … } IN TRANSACTIONS" if word == "TRANSACTIONS" else word
            raise CypherRefused(f"only read queries are allowed; {what} writes")
        if word == "LOAD":
            raise CypherRefused("LOAD CSV is not allowed (it reads files and URLs)")
        if word in ADMIN_WORDS:
            raise CypherRefused(f"{word} is not allowed; only read queries are allowed")
