"""The warning of the graph commands that answer from a graph whose citations could not be checked.

``build`` and ``check`` refuse a damaged corpus file (not UTF-8, a directory where a text belongs); the
embedded graph the other commands build then skips the citation check against the texts (see
``loaders.build.graph_source``), so ``stats``, ``symbol``, ``facts``, ``path``, ``cypher`` and ``export``
say so: one line on stderr naming the file, and the answer as before.
"""

from __future__ import annotations

import click


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
    """On the embedded backend, one stderr line when the corpus is damaged: the citations are unchecked."""
    if backend != "networkx":
        return  # a Neo4j graph was checked by the `build --backend neo4j` that loaded it
    problem = damaged_corpus(corpus)
    if problem:
        click.echo(f"warning: {problem}; the citations are NOT checked against the texts "
                   "(leishen check names every problem)", err=True)
