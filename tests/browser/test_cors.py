"""A browser game on another origin drives its world through the TypeScript client: the admin
lists the game's origin in the world's settings, and a page served from that origin (another
port of 127.0.0.1) creates an agent, moves the clock, steps, chats and reads the world's event
stream, preflights and all, in Chromium. A world that does not list the origin is refused by
the browser itself (the README's game loop had failed its first preflight with a 405)."""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import REPO

CLIENT = REPO / "clients" / "typescript"
PAGE = """<!doctype html>
<meta charset="utf-8"><title>a game on another origin</title>
<script type="module">
import { Hearth } from "./client/index.js";
window.drive = async ([base, key, worldId]) => {
  const hearth = new Hearth(base, { apiKey: key, retry: { attempts: 1 } });
  try {
    const agent = await hearth.createAgent(worldId, { name: "Rosa", start_place: "park" });
    const clock = await hearth.clock(worldId, { advance_minutes: 10 });
    const step = await hearth.step(worldId, [{ agent_id: agent.id, place: "park",
      perceived: [{ kind: "event", description: "a kite is stuck in the oak" }] }]);
    const chat = await hearth.chat(worldId, agent.id, { player: "Mo", message: "Hello!" });
    const seen = [];
    for await (const event of hearth.events(worldId, { once: true })) seen.push(event.type);
    return { agent: agent.name, now: clock.now, stored: step.agents[0].stored,
             reply: chat.reply, events: seen };
  } catch (error) {
    return { error: error.name, message: String(error.message) };
  }
};
</script>
"""


@pytest.fixture(scope="module")
def built_client() -> Path:
    """The TypeScript client compiled to ES modules (`npm ci` first where it is missing)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is missing: the TypeScript client cannot be built")
    if not (CLIENT / "node_modules").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True)
    subprocess.run([npm, "run", "build"], cwd=CLIENT, check=True, capture_output=True)
    return CLIENT / "dist" / "src"


@pytest.fixture(scope="module")
def game_origin(built_client: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A static server on its own port (so its own origin) with the page and the client."""
    folder = tmp_path_factory.mktemp("game")
    (folder / "index.html").write_text(PAGE)
    shutil.copytree(built_client, folder / "client")
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _world(api: str, admin_key: str, origins: list[str]) -> tuple[str, str]:
    admin = {"Authorization": f"Bearer {admin_key}"}
    body = {
        "name": "Kite Hill",
        "clock": {"start": "2023-02-13T07:00:00"},
        "settings": {"cors_origins": origins},
    }
    world = httpx.post(f"{api}/v1/worlds", json=body, headers=admin).json()
    town = {"name": "Kite Hill", "children": [{"name": "park", "children": [{"name": "oak"}]}]}
    mapped = httpx.put(
        f"{api}/v1/worlds/{world['id']}/map",
        json=town,
        headers={"Authorization": f"Bearer {world['api_key']}"},
    )
    assert mapped.status_code == 200, mapped.text
    return world["id"], world["api_key"]


def test_a_page_on_another_origin_drives_its_world(
    browser: Any, inspector_url: str, admin_key: str, game_origin: str
) -> None:
    allowed = _world(inspector_url, admin_key, [game_origin])
    closed = _world(inspector_url, admin_key, [])
    page = browser.new_page()
    try:
        page.goto(f"{game_origin}/index.html")
        page.wait_for_function("typeof window.drive === 'function'")
        result = page.evaluate("(args) => window.drive(args)", [inspector_url, *allowed[::-1]])
        refused = page.evaluate("(args) => window.drive(args)", [inspector_url, *closed[::-1]])
    finally:
        page.close()
    assert "error" not in result, result
    assert result["agent"] == "Rosa" and result["now"] == "2023-02-13T07:10:00"
    assert result["stored"] >= 1 and result["reply"].strip()
    assert result["events"], result  # read through the stream, with its Authorization header
    assert refused["error"] == "ConnectionFailed", refused  # the browser kept the answer
