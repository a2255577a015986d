"""Lines of code of package folders, files or functions, not counting docstrings, comments and blank lines
(issue #37), each beside its physical lines.

    python bench/code_lines.py [WHAT ...]      (default: readings)

WHAT is a folder (every ``.py`` under it), a file, or ``FILE::NAME`` (one top-level function or class of the
file, its decorators included), each optionally ``REV:…`` to read it as git has it at commit REV (e.g.
``08b3926^:judgments/choose.py``). A line counts when it holds a token of code: a line holding only a comment,
only part of a docstring (the string that opens a module, class or function) or nothing is not counted. Prints
each one's code lines and physical lines, and the totals.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER,
        tokenize.ENCODING}


def docstring_lines(tree: ast.AST) -> set[int]:
    """The line numbers the docstrings of *tree* (module, classes, functions) stand on."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(text: str, span: range | None = None) -> int:
    """How many lines of *text* (Python source), or of its lines in *span*, hold code."""
    skip = docstring_lines(ast.parse(text))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in SKIP:
            lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in skip)
    return len(lines if span is None else lines & set(span))


def read(rev: str, path: str) -> str:
    """The text of *path* (from the repository's root) in the work tree, or at commit *rev*."""
    if not rev:
        return (ROOT / path).read_text()
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def count(what: str) -> dict[str, tuple[int, int]]:
    """Each Python file, or the one function or class, *what* names (see the module) → (code lines, lines)."""
    where, _, name = what.partition("::")
    rev, _, path = where.rpartition(":")
    if name:
        text = read(rev, path)
        node = next(n for n in ast.parse(text).body if getattr(n, "name", None) == name)
        span = range(min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno + 1)
        return {what: (code_lines(text, span), len(span))}
    if rev:
        paths = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, path], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.split()
    else:
        paths = [str(p.relative_to(ROOT)) for p in sorted((ROOT / path).rglob("*.py"))] \
            if (ROOT / path).is_dir() else [path]
    texts = {f"{rev}:{p}" if rev else p: read(rev, p) for p in paths if p.endswith(".py")}
    return {p: (code_lines(text), len(text.splitlines())) for p, text in texts.items()}


def main(argv: list[str]) -> int:
    total = [0, 0]
    print("  code  lines")
    for what in argv or ["readings"]:
        for path, (code, lines) in count(what).items():
            print(f"{code:6d} {lines:6d}  {path}")
            total = [total[0] + code, total[1] + lines]
    print(f"{total[0]:6d} {total[1]:6d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
