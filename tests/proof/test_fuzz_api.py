"""Schemathesis over the whole OpenAPI document, every check it has, against a live server and
a real worker: once with the admin key (every phase, stateful included: it creates the worlds
and agents it uses, and deletes them) and once with a world's key pinned to a real world and
agent (examples, coverage and fuzzing). Zero failures: no 5xx, every status, header and body as
documented, invalid input refused, valid input accepted.

One allowance, stated here and in docs/reliability.md: a request the schema accepts may still
name something the world lacks — a place not in its map, an agent id of no agent, a cursor
this API never issued, a date that is not in the calendar (Feb 30 fits the pattern) — and is
refused with 422 naming the field. `positive_data_acceptance` is told 422 is such an answer;
and `negative_data_rejection` that 413 is the documented refusal of a batch over `maxItems`;
every other check runs with its defaults. The pinned run leaves out what would destroy or
misread its pins: DELETE (the admin run deletes), and the one operation with an integer path
parameter beside the pinned ones (…/memories/{memory_id}: schemathesis 4.32 reads a pinned path
as strings and takes the valid request it sent for a negative one; the admin run covers it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from hearth_client import Hearth

from tests.service.api import small_map

REPO = Path(__file__).resolve().parents[2]
MAX_EXAMPLES = int(os.environ.get("HEARTH_PROOF_EXAMPLES", "4"))
"""Cases per operation and phase: the whole run stays within a couple of minutes here."""
SEED = 1414
ACCEPTED_FOR_VALID_DATA = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
"""schemathesis's defaults for `positive_data_acceptance` and 422 (the module docstring); a 5xx
is still a failure, of `not_a_server_error`."""
REFUSALS_OF_INVALID_DATA = [
    "400",
    "401",
    "403",
    "404",
    "405",
    "406",
    "409",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]
"""schemathesis's defaults and 413: a batch over `maxItems` is refused as too large (documented)."""


def _config(tmp: Path, base_url: str, key: str, pinned: dict[str, str]) -> Path:
    parameters = "\n".join(f'"{name}" = {json.dumps(value)}' for name, value in pinned.items())
    config = tmp / "schemathesis.toml"
    config.write_text(f"""
base-url = "{base_url}"
headers = {{ Authorization = "Bearer {key}" }}
workers = 1
seed = {SEED}

[generation]
max-examples = {MAX_EXAMPLES}
database = "none"

[checks.positive_data_acceptance]
expected-statuses = {json.dumps(ACCEPTED_FOR_VALID_DATA)}

[checks.negative_data_rejection]
expected-statuses = {json.dumps(REFUSALS_OF_INVALID_DATA)}

[parameters]
"query.once" = true
{parameters}
""")
    return config


@dataclass
class Run:
    folder: Path
    process: subprocess.Popen[bytes]
    out: IO[str]

    def summary(self) -> str:
        """Wait for the run; its summary, after asserting it exited cleanly."""
        code = self.process.wait(timeout=900)
        self.out.close()
        text = (self.folder / "schemathesis.out").read_text()
        summary = text[text.rfind("SUMMARY") :]
        print(summary)  # operations, phases, cases generated, failures
        assert code == 0, f"see {self.folder / 'schemathesis.out'}\n" + text[:30000]
        return summary


def _start(tmp: Path, base_url: str, key: str, pinned: dict[str, str], *extra: str) -> Run:
    """One schemathesis run as its own process (two run side by side: each waits on the
    server most of the time, and schemathesis's own workers are not thread-safe here)."""
    tmp.mkdir(parents=True, exist_ok=True)
    config = _config(tmp, base_url, key, pinned)
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        f"{base_url}/openapi.json",
        "--checks",
        "all",
        "--request-timeout",
        "30",
        "--no-color",
        *extra,
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.proof.st_hooks", "PYTHONPATH": str(REPO)}
    out = (tmp / "schemathesis.out").open("w")
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    return Run(tmp, process, out)


def _pinned(client: Hearth, world_id: str) -> dict[str, str]:
    client.put_map(world_id, small_map())
    agent = client.create_agent(world_id, {"name": "Rosa", "start_place": "park"})
    client.add_memories(world_id, agent["id"], [{"description": "Rosa saw a heron"}])
    return {"path.world_id": world_id, "path.agent_id": agent["id"]}


def _key(client: Hearth) -> str:
    return str(client._http.headers["Authorization"]).removeprefix("Bearer ")


@pytest.mark.worker
@pytest.mark.timeout(1200)
def test_fuzz_with_the_admin_key_and_with_a_world_key_pinned_to_a_real_world(
    world: tuple[str, Hearth], admin: Hearth, base_url: str, tmp_path: Path, celery_worker: None
) -> None:
    world_id, client = world
    pinned = _start(
        tmp_path / "pinned",
        base_url,
        _key(client),
        _pinned(client, world_id),
        "--phases",
        "examples,coverage,fuzzing",
        "--exclude-method",
        "DELETE",
        "--exclude-path-regex",
        r"/memories/\{memory_id\}$",
    )
    whole = _start(tmp_path / "admin", base_url, _key(admin), {})
    summaries = [pinned.summary(), whole.summary()]
    for summary in summaries:
        _all_passed(summary)


def _all_passed(summary: str) -> None:
    counts = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert counts is not None and counts[1] == counts[2] and int(counts[1]) > 500, summary
