"""Exceptions of leishen.

LeishenError
├── OntologyError        a bad schema, entity or fact row (names file, row, column, value)
│   └── UnknownSymbolError   a name that resolves to no node (carries close matches)
├── CitationError        a src that names no passage, or a passage lacking the fact's terms
├── ChartError           a chart that cannot be computed or a hand-typed chart that is invalid
│   └── MomentError          a moment that is naive, malformed or out of range
└── BackendError         a backend that is unknown, unreachable or refuses
    └── BackendUnavailable   e.g. Neo4j not reachable, or the [neo4j] extra not installed

Every message says what is wrong, what was found and, where it helps, how to fix it.
The CLI turns any LeishenError into a one-line message and exit code 2.
"""

from __future__ import annotations


class LeishenError(Exception):
    """Base class of every error leishen raises on purpose."""


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


class BackendError(LeishenError):
    """A graph backend is unknown, unreachable or refused the request."""


class BackendUnavailable(BackendError):
    """A backend cannot be used here (server down, extra not installed)."""


class CypherRefused(BackendError):
    """An ad-hoc Cypher query (or its options) refused before it ran: a write or an administration command, a
    procedure outside the whitelist, a query too large or nested too deep, a bad ``timeout``/``limit``, or
    a form the embedded engine would answer wrongly. The message is one line giving the reason."""


class CypherTimeout(BackendError):
    """An ad-hoc Cypher query that ran longer than its time limit and was stopped."""
