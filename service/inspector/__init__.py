"""The web inspector at `/inspector`: static HTML, CSS and plain JavaScript modules shipped with
the package (no CDN, no build step), which read the world through the public `/v1` API.

The key a person signs in with stays in the tab's `sessionStorage` and travels only in the
`Authorization` header, never in a URL or a cookie; the page's Content-Security-Policy allows
scripts, styles and connections to this origin only."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"
PREFIX = "/inspector"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def install_inspector(app: FastAPI) -> None:
    """Serve the single page at `/inspector` and its modules under `/inspector/static`."""

    @app.get(PREFIX, include_in_schema=False)
    def inspector() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    @app.get(f"{PREFIX}/", include_in_schema=False)
    def inspector_slash() -> RedirectResponse:
        return RedirectResponse(PREFIX)

    app.mount(f"{PREFIX}/static", StaticFiles(directory=STATIC), name="inspector")
