"""The HTTP/1.1 protocol ``leishen serve`` runs uvicorn with: a request the server will not read — a URL or
headers past their limit, or bytes that are not HTTP — is answered with the API's JSON error naming what was
wrong (and the limit), never with uvicorn's plain-text ``400 Invalid HTTP request received.``.

uvicorn answers such a request itself, before any app sees it. With httptools (its choice when installed) that
was every URL over 65,535 bytes (``httptools.parse_url`` keeps offsets in 16 bits), while headers had no bound at
all. The protocol here (:class:`leishen.api.protocol_httptools.HttpToolsProtocol`, or :class:`H11Protocol`
without httptools) reads:

* a URL (path and query string) of up to :data:`~leishen.api.settings.MAX_URL_BYTES` (1 MiB), so that the app
  answers a too-long field with its own 422 naming the field; a longer one is a 414 naming the limit;
* headers of up to :data:`~leishen.api.settings.MAX_HEADER_BYTES` (64 KiB) all told; more is a 431 naming
  the limit, refused while they stream in;
* anything else the parser refuses is a 400 in the same shape, saying what the parser found.

After the answer the connection is half-closed, and what the client still sends is read and dropped (at most
LINGER_BYTES, for at most LINGER_SECONDS) before it is closed: closing with unread bytes would reset the
connection, and the client could lose the answer.
"""

from __future__ import annotations

import http
import json
import sys
from importlib.util import find_spec

from uvicorn.protocols.http.h11_impl import H11Protocol as UvicornH11

from leishen.api.settings import MAX_HEADER_BYTES, MAX_URL_BYTES

LINGER_BYTES = 16 * 1024 * 1024  # the most a refused client may still send before its connection is closed
LINGER_SECONDS = 10.0  # the longest a refused connection stays open for the client to finish sending
#: the ``type`` of each refusal's JSON error
KINDS = {400: "InvalidHTTPRequest", 414: "URLTooLong", 431: "HeadersTooLarge"}


def uvicorn_options() -> dict:
    """The options ``leishen serve`` gives ``uvicorn.run``: this module's protocol (over httptools when it is
    installed, else h11, whose one bound on the request head is set to the URL and header limits together)."""
    http_class = ("leishen.api.protocol_httptools:HttpToolsProtocol" if find_spec("httptools")
                  else "leishen.api.protocol:H11Protocol")
    return {"http": http_class, "h11_max_incomplete_event_size": MAX_URL_BYTES + MAX_HEADER_BYTES}


def url_too_long(url: bytes, most: int) -> tuple[int, str, str]:
    """The 414 refusal of *url*, read past *most* bytes: its field is ``query`` when the query string is the
    larger part, else ``path``."""
    path, _, query = url.partition(b"?")
    field = "query" if len(query) > len(path) else "path"
    return 414, field, (f"{field}: the URL (path and query string) is longer than {most:,} bytes, the most this "
                        f"server reads; send large input in a POST body")


def headers_too_large(most: int, name: bytes | None = None) -> tuple[int, str, str]:
    """The 431 refusal of headers past *most* bytes (*name*: the header that passed the limit, when known)."""
    which = f" (passed at {name.decode('latin-1')!r})" if name else ""
    return 431, "headers", f"headers: longer than {most:,} bytes all told{which}, the most this server reads"


class JsonRefusals:
    """Mixin over a uvicorn HTTP protocol class: the plain-text 400 uvicorn sends for a request its parser
    refused becomes the API's JSON error (:meth:`refusal`: the limit passed, else a 400 saying what the parser
    found), followed by a lingering close."""

    #: (status, field, message) of a limit the request passed, set before the parser is stopped
    refused: tuple[int, str | None, str] | None = None
    #: bytes read and dropped since the refusal was sent (None: none sent)
    dropped: int | None = None
    linger = None  # the timer that closes a refused connection

    def refusal(self) -> tuple[int, str | None, str]:
        """(status, field, message) of the request being refused: the limit it passed, else a 400 naming the
        parser's error (this runs in the handler of that error)."""
        if self.refused:
            return self.refused
        found = sys.exc_info()[1]
        found = (found.__context__ or found) if found is not None else None  # (a callback's error, when one)
        reason = f": {str(found).strip()[:200]}" if found is not None and str(found).strip() else ""
        return 400, None, f"the request is not valid HTTP/1.1{reason}"

    def send_400_response(self, msg: str) -> None:
        """Answer the refused request with its JSON error, then half-close the connection and drop what the client
        still sends, until it closes, LINGER_BYTES have come or LINGER_SECONDS have passed (*msg*, uvicorn's
        plain text, is not used)."""
        status, field, message = self.refusal()
        self.logger.info("refused with %d: %s", status, message)  # (after uvicorn's "Invalid HTTP request")
        body = json.dumps({"error": message, "status": status, "type": KINDS.get(status, "HTTPError"),
                           "field": field, "matches": []}, separators=(",", ":")).encode()
        head = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}".encode()]
        head += [name + b": " + value for name, value in self.server_state.default_headers]
        head += [b"content-type: application/json", b"content-length: " + str(len(body)).encode(),
                 b"connection: close"]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.dropped = 0
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self.linger = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def data_received(self, data: bytes) -> None:
        """Parse *data*, or drop it once the request was refused (closing past LINGER_BYTES)."""
        if self.dropped is None:
            return super().data_received(data)
        self.dropped += len(data)
        if self.dropped > LINGER_BYTES:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: its lingering timer, if any, is cancelled."""
        if self.linger is not None:
            self.linger.cancel()
        super().connection_lost(exc)


class H11Protocol(JsonRefusals, UvicornH11):
    """uvicorn's h11 protocol answering refusals in JSON. h11 bounds only the whole request head
    (``h11_max_incomplete_event_size``: MAX_URL_BYTES + MAX_HEADER_BYTES), and reports a head past it with the
    hint 431."""

    def refusal(self) -> tuple[int, str | None, str]:
        """A head past h11's bound is a 414 while its request line has not ended, else a 431; anything else as
        :meth:`JsonRefusals.refusal` says."""
        found = sys.exc_info()[1]
        if self.refused is None and getattr(found, "error_status_hint", None) == 431:
            most = MAX_URL_BYTES + MAX_HEADER_BYTES
            received = self.conn.trailing_data[0]
            if b"\r\n" not in received:
                return url_too_long(received.partition(b" ")[2], most)
            return 431, "headers", (f"headers: the request line and headers are longer than {most:,} bytes "
                                    f"together, the most this server reads")
        return super().refusal()
