"""`hearth demo`: the demo town on the embedded stack, driven through the HTTP API by the
Python SDK as a headless game client.

It joins a running `hearth up` only if that API was started from the same HEARTH_HOME (its
`/healthz` answers this home's instance id, `service.instance`): another Hearth on the port has
other data and another admin key. Otherwise it starts the stack for the run — on the
configured port if nothing holds it, else on a free one — and stops it after the report, or
with `--keep` serves on until Ctrl-C so the printed commands keep working.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import dataclass
from types import FrameType

from hearth_client.demo.drive import DemoConfig, TownRun
from hearth_client.demo.run import run_demo

from db.settings import Settings, default_home
from service.admin_key import KEY_FILE
from service.instance import answering_instance, free_port, instance_id, port_in_use
from service.launcher import LaunchRefused, api_base_url, launched

DEMO_BEAT_INTERVAL_S = 1.0
"""The sweep runs every second during the demo, so planning keeps pace with a fast clock."""
DEFAULT_API_PORT = Settings.model_fields["api_port"].default


@dataclass(frozen=True)
class Target:
    """Where the demo runs: the `hearth up` of this home (join), or a stack of its own."""

    settings: Settings
    join: bool
    note: str = ""

    @property
    def base_url(self) -> str:
        return api_base_url(self.settings)


def choose_target(settings: Settings) -> Target:
    """Join this home's own API; never another one. A port held by anything else moves the
    demo's own stack to a free port."""
    base = api_base_url(settings)
    answered = answering_instance(base)
    mine = instance_id(settings.home)
    if answered is not None and answered == mine:
        return Target(settings, join=True)
    if answered is None and not port_in_use(settings.api_host, settings.api_port):
        return Target(settings, join=False)
    moved = settings.model_copy(update={"api_port": free_port(settings.api_host)})
    holder = "a Hearth started from another HEARTH_HOME" if answered else "another program"
    note = f"{holder} holds {base}; starting this demo's own stack on {api_base_url(moved)}"
    return Target(moved, join=False, note=note)


def demo(settings: Settings, config: DemoConfig, *, keep: bool = False) -> int:
    target = choose_target(settings)
    signal.signal(signal.SIGTERM, _interrupt)  # stop the children as Ctrl-C would
    # Ctrl-C stops it even when a script started it in the background, where the shell has
    # SIGINT ignored and Python then never raises KeyboardInterrupt (`hearth up` traps it too)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _joined(target, config) if target.join else _launched(target, config, keep=keep)
    except KeyboardInterrupt:
        print("\nhearth demo: stopped", file=sys.stderr)
        return 130


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _joined(target: Target, config: DemoConfig) -> int:
    key = target.settings.admin_key or _stored_key(target.settings)
    if key is None:
        print(
            f"hearth demo: the Hearth of this HEARTH_HOME answers at {target.base_url} but its "
            "admin key is not stored here; set HEARTH_ADMIN_KEY to the key `hearth up` uses",
            file=sys.stderr,
        )
        return 2
    print(f"hearth demo: using the Hearth already serving this HEARTH_HOME at {target.base_url}")
    run_demo(target.base_url, key, config, hearth_env=hearth_env(target.settings))
    print(f"\nhearth demo: the town stays in the `hearth up` serving {target.base_url}")
    return 0


def _launched(target: Target, config: DemoConfig, *, keep: bool) -> int:
    s = target.settings
    if target.note:
        print(f"hearth demo: {target.note}", flush=True)
    print(f"hearth demo: starting the embedded stack in {s.home} …", flush=True)
    try:
        with launched(s, beat_interval_s=DEMO_BEAT_INTERVAL_S, trap_signals=False) as up:
            ready_s = up.supervisor.wait_ready(f"{target.base_url}/readyz")
            if ready_s is None:
                print(
                    "hearth demo: the stack did not become ready; see the messages above",
                    file=sys.stderr,
                )
                return 1
            print(f"hearth demo: stack ready in {ready_s:.1f} s", flush=True)
            run = run_demo(target.base_url, up.admin.key, config, hearth_env=hearth_env(s))
            if not keep:
                print(come_back(s, run))
                return 0
            print(
                f"\nhearth demo: still serving at {target.base_url} (data in {s.home}); "
                "Ctrl-C stops it",
                flush=True,
            )
            try:
                return up.supervisor.run_until_stopped()
            except KeyboardInterrupt:
                print("\nhearth demo: stopping", file=sys.stderr, flush=True)
                return 0
    except LaunchRefused as refused:
        return refused.exit_code


def hearth_env(settings: Settings) -> str:
    """The variables a `hearth` command needs to reach this demo's data and API again."""
    parts = []
    if settings.home != default_home():
        parts.append(f"HEARTH_HOME={settings.home}")
    if settings.api_port != DEFAULT_API_PORT:
        parts.append(f"HEARTH_API_PORT={settings.api_port}")
    return "".join(f"{p} " for p in parts)


def come_back(settings: Settings, run: TownRun) -> str:
    """How to serve the finished town again: its data stays in HEARTH_HOME."""
    env = hearth_env(settings)
    return (
        f"\nThe stack has stopped; the town (world {run.world_id}) stays in {settings.home}.\n"
        f"To serve it again for the commands above, run\n  {env}hearth up\n"
        "(`hearth demo --keep` keeps the stack serving after the report.)"
    )


def _stored_key(settings: Settings) -> str | None:
    path = settings.home / KEY_FILE
    return path.read_text().strip() if path.exists() else None
