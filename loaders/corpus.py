"""The source texts: find the corpus folder, read its passages, check citations.

The texts are never copied into the repository or the graph: a Passage node stores only its
document id and line.  The passage text is read from the corpus folder when it is available
(``--corpus``, ``LEISHEN_CORPUS``, or ``../shared/seeds`` beside a source checkout) and is kept in
memory for checking citations and for showing passages.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from leishen import settings
from leishen.errors import CitationError
from leishen.loaders.records import Citation

DOCS = ("000", "002", "003", "004")
HAN = re.compile(r"[\u3400-\u9fff]")
CITED = re.compile(r"(?<![\w/])(\d{3}):\d+")  # a doc:line citation inside an error line
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@dataclass(frozen=True)
class Corpus:
    """The four texts, as {doc: {line: paragraph}} for the Classical Chinese paragraphs only."""

    folder: Path
    passages: dict[str, dict[int, str]]
    #: the file each document was read from (or found unreadable in)
    files: dict[str, Path] = field(default_factory=dict)
    #: doc → why its file cannot be read (not UTF-8, a directory, a FIFO or a device, too large): the document
    #: counts as missing (no passage of it is shown, the graph is built unchecked) and :meth:`gaps` names it
    damaged: dict[str, str] = field(default_factory=dict)
    #: ontology folder → the line of :meth:`unheld_line`, once a graph build found citations of that ontology
    #: these texts do not hold (see ``loaders.build.build_graph``, which then builds the graph unchecked)
    unheld: dict[Path, str] = field(default_factory=dict, compare=False, repr=False)

    def gaps(self) -> list[str]:
        """What the folder lacks: a text of DOCS that cannot be read (damaged), is missing, or holds no Classical
        Chinese paragraph (emptied); one line each, naming the document or the file and why."""
        out = []
        for doc in DOCS:
            if doc in self.damaged:
                out.append(self.damaged[doc])
            elif doc not in self.passages:
                out.append(f"corpus folder {self.folder} has no text {doc} (no document '{doc}': no {doc}_*.txt)")
            elif not self.passages[doc]:
                out.append(f"corpus file {self.files.get(doc, doc)} holds no Classical Chinese paragraph "
                           f"(an emptied text?)")
        return out

    def passage(self, cite: Citation) -> str:
        """The Chinese paragraph at *cite*; CitationError if there is none (a standard table's citation of a
        work outside the seeds has none: the project keeps no text of it)."""
        if cite.standard:
            raise CitationError(f"{cite}: cites {cite.doc}, a work outside the seeds (ontology/sources.csv); "
                                f"no text of it is kept")
        if cite.doc in self.damaged:
            raise CorpusError(f"{cite}: {self.damaged[cite.doc]}; no passage of document {cite.doc} can be shown")
        lines = self.passages.get(cite.doc)
        if lines is None:
            raise CitationError(f"{cite}: no document {cite.doc!r} in {self.folder} (have {', '.join(sorted(self.passages))})")
        text = lines.get(cite.line)
        if text is None:
            raise CitationError(f"{cite}: {self._no_paragraph(cite)}")
        return text

    def _no_paragraph(self, cite: Citation) -> str:
        """Why the text of *cite*'s document has no paragraph at its line: the file is emptied, ends before the
        line, or holds something else there."""
        lines, file = self.passages[cite.doc], self.files.get(cite.doc, cite.doc)
        if not lines:
            return f"corpus file {file} holds no Classical Chinese paragraph (an emptied text?)"
        last = max(lines)
        if cite.line > last:
            return (f"line {cite.line} of document {cite.doc} is past the last Classical Chinese paragraph of "
                    f"corpus file {file} (line {last}; a text cut short?)")
        return f"line {cite.line} of document {cite.doc} is not a Classical Chinese paragraph"

    def unheld_line(self, errors: list[str]) -> str:
        """One line for citations these texts do not hold (*errors*, as ``check_citations`` words them): the
        corpus file(s) of the passages they cite, how many, and the first error (file, row, column, passage)."""
        docs = sorted({m.group(1) for e in errors for m in CITED.finditer(e)} & set(self.files))
        files = ", ".join(str(self.files[d]) for d in docs) or str(self.folder)
        many = len(errors) != 1
        return (f"{len(errors)} citation{'s' if many else ''} {'do' if many else 'does'} not hold against corpus "
                f"file{'s' if len(docs) > 1 else ''} {files} (a text cut short or edited, or a table row citing "
                f"wrongly); the first: {errors[0]}")

    def note_unheld(self, ontology: Path, errors: list[str]) -> None:
        """Remember that these texts do not hold *errors*, citations of the tables of *ontology* (a graph of
        them is then built unchecked)."""
        self.unheld[ontology] = self.unheld_line(errors)


def default_corpus_dir() -> Path | None:
    """``$LEISHEN_CORPUS``, else ``../shared/seeds`` beside the source checkout, else None."""
    env = settings.get("LEISHEN_CORPUS")
    if env:
        return env
    guess = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
    return guess if guess.is_dir() else None


class CorpusError(CitationError):
    """A corpus file that cannot be read (not UTF-8, a directory …): blocks only what needs the texts."""


class CorpusFolderError(CorpusError):
    """A corpus folder that is not there, not a folder, or holds none of the texts: no passage can be shown."""


class UnheldCitations(CitationError):
    """Citations the texts of *corpus* do not hold (*errors*): ``build_graph`` notes them on the corpus
    (:meth:`Corpus.note_unheld`) and builds the graph unchecked."""

    def __init__(self, corpus: Corpus, errors: list[str]):
        super().__init__(corpus.unheld_line(errors))
        self.corpus, self.errors = corpus, errors


def _not_a_folder(folder: Path) -> str:
    """How *folder* (not a folder) fails: not there, or something else (a file, a FIFO, a device)."""
    return "is not a folder" if os.path.lexists(folder) else "does not exist"


def read_limited(path: Path, limit: int, setting: str) -> bytes:
    """The bytes of *path* when it is a regular file (a link followed) of at most *limit* bytes
    (:func:`leishen.loaders.regular.read_regular`: a FIFO, a device or a folder is never opened); CorpusError
    naming the file otherwise."""
    from leishen.loaders.regular import NotRegular, read_regular
    try:
        return read_regular(path, limit)
    except NotRegular as exc:
        words = {"directory": "is a directory where a text file belongs",
                 "large": f"is larger than {limit:,} bytes (raise {setting} if it is a text)"}.get(exc.kind, str(exc))
        raise CorpusError(f"corpus file {path} {words}") from None


def _read_doc(path: Path) -> dict[int, str]:
    """The Classical Chinese paragraphs of one text by line; CorpusError naming the file and byte offset."""
    raw = read_limited(path, settings.get("LEISHEN_CORPUS_MAX_BYTES"), "LEISHEN_CORPUS_MAX_BYTES")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise CorpusError(f"corpus file {path} is not UTF-8: byte 0x{raw[exc.start]:02x} at byte offset {exc.start} "
                          f"(line {line}): a text that cannot be decoded is unreadable as a whole") from None
    out = {}
    for number, line in enumerate(text.splitlines(), 1):
        if HAN.search(line) and not HANGUL.search(line):
            out[number] = line
    return out


@cache
def read_corpus(folder: Path) -> Corpus:
    """Read the texts of *folder* (files named ``<doc>_*.txt``); CorpusFolderError when it is no folder or holds
    none of them. A text that cannot be read (not UTF-8, a directory, a FIFO or a device, too large) counts as
    missing: it is kept in ``Corpus.damaged`` with the line saying why (what needs every text refuses it)."""
    if not folder.is_dir():
        raise CorpusFolderError(f"corpus folder {folder} {_not_a_folder(folder)} "
                                f"(give --corpus DIR or set LEISHEN_CORPUS)")
    passages, files, damaged = {}, {}, {}
    for doc in DOCS:
        found = sorted(folder.glob(f"{doc}_*.txt"))
        if found:
            files[doc] = found[0]
            try:
                passages[doc] = _read_doc(found[0])
            except CorpusError as exc:
                damaged[doc] = str(exc)
    if not files:
        raise CorpusFolderError(f"corpus folder {folder} holds none of the texts {', '.join(DOCS)} (<doc>_*.txt)")
    return Corpus(folder, passages, files, damaged)


def load_corpus(folder: str | Path | None = None) -> Corpus | None:
    """The corpus at *folder*, or the default one, or None when none can be found (CorpusFolderError naming
    LEISHEN_CORPUS when it names no folder)."""
    if folder is not None:
        return read_corpus(Path(folder).resolve())
    found = default_corpus_dir()
    if found is not None and settings.get("LEISHEN_CORPUS") == found and not found.is_dir():
        raise CorpusFolderError(f"corpus folder {found} (LEISHEN_CORPUS) {_not_a_folder(found)}")
    return read_corpus(found.resolve()) if found else None


def parse_citation(text: str) -> Citation:
    """``'000:37'`` → Citation('000', 37); a standard table's ``'XJBF:卷二十七·月表八'`` (a work of
    ontology/sources.csv and a section of it, :mod:`leishen.loaders.sources`) → Citation('XJBF', 0,
    '卷二十七·月表八'); CitationError for anything else."""
    doc, sep, line = text.strip().partition(":")
    if sep and doc not in DOCS and doc.isascii() and doc.isupper() and line:
        from leishen.loaders.sources import source_problem
        problem = source_problem(doc, line)
        if problem:
            raise CitationError(f"src {text!r}: {problem}")
        return Citation(doc, 0, line)
    if not sep or doc not in DOCS or not line.isdigit() or int(line) < 1:
        raise CitationError(f"src must look like '000:37' (document {'/'.join(DOCS)} and line) or 'XJBF:卷五·…' "
                            f"(a work of ontology/sources.csv and its section), got {text!r}")
    return Citation(doc, int(line))
