"""Which Hearth is this? Each HEARTH_HOME holds a random instance id, made once; the API answers
it on `/healthz`. A command that finds an API on its port compares the id before joining it, so
it never joins a Hearth started from another home (another user's, another checkout's): that
one has other data and another admin key.

Used by `hearth demo` (join the `hearth up` of the same home, else start its own stack on a free
port); `hearth up` can use the same check to tell "this home is already served" from "another
program holds the port".
"""

from __future__ import annotations

import os
import secrets
import socket
import tempfile
from pathlib import Path

import httpx

INSTANCE_FILE = "instance.id"
PROBE_TIMEOUT_S = 2.0


def instance_id(home: Path) -> str | None:
    """The home's id, made on first use. Two processes making it at once agree (the file is
    linked into place whole, and the loser reads the winner's). None if the home cannot be
    written: such an API then never claims to be anyone's instance."""
    path = home / INSTANCE_FILE
    try:
        if path.exists():
            return path.read_text().strip() or None
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=home, delete=False) as draft:
            draft.write(f"hi_{secrets.token_hex(16)}\n")
        try:
            os.link(draft.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft.name)
        return path.read_text().strip() or None
    except OSError:
        return None


def answering_instance(base_url: str) -> str | None:
    """The instance id the API at `base_url` answers; "" for an API (or any HTTP server) that
    answers without one; None when nothing answers."""
    try:
        response = httpx.get(f"{base_url}/healthz", timeout=PROBE_TIMEOUT_S)
    except httpx.HTTPError:
        return None
    try:
        body = response.json()
    except ValueError:
        return ""
    found = body.get("instance") if isinstance(body, dict) else None
    return found if isinstance(found, str) and response.status_code == 200 else ""


def serves_home(base_url: str, home: Path) -> bool:
    """Is the API at `base_url` the one started from `home`?"""
    mine = instance_id(home)
    return mine is not None and answering_instance(base_url) == mine


def port_in_use(host: str, port: int) -> bool:
    """Something listens on host:port (an API of ours could not bind it)."""
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex((host, port)) == 0


def free_port(host: str) -> int:
    """A port nothing listens on now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])
