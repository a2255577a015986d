"""uvicorn's httptools protocol with the limits of :mod:`leishen.api.protocol`: URLs read up to MAX_URL_BYTES
(a long one parsed here, past what ``httptools.parse_url`` takes), headers up to MAX_HEADER_BYTES, and every
refusal answered in the API's JSON shape. Imported only where httptools is installed."""

from __future__ import annotations

from urllib.parse import unquote

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as UvicornHttpTools

from leishen.api.protocol import JsonRefusals, headers_too_large, url_too_long
from leishen.api.settings import MAX_HEADER_BYTES, MAX_URL_BYTES

PARSE_URL_MOST = 65_535  # the longest URL ``httptools.parse_url`` takes (its offsets are 16-bit)
#: bytes of a request head besides its URL and header lines (method, version, line ends) that the streaming
#: bound allows for before it counts them as headers
HEAD_SLACK = 1024


class Refused(Exception):
    """Raised in a parser callback to stop a request past a limit (its answer is in ``refused``)."""


class HttpToolsProtocol(JsonRefusals, UvicornHttpTools):
    """uvicorn's httptools protocol, its URLs and headers bounded and its refusals answered in JSON."""

    head_bytes: int | None = 0  # bytes received of the request head being read (None while a body is)
    header_bytes = 0  # bytes of the header lines parsed so far (``name: value`` and the line end)

    def data_received(self, data: bytes) -> None:
        """Parse *data*; a head still incomplete past MAX_HEADER_BYTES (besides its URL) is refused at once, so
        that one endless header is never held whole (httptools hands a header over only once it has ended)."""
        counting = self.head_bytes is not None and self.dropped is None
        if counting:
            self.head_bytes += len(data)
        super().data_received(data)
        if (counting and self.head_bytes is not None and self.dropped is None
                and self.head_bytes - len(getattr(self, "url", b"")) > MAX_HEADER_BYTES + HEAD_SLACK):
            self.refused = headers_too_large(MAX_HEADER_BYTES)
            self.send_400_response("")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.header_bytes = 0

    def on_url(self, url: bytes) -> None:
        """Take a piece of the URL; past MAX_URL_BYTES, refuse the request (414)."""
        super().on_url(url)
        if len(self.url) > MAX_URL_BYTES:
            self.refused = url_too_long(self.url, MAX_URL_BYTES)
            raise Refused

    def on_header(self, name: bytes, value: bytes) -> None:
        """Take a header; past MAX_HEADER_BYTES of them, refuse the request (431) naming the one that passed."""
        super().on_header(name, value)
        self.header_bytes += len(name) + len(value) + 4
        if self.header_bytes > MAX_HEADER_BYTES:
            self.refused = headers_too_large(MAX_HEADER_BYTES, name)
            raise Refused

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.head_bytes = 0  # the next request's head follows

    def on_headers_complete(self) -> None:
        """Start the request, as uvicorn does. A URL longer than ``parse_url`` takes is handed to it as ``/`` and
        its path and query string are then set here, before the request's task (created, not yet run) reads its
        scope; such a URL not in origin form (``/…``) is refused (414)."""
        self.head_bytes = None
        url = self.url
        if len(url) <= PARSE_URL_MOST:
            return super().on_headers_complete()
        if not url.startswith(b"/"):
            self.refused = url_too_long(url, PARSE_URL_MOST)
            raise Refused
        self.url = b"/"
        try:
            super().on_headers_complete()
        finally:
            self.url = url
        raw_path, _, query = url.partition(b"#")[0].partition(b"?")
        path = raw_path.decode("ascii")
        self.scope["path"] = self.root_path + (unquote(path) if "%" in path else path)
        self.scope["raw_path"] = self.root_path.encode("ascii") + raw_path
        self.scope["query_string"] = query
