"""`/docs`, `/redoc` and `/inspector` are served from the package: no asset from a CDN, a
policy that keeps the pages on this origin, and the inspector's modules with a JS type."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

OUTSIDE = re.compile(r"(src|href)=\"https?://", re.IGNORECASE)


def test_docs_pages_load_their_assets_from_this_server(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        page = client.get(path)
        assert page.status_code == 200 and "/docs-assets/" in page.text
        assert not OUTSIDE.search(page.text.replace('href="https://redocly.com', "")), path
        assert "connect-src 'self'" in page.headers["content-security-policy"]
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        assert client.get(f"/docs-assets/{asset}").status_code == 200


def test_the_inspector_is_one_page_with_its_modules(client: TestClient) -> None:
    page = client.get("/inspector")
    assert page.status_code == 200 and 'type="module"' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    assert not OUTSIDE.search(page.text)
    module = client.get("/inspector/static/app.js")
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    assert client.get("/inspector/", follow_redirects=False).headers["location"] == "/inspector"
    assert client.get("/inspector/static/missing.js").status_code == 404
    assert "/inspector" not in client.get("/openapi.json").json()["paths"]
