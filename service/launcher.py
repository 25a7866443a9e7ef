"""Bring the whole stack up on this machine: the embedded (or configured) databases,
migrations, the embedding-space check, the admin key, then the API, a fast and a slow worker,
and beat as child processes. `hearth up` and `hearth demo` both start here."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn

import httpx

from db import migrate
from db.metrics import empty_directory
from db.session import make_engine, make_session_factory, session_scope
from db.settings import Settings
from service.admin_key import AdminKey, ensure_admin_key
from service.home_lock import HomeServed, hold_home
from service.instance import port_in_use, serves_home
from service.reembed import MISMATCH_EXIT, check_space
from service.stack import Stack, running_stack
from service.supervisor import ChildSpec, Supervisor, hearth_command

PROBE_TIMEOUT_S = 2.0
ALREADY_SERVED_EXIT = 1


class LaunchRefused(Exception):
    """The stack cannot start as configured; `exit_code` is what the CLI should return."""

    def __init__(self, exit_code: int) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


@dataclass
class Launched:
    stack: Stack
    admin: AdminKey
    supervisor: Supervisor

    @property
    def base_url(self) -> str:
        return api_base_url(self.stack.settings)


def api_base_url(settings: Settings) -> str:
    return f"http://{settings.api_host}:{settings.api_port}"


def api_answers(base_url: str) -> bool:
    """Is a Hearth API already serving here (`hearth up` in another terminal)?"""
    try:
        return httpx.get(f"{base_url}/healthz", timeout=PROBE_TIMEOUT_S).status_code == 200
    except httpx.HTTPError:
        return False


def child_specs(beat_interval_s: float | None) -> list[ChildSpec]:
    beat = ("beat",) if beat_interval_s is None else ("beat", "--interval", str(beat_interval_s))
    return [
        ChildSpec("api", hearth_command("api")),
        ChildSpec("worker-fast", hearth_command("worker", "--queues", "fast")),
        ChildSpec("worker-slow", hearth_command("worker", "--queues", "slow")),
        ChildSpec("beat", hearth_command(*beat)),
    ]


@contextmanager
def launched(
    settings: Settings, *, beat_interval_s: float | None = None, trap_signals: bool = True
) -> Iterator[Launched]:
    """Everything running until the block exits; then children, Redis and Postgres stop.
    Refused (`LaunchRefused`, with the reason printed) when this home is already served or
    another program holds the API's port."""
    with _claimed(settings), running_stack(settings) as stack:
        migrate.upgrade(stack.database_url)
        if not check_space(stack.settings):
            raise LaunchRefused(MISMATCH_EXIT)
        admin = _admin_key(stack)
        empty_directory(stack.settings.metrics_folder)  # a new deployment counts from zero
        supervisor = Supervisor(child_specs(beat_interval_s), stack.child_env())
        supervisor.start(trap_signals=trap_signals)
        try:
            yield Launched(stack=stack, admin=admin, supervisor=supervisor)
        finally:
            supervisor.stop()


@contextmanager
def _claimed(settings: Settings) -> Iterator[None]:
    """This home and the API's port, for this stack alone while the block runs."""
    base = api_base_url(settings)
    try:
        with hold_home(settings.home, api_url=base):
            if serves_home(base, settings.home):  # children of a stack whose parent died
                _refuse(f"this HEARTH_HOME ({settings.home}) is already served at {base}")
            if port_in_use(settings.api_host, settings.api_port):
                _refuse(f"{base} is taken by another program; set HEARTH_API_PORT to a free port")
            yield
    except HomeServed as served:
        _refuse(f"{served}; stop it first, or set HEARTH_HOME to another folder")


def _refuse(reason: str) -> NoReturn:
    print(f"hearth: {reason}", file=sys.stderr, flush=True)
    raise LaunchRefused(ALREADY_SERVED_EXIT)


def _admin_key(stack: Stack) -> AdminKey:
    engine = make_engine(stack.database_url, pool_size=1)
    try:
        with session_scope(make_session_factory(engine)) as session:
            return ensure_admin_key(session, stack.settings)
    finally:
        engine.dispose()
