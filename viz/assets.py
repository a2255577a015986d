"""The static assets the API serves once, with cache headers, instead of inlining them in every page.

- vis-network (pyvis's own copy, 9.1.2): a ``leishen view`` file inlines it (the file must open offline on
  its own); a page the API serves references :func:`vis_url` instead, so a browser downloads it once.
- ReDoc's standalone bundle, with its one remote image (the Redocly logo on cdn.redoc.ly) pointed at a
  local SVG, so /redoc fetches nothing from another host.

Each asset's URL carries a digest of its bytes: a new version is a new URL, so the answer can be cached
for a year (``immutable``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import pyvis

VIS_FILE = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2" / "vis-network.min.js"
REDOC_LOGO_REMOTE = "https://cdn.redoc.ly/redoc/logo-mini.svg"
#: a plain local mark in place of the remote Redocly logo (the page's "API docs by Redocly" link stays)
REDOC_LOGO = (b'<svg xmlns="http://www.w3.org/2000/svg" width="48" height="16" viewBox="0 0 48 16">'
              b'<rect width="48" height="16" rx="3" fill="#32329f"/><text x="24" y="12" font-size="10" '
              b'font-family="sans-serif" fill="#fff" text-anchor="middle">ReDoc</text></svg>')
#: a year, and never revalidated: the URL changes with the bytes
CACHE_FOREVER = "public, max-age=31536000, immutable"


@lru_cache(maxsize=1)
def vis_text() -> str:
    """vis-network as pyvis inlines it (the text :func:`with_vis_asset` looks for in a page)."""
    return VIS_FILE.read_text(encoding="utf-8")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


@lru_cache(maxsize=1)
def vis_bytes() -> bytes:
    """vis-network as served: without its sourceMappingURL line (there is no map to fetch). Split on "\\n"
    only: the bundle holds U+2028 and other characters str.splitlines breaks at inside its string literals."""
    lines = [line for line in vis_text().split("\n") if not line.startswith("//# sourceMappingURL=")]
    return "\n".join(lines).encode("utf-8")


def vis_url() -> str:
    """The versioned URL of vis-network under the API."""
    return f"/assets/vis-network-{_digest(vis_bytes())}.min.js"


@lru_cache(maxsize=1)
def redoc_bytes() -> bytes:
    """ReDoc's standalone bundle (fastapi-offline's copy) with the logo URL made local."""
    import fastapi_offline
    path = Path(fastapi_offline.__file__).parent / "static" / "redoc.standalone.js"
    return path.read_text(encoding="utf-8").replace(REDOC_LOGO_REMOTE, "/assets/redoc-logo.svg").encode("utf-8")


def redoc_url() -> str:
    """The versioned URL of the ReDoc bundle under the API."""
    return f"/assets/redoc-{_digest(redoc_bytes())}.standalone.js"


def assets() -> dict[str, tuple[bytes, str]]:
    """Every asset by its URL: (bytes, media type)."""
    return {vis_url(): (vis_bytes(), "text/javascript; charset=utf-8"),
            redoc_url(): (redoc_bytes(), "text/javascript; charset=utf-8"),
            "/assets/redoc-logo.svg": (REDOC_LOGO, "image/svg+xml")}


def with_vis_asset(page: str, url: str | None = None) -> str:
    """*page* with its inlined vis-network replaced by one ``<script src>`` of the served asset."""
    inline = f"<script>{vis_text()}</script>"
    if inline not in page:
        return page
    return page.replace(inline, f'<script src="{url or vis_url()}"></script>', 1)
