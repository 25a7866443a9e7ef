"""`/docs` (Swagger UI) and `/redoc` (ReDoc) with their assets from the `fastapi-offline`
package instead of a CDN, so the API's docs work on a machine with no internet.

Each page also carries a Content-Security-Policy that confines it to this origin: ReDoc's
bundle still asks a CDN for its attribution logo, and the browser now never sends that request
(the logo is hidden instead of shown broken)."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs-assets"
POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
HIDE_CDN_LOGO = '<style>a[href^="https://redocly.com"] img { display: none; }</style></head>'


def _confined(page: HTMLResponse, *, extra_head: str = "") -> HTMLResponse:
    body = bytes(page.body).decode()
    if extra_head:
        body = body.replace("</head>", extra_head, 1)
    return HTMLResponse(body, headers={"Content-Security-Policy": POLICY})


def install_docs(app: FastAPI) -> None:
    """Needs an app built with `docs_url=None, redoc_url=None`."""
    openapi_url = app.openapi_url or "/openapi.json"
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return _confined(
            get_swagger_ui_html(
                openapi_url=openapi_url,
                title=f"{app.title} - Swagger UI",
                swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
                swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
                swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
            )
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
        return _confined(page, extra_head=HIDE_CDN_LOGO)
