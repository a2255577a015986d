"""leishen.viz — interactive graph pages (pyvis, fully offline) and the static web page at ``/``.

Every page builder returns one self-contained HTML string that loads nothing from the network:

- :func:`symbol_page` — a symbol's neighbourhood (``leishen view SYMBOL``, ``/views/symbol/{name}``)
- :func:`reading_page` — a reading's subgraph (``leishen view --reading``, ``/views/reading``)
- :func:`schema_page` — labels and relation types with counts (``leishen view --schema``, ``/views/schema``)
- :func:`web_root` — the folder of the static web page the API serves at ``/``
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from leishen.viz.offline import VizError
from leishen.viz.reading import reading_page
from leishen.viz.schema import schema_page
from leishen.viz.symbol import symbol_page

__all__ = ["VizError", "reading_page", "schema_page", "symbol_page", "web_root"]


def web_root() -> Path:
    """The folder holding ``index.html``, ``app.js`` and ``style.css`` of the page at ``/``."""
    return Path(str(resources.files("leishen.web")))
