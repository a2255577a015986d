"""The pages of leishen.viz as the API serves them: /, /views/symbol/{name}, /views/schema, /views/reading.
Every page is HTML that loads nothing from another host; bad input is a JSON 4xx like everywhere else.
(The browser tests draw them in Chromium; here the routes, statuses and references.)"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from apicheck import assert_error

from leishen.viz.assets import vis_text

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


VIS_SCRIPT = re.compile(r'<script src="(/assets/vis-network-[0-9a-f]+\.min\.js)"></script>')


@pytest.mark.parametrize("path", [f"/views/symbol/{urllib.parse.quote('子')}", "/views/schema",
                                  f"/views/reading?{QUERY}"])
def test_served_pages_reference_vis_network_once_instead_of_inlining_it(client, path):
    html = assert_local_page(client.get(path))
    found = VIS_SCRIPT.findall(html)
    assert len(found) == 1 and vis_text()[:2000] not in html
    asset = client.get(found[0])
    assert asset.status_code == 200 and asset.headers["content-type"].startswith("text/javascript")
    assert "immutable" in asset.headers["cache-control"] and "max-age=31536000" in asset.headers["cache-control"]
    assert "sourceMappingURL" not in asset.text and len(asset.content) > 400_000


@pytest.mark.parametrize("path", ["/", "/app.js", "/style.css", "/health", "/openapi.json", "/redoc",
                                  f"/views/reading?{QUERY}", f"/readings?{QUERY}", "/no/such/file.js"])
def test_every_answer_is_gzipped_for_a_client_that_accepts_it(client, path):
    answer = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert answer.headers.get("content-encoding") == "gzip", path
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == answer.content


def test_the_web_page_files_are_revalidated(client):
    for path in ("/", "/app.js", "/style.css"):
        answer = client.get(path)
        assert answer.headers["cache-control"] == "no-cache" and answer.headers.get("etag")
