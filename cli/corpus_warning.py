"""The warning of the commands that answer from a graph whose citations could not be checked, or that show
passages without the texts to show them from.

``build``, ``check`` and ``coverage`` refuse a corpus with a text that cannot be read (not UTF-8, a directory
where a text belongs, a FIFO or a device, too large), that lacks a text or holds an emptied one
(:func:`require_whole_corpus`); ``build`` and ``coverage`` refuse one whose texts do not hold what the tables
cite (a text cut short or edited: :func:`unheld_citations`), and ``check`` lists every such citation
(:func:`every_unheld_citation`). The embedded graph the other commands build then skips the citation check
against the texts (see ``loaders.build.graph_source``), so ``stats``, ``symbol``, ``facts``, ``path``,
``cypher``, ``export``, ``read``, ``find``, ``passage``, ``view`` and ``mcp`` say so: one line on stderr naming
the file and why (or that no corpus folder was found, or that LEISHEN_CORPUS names none), and the answer as
before. An unreadable text counts as a missing one: ``passage`` shows the other texts' passages, and one of the
unreadable text is an error saying why.
"""

from __future__ import annotations

import click

NO_CORPUS = "no corpus folder found (give --corpus DIR or set LEISHEN_CORPUS)"
NOT_CHECKED = "the citations are NOT checked against the texts (leishen check names every problem)"


def _problem(corpus=None) -> tuple[str | None, str]:
    """The first problem of the corpus at *corpus* (or the default one) found without checking a citation, and
    its kind: ``folder`` (none found, LEISHEN_CORPUS or --corpus naming no folder, no text in it), ``file`` (the
    corpus cannot be read at all), ``gap`` (a text that cannot be read, a missing or an emptied one); (None, "")
    when it reads whole."""
    from leishen.errors import CitationError
    from leishen.loaders.corpus import CorpusFolderError, load_corpus

    try:
        found = load_corpus(corpus)
    except CorpusFolderError as exc:
        return str(exc).splitlines()[0], "folder"
    except CitationError as exc:
        return str(exc).splitlines()[0], "file"
    if found is None:
        return NO_CORPUS, "folder"
    gaps = found.gaps()
    return (gaps[0], "gap") if gaps else (None, "")


def corpus_problem(corpus=None) -> str | None:
    """The first problem of the corpus at *corpus* (or the default one): none found, a damaged file, a missing
    or emptied text; None when it reads whole (its citations are not checked here: :func:`unheld_citations`)."""
    return _problem(corpus)[0]


def unheld_citations(corpus=None) -> str | None:
    """The line naming the citations the texts of the corpus at *corpus* (or the default one) do not hold (a
    text cut short or edited), None when they hold or the corpus has another problem. Known without a build
    when the checked graph is kept (in this process or the disk cache), else by building the graph, which the
    command does next anyway (``loaders.build.build_graph`` notes the failures on the corpus)."""
    from leishen.errors import CitationError
    from leishen.loaders.build import build_graph, graph_kept, graph_source
    from leishen.loaders.corpus import load_corpus

    source = graph_source(corpus)
    if source[0] is not None and not graph_kept(source):
        build_graph(corpus)
    try:
        found = load_corpus(corpus)
    except CitationError:  # a corpus that does not read is _problem's to name
        return None
    return found.unheld.get(source[2]) if found is not None else None


def corpus_warning(backend: str = "networkx", corpus=None, *, shows_passage: bool = False) -> str | None:
    """The warning line when the corpus is missing, damaged, incomplete or does not hold the citations, else
    None. On the embedded backend its citations are then unchecked (a Neo4j graph was checked by the ``build
    --backend neo4j`` that loaded it, so there only a corpus with no texts to show is said). *shows_passage*:
    the command reads a passage itself, so a corpus that cannot be read is its error, not a warning."""
    problem, kind = _problem(corpus)
    if problem is None and backend == "networkx":
        problem, kind = unheld_citations(corpus), "unheld"
    if problem is None or (backend != "networkx" and kind != "folder"):
        return None
    if shows_passage and kind in ("folder", "file"):
        return f"warning: {NO_CORPUS}: passages cannot be shown" if problem == NO_CORPUS else None
    if kind == "folder":
        return f"warning: {problem}: passages cannot be shown and the citations are NOT checked against the texts"
    return f"warning: {problem}; {NOT_CHECKED}"


def warn_damaged_corpus(backend: str = "networkx", corpus=None) -> None:
    """Print :func:`corpus_warning` on stderr, when there is one."""
    line = corpus_warning(backend, corpus)
    if line:
        click.echo(line, err=True)


def require_whole_corpus(corpus=None, who: str = "`check` and `coverage` need") -> None:
    """For ``build``, ``check`` and ``coverage``: CorpusError (exit 2, one line naming every text that cannot be
    read, is missing or emptied) when the corpus is missing, damaged, lacks a text or holds an emptied one."""
    from leishen.loaders.corpus import CorpusError, CorpusFolderError, load_corpus

    problem, kind = _problem(corpus)
    if problem is None:
        return
    if kind == "gap":  # every text that is not whole, not only the first
        try:
            problem = "; ".join(load_corpus(corpus).gaps())
        except CorpusFolderError:
            pass
    raise CorpusError(f"{problem}; {who} every text whole")


def every_unheld_citation(corpus=None) -> str | None:
    """For ``check``: every citation the texts of the corpus at *corpus* (or the default one) do not hold, the
    first line naming the corpus file(s) and the first failure (as ``build`` and ``coverage`` word it), then one
    line for each other failure; None when every citation holds or the corpus cannot be read."""
    from leishen.errors import CitationError
    from leishen.loaders.build import check_citations, read_registry
    from leishen.loaders.corpus import load_corpus

    try:
        found = load_corpus(corpus)
    except CitationError:
        return None
    if found is None or found.gaps():
        return None
    registry, rows = read_registry()
    _, errors = check_citations(registry, rows, found)
    if not errors:
        return None
    rest = f"\n(the other {len(errors) - 1}:)\n  " + "\n  ".join(errors[1:]) if len(errors) > 1 else ""
    return found.unheld_line(errors) + rest


def require_held_citations(corpus=None, who: str = "`coverage` needs") -> None:
    """For ``build`` and ``coverage``: CorpusError (exit 2, one line naming the corpus file and the first
    failure) when the texts do not hold every citation (a text cut short or edited)."""
    from leishen.loaders.corpus import CorpusError

    problem = unheld_citations(corpus)
    if problem is not None:
        raise CorpusError(f"{problem}; {who} every citation to hold (leishen check lists them)")
