"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Playwright's own browser download cannot run on these machines, so the tests launch
`/usr/bin/chromium` (`apt-get install chromium`; `.ci/run` does it) and are skipped, saying
so, only where it is missing. Screenshots of every page go to `test-artifacts/browser/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from hearth_client import Hearth

from db.queries.api_keys import generate_key, store_key
from db.session import make_session_factory
from db.settings import Settings
from service.app import create_app
from tests.browser.scene import Scene, build
from tests.conftest import REPO, truncate_all
from tests.live import serve

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = REPO / "test-artifacts" / "browser"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: `apt-get install -y chromium`")
    for item in items:
        if "tests/browser/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(skip)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Module-scoped: Playwright's sync API keeps an event loop running in this thread while
    it is open, and tests elsewhere call `asyncio.run`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def inspector_url(settings: Settings, engine: sa.Engine) -> Iterator[str]:
    """A live server for the module; the database is emptied when the module is done."""
    with serve(create_app(settings)) as url:
        yield url
    truncate_all(engine)


@pytest.fixture(scope="module")
def admin_key(inspector_url: str, engine: sa.Engine) -> str:
    key = generate_key("admin")
    with make_session_factory(engine).begin() as session:
        store_key(session, key)
    return key


@pytest.fixture(scope="module")
def scene(inspector_url: str, admin_key: str, engine: sa.Engine, settings: Settings) -> Scene:
    with Hearth(inspector_url, api_key=admin_key) as admin:
        return build(admin, inspector_url, make_session_factory(engine), settings)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
