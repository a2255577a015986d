"""Lines of code of a package folder, not counting docstrings, comments and blank lines (issue #37).

    python bench/code_lines.py [FOLDER ...]      (default: readings)

A line counts when it holds a token of code: a line holding only a comment, only part of a docstring (the
string that opens a module, class or function) or nothing is not counted. Prints each file's count and the
total.
"""

from __future__ import annotations

import ast
import io
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


def code_lines(text: str) -> int:
    """How many lines of *text* (Python source) hold code."""
    skip = docstring_lines(ast.parse(text))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in SKIP:
            lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in skip)
    return len(lines)


def count(folder: Path) -> dict[str, int]:
    """Each ``.py`` file under *folder* → its lines of code."""
    return {str(p.relative_to(ROOT)): code_lines(p.read_text()) for p in sorted(folder.rglob("*.py"))}


def main(argv: list[str]) -> int:
    total = 0
    for name in argv or ["readings"]:
        for path, n in count(ROOT / name).items():
            print(f"{n:6d}  {path}")
            total += n
    print(f"{total:6d}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
