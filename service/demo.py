"""`hearth demo`: the demo town on the embedded stack, driven through the HTTP API by the
Python SDK as a headless game client. Joins a running `hearth up` if one answers; otherwise
starts the stack for the run and stops it afterwards."""

from __future__ import annotations

import sys

from hearth_client.demo.drive import DemoConfig
from hearth_client.demo.run import run_demo

from db.settings import Settings
from service.admin_key import KEY_FILE
from service.launcher import LaunchRefused, api_answers, api_base_url, launched

DEMO_BEAT_INTERVAL_S = 1.0
"""The sweep runs every second during the demo, so planning keeps pace with a fast clock."""


def demo(settings: Settings, config: DemoConfig) -> int:
    base_url = api_base_url(settings)
    if api_answers(base_url):
        key = settings.admin_key or _stored_key(settings)
        if key is None:
            print(
                f"hearth demo: an API answers at {base_url} but no admin key is known; "
                "set HEARTH_ADMIN_KEY",
                file=sys.stderr,
            )
            return 2
        print(f"hearth demo: using the Hearth already running at {base_url}")
        return run_demo(base_url, key, config)
    print(f"hearth demo: starting the embedded stack in {settings.home} …", flush=True)
    try:
        with launched(settings, beat_interval_s=DEMO_BEAT_INTERVAL_S, trap_signals=False) as up:
            ready_s = up.supervisor.wait_ready(f"{base_url}/readyz")
            if ready_s is None:
                print(
                    "hearth demo: the stack did not become ready; see the messages above",
                    file=sys.stderr,
                )
                return 1
            print(f"hearth demo: stack ready in {ready_s:.1f} s", flush=True)
            return run_demo(base_url, up.admin.key, config)
    except LaunchRefused as refused:
        return refused.exit_code
    except KeyboardInterrupt:
        print("\nhearth demo: stopped", file=sys.stderr)
        return 130


def _stored_key(settings: Settings) -> str | None:
    path = settings.home / KEY_FILE
    return path.read_text().strip() if path.exists() else None
