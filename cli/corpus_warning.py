"""The warning of the commands that answer from a graph whose citations could not be checked, or that show
passages without the texts to show them from.

``build`` and ``check`` refuse a damaged corpus file (not UTF-8, a directory where a text belongs, a FIFO or a
device, too large); ``check`` and ``coverage`` also refuse a corpus that lacks a text or holds an emptied one
(:func:`require_whole_corpus`). The embedded graph the other commands build then skips the citation check
against the texts (see ``loaders.build.graph_source``), so ``stats``, ``symbol``, ``facts``, ``path``,
``cypher``, ``export``, ``read``, ``find``, ``passage`` and ``view`` say so: one line on stderr naming the
file (or that no corpus folder was found), and the answer as before.
"""

from __future__ import annotations

import click

NO_CORPUS = "no corpus folder found (give --corpus DIR or set LEISHEN_CORPUS)"


def corpus_problem(corpus=None) -> str | None:
    """The first problem of the corpus at *corpus* (or the default one): none found, a damaged file, a missing
    or emptied text; None when it reads whole."""
    from leishen.errors import CitationError
    from leishen.loaders.corpus import load_corpus

    try:
        found = load_corpus(corpus)
    except CitationError as exc:
        return str(exc).splitlines()[0]
    if found is None:
        return NO_CORPUS
    gaps = found.gaps()
    return gaps[0] if gaps else None


def damaged_corpus(corpus=None) -> str | None:
    """The first line of the error of the corpus at *corpus* (or the default one) when a file of it is
    damaged; None when it reads (or when there is none)."""
    from leishen.loaders.corpus import CorpusError, load_corpus

    try:
        load_corpus(corpus)
    except CorpusError as exc:
        return str(exc).splitlines()[0]
    return None


def warn_damaged_corpus(backend: str = "networkx", corpus=None) -> None:
    """One stderr line when the corpus is missing, damaged or incomplete: on the embedded backend its citations
    are then unchecked (a Neo4j graph was checked by the ``build --backend neo4j`` that loaded it, so there only
    a missing corpus is said: its passages cannot be shown)."""
    problem = corpus_problem(corpus)
    if problem is None or (backend != "networkx" and problem != NO_CORPUS):
        return
    if problem == NO_CORPUS:
        click.echo(f"warning: {problem}: passages cannot be shown and the citations are NOT checked "
                   "against the texts", err=True)
        return
    click.echo(f"warning: {problem}; the citations are NOT checked against the texts "
               "(leishen check names every problem)", err=True)


def require_whole_corpus(corpus=None) -> None:
    """For ``check`` and ``coverage``: CorpusError (exit 2, one line) when the corpus is missing, damaged, lacks
    a text or holds an emptied one."""
    from leishen.loaders.corpus import CorpusError

    problem = corpus_problem(corpus)
    if problem is not None:
        raise CorpusError(f"{problem}; `check` and `coverage` need every text whole")


def warn_no_corpus(corpus=None) -> None:
    """One stderr line when no corpus folder is found (``passage``: a damaged one is its error already)."""
    if corpus_problem(corpus) == NO_CORPUS:
        click.echo(f"warning: {NO_CORPUS}: passages cannot be shown", err=True)
