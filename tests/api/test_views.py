"""The pages of leishen.viz as the API serves them: /, /views/symbol/{name}, /views/schema, /views/reading.
Every page is HTML that loads nothing from another host; bad input is a JSON 4xx like everywhere else.
(The browser tests draw them in Chromium; here the routes, statuses and references.)"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from apicheck import assert_error

pytest.importorskip("leishen.viz")

REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
QUERY = urllib.parse.urlencode({"moment": "2026-12-01T09:00:00", "tz": "Asia/Shanghai"})


def assert_local_page(answer) -> str:
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    for url in REFERENCE.findall(answer.text):
        assert not re.match(r"(?i)(https?:)?//", url), url
    return answer.text


@pytest.mark.parametrize("path", ["/", f"/views/symbol/{urllib.parse.quote('子')}", "/views/schema",
                                  f"/views/reading?{QUERY}"])
def test_pages_are_html_with_local_references_only(client, path):
    assert_local_page(client.get(path))


def test_the_web_page_loads_its_own_files(client):
    html = assert_local_page(client.get("/"))
    local = [u for u in REFERENCE.findall(html) if not u.startswith(("#", "data:"))]
    assert local and all(client.get(urllib.parse.urljoin("/", u)).status_code == 200 for u in local)


def test_api_routes_come_before_the_web_page(client):
    assert client.get("/health").json()["status"] == "ok"
    assert_error(client.get("/no/such/file.js"), 404)


@pytest.mark.parametrize("path, status, field", [
    ("/views/symbol/no-such-symbol-here", 404, None),
    (f"/views/symbol/{urllib.parse.quote('子')}?depth=9", 422, "depth"),
    ("/views/reading?moment=yesterday", 422, None),
    (f"/views/reading?{QUERY}&shehai=bogus", 422, "shehai"),
])
def test_pages_bad_input(client, path, status, field):
    body = assert_error(client.get(path), status)
    assert field is None or body["field"] == field
