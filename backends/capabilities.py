"""What a backend declares it can do, as a Protocol: a reader reads these attributes, it never probes for them.

A backend (NetworkX, Neo4j, or one passed in by a caller) answers the named queries of
:mod:`leishen.queries.catalog` (``run``) and declares:

- ``keeps_answers``: its answers to a ground check never change under a reader (the embedded graph, built from
  the tables the reader was built from), so a reader keeps them across readings by default; a server's graph
  can be reloaded under it, so each reading asks the server;
- ``concurrent_reads``: named queries may be asked from several threads at once (a read session per thread),
  so a reading asks its relation queries from a worker thread beside ``rule_checks``;
- ``checks_load``: it can say whether its graph was loaded from the reader's tables (``check_loaded_from``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from leishen.errors import BackendError


@runtime_checkable
class Backend(Protocol):
    name: str
    keeps_answers: bool
    concurrent_reads: bool
    checks_load: bool

    def run(self, name: str, **params) -> list[dict]:
        """The rows of a named query."""


def declared(backend) -> Backend:
    """*backend*, when it declares every capability of :class:`Backend`; else BackendError naming what it lacks."""
    if not isinstance(backend, Backend):
        missing = [a for a in ("name", "keeps_answers", "concurrent_reads", "checks_load", "run")
                   if a not in dir(backend)]
        raise BackendError(f"backend: {type(backend).__name__} does not declare {', '.join(missing)} "
                           "(see leishen.backends.capabilities.Backend)")
    return backend
