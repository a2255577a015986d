"""Exceptions of leishen.

LeishenError
├── OntologyError        a bad schema, entity or fact row (names file, row, column, value)
│   └── UnknownSymbolError   a name that resolves to no node (carries close matches)
├── CitationError        a src that names no passage, or a passage lacking the fact's terms
├── ChartError           a chart that cannot be computed or a hand-typed chart that is invalid
│   └── MomentError          a moment that is naive, malformed or out of range
├── FindError            a find request that cannot run (unknown rule, bad range or step; names the field)
├── SettingError         a LEISHEN_* environment value not of its kind or range (names the variable)
└── BackendError         a backend that is unknown, unreachable or refuses
    ├── BackendUnavailable   e.g. Neo4j not reachable, or the [neo4j] extra not installed
    ├── Busy                 as much work of a kind in flight as this process takes (retry after a while)
    └── AnswerTooLarge       an answer past the row or byte bound (names the bound)

Every message says what is wrong, what was found and, where it helps, how to fix it.
The CLI turns any LeishenError into a one-line message and exit code 2.

A message never repeats a large input whole (:func:`capped`, applied by every LeishenError): a word of more
than ``MAX_ECHOED_WORD`` characters keeps its head and tail, a line of more than ``MAX_MESSAGE`` characters
keeps its beginning (what was wrong, the field) and its end (the hint), each cut saying how many characters
it left out, and at most ``MAX_LINES`` lines are kept. A 1 MB moment gives an error line of a few hundred
characters, not of 1 MB.
"""

from __future__ import annotations

import re

MAX_ECHOED_WORD = 200
MAX_MESSAGE = 1_000
MAX_LINES = 100
_LONG_WORD = re.compile(r"\S{%d,}" % (MAX_ECHOED_WORD + 1))


def _cut(text: str, head: int, tail: int) -> str:
    """*text* with its middle replaced by a note of how many characters were left out."""
    return f"{text[:head]}…[{len(text) - head - tail:,} characters left out]…{text[len(text) - tail:]}"


def capped(message: str) -> str:
    """The message with every word longer than MAX_ECHOED_WORD shortened to its head and tail, then each line
    cut to at most about MAX_MESSAGE characters (beginning and end kept), and at most MAX_LINES lines kept (a
    report of many errors, one a line, keeps its first ones). Short messages are unchanged."""
    if len(message) <= MAX_ECHOED_WORD:
        return message
    lines = [_capped_line(line) for line in message.split("\n")]
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES - 1], f"…[{len(lines) - MAX_LINES + 1:,} more lines left out]"]
    return "\n".join(lines)


def _capped_line(line: str) -> str:
    """One line of a message: long words shortened, the line cut to about MAX_MESSAGE characters."""
    line = _LONG_WORD.sub(lambda m: _cut(m.group(0), 100, 40), line)
    return _cut(line, 600, 300) if len(line) > MAX_MESSAGE else line


class LeishenError(Exception):
    """Base class of every error leishen raises on purpose; its message is :func:`capped`."""

    def __init__(self, *args):
        if args and isinstance(args[0], str):
            args = (capped(args[0]), *args[1:])
        super().__init__(*args)


class OntologyError(LeishenError):
    """A schema, entity or fact file is malformed; the message names file and row."""


class UnknownSymbolError(OntologyError):
    """A name resolves to no node; ``matches`` holds close candidates."""

    def __init__(self, message: str, matches: list[str] | None = None):
        super().__init__(message)
        self.matches = matches or []


class AmbiguousSymbolError(OntologyError):
    """A name resolves to several nodes (e.g. 白虎 is a General and a Deity)."""

    def __init__(self, message: str, matches: list[str]):
        super().__init__(message)
        self.matches = matches


class CitationError(LeishenError):
    """A src that names no passage, or whose passage lacks the fact's terms."""


class ChartError(LeishenError):
    """A chart cannot be computed, or a hand-typed chart is invalid (names the field)."""


class MomentError(ChartError):
    """A moment that is naive, malformed or outside the supported range."""


class FindError(LeishenError):
    """A find request that cannot run (unknown rule, bad range or step); ``field`` names the part at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class BackendError(LeishenError):
    """A graph backend is unknown, unreachable or refused the request."""


class BackendUnavailable(BackendError):
    """A backend cannot be used here (server down, extra not installed)."""


class CypherRefused(BackendError):
    """An ad-hoc Cypher query (or its options) refused before it ran: a write or an administration command, a
    procedure outside the whitelist, a query too large or nested too deep, a bad ``timeout``/``limit``, or
    a form the embedded engine would answer wrongly. The message is one line giving the reason."""


class CypherTimeout(BackendError):
    """An ad-hoc Cypher query that ran longer than its time limit and was stopped, or was given up at it:
    ``still_running`` is then the Future of the query the server is still finishing (done when it has)."""

    def __init__(self, message: str, still_running=None):
        super().__init__(message)
        self.still_running = still_running


class Busy(BackendError):
    """As many requests of a kind are running in this process as it takes at once; ``retry_after`` is the number
    of seconds after which trying again makes sense (HTTP 429 with ``Retry-After``)."""

    def __init__(self, message: str, retry_after: int = 1):
        super().__init__(message)
        self.retry_after = retry_after


class SettingError(LeishenError):
    """An environment setting (``LEISHEN_*``) whose value is not of its kind or outside its range; ``variable``
    names it. The CLI exits 2 on it, a server refuses to start."""

    def __init__(self, message: str, variable: str | None = None):
        super().__init__(message)
        self.variable = variable
        self.field = variable


class AnswerTooLarge(BackendError):
    """An answer with more rows or bytes than the bound it names (``LEISHEN_MAX_ANSWER_ROWS`` / ``_BYTES``, or
    the query's own size limits); refused whole rather than sent in part (HTTP 413)."""
