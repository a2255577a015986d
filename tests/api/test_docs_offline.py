"""The OpenAPI schema and the Swagger UI / ReDoc pages are served from this server only (no CDN)."""

from __future__ import annotations

import re

import pytest

URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\s*:\s*["']([^"']+)["']|["'](https?://[^"']+)["']""")


def references(html: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in URL.finditer(html)}


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_doc_pages_reference_only_local_urls(client, page):
    answer = client.get(page)
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    urls = references(answer.text)
    assert urls, "the page loads its script from somewhere"
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        assert client.get(url).status_code == 200, url


def test_swagger_ui_has_no_online_validator(client):
    assert '"validatorUrl": null' in client.get("/docs").text


def test_openapi_schema_lists_every_endpoint(client):
    paths = set(client.get("/openapi.json").json()["paths"])
    assert {"/health", "/symbols/{name}", "/facts", "/paths", "/passages/{doc}:{line}", "/coverage", "/queries",
            "/cypher"} <= paths


def test_error_answers_are_declared(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"400", "408", "413", "422"} <= set(paths["/cypher"]["post"]["responses"])
    assert {"404", "422"} <= set(paths["/symbols/{name}"]["get"]["responses"])


REMOTE_IMAGE = re.compile(r"""src\s*:\s*["'](https?://[^"']+)["']|url\(\s*["']?(https?://[^"')]+)""")


@pytest.mark.parametrize("page", ["/redoc"])
def test_doc_page_scripts_load_no_remote_image(client, page):
    """ReDoc's bundle draws the Redocly logo from cdn.redoc.ly as shipped; the served bundle names a local one."""
    scripts = [u for u in references(client.get(page).text) if u.endswith(".js")]
    assert scripts
    for url in scripts:
        remote = {next(g for g in m.groups() if g) for m in REMOTE_IMAGE.finditer(client.get(url).text)}
        assert remote == set(), (url, remote)
    assert client.get("/assets/redoc-logo.svg").headers["content-type"] == "image/svg+xml"
