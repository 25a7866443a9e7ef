"""compose.yaml runs only real `hearth` commands, and every service has what it needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from service.cli import build_parser

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"
HEARTH_SERVICES = {"migrate", "api", "worker-fast", "worker-slow", "beat"}


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())["services"]  # type: ignore[no-any-return]


def test_the_stack_has_every_service(services: dict[str, Any]) -> None:
    assert set(services) == HEARTH_SERVICES | {"postgres", "redis"}
    assert services["postgres"]["image"].startswith("pgvector/pgvector:pg16")


@pytest.mark.parametrize("name", sorted(HEARTH_SERVICES))
def test_each_hearth_service_runs_a_real_cli_command(services: dict[str, Any], name: str) -> None:
    command = services[name]["command"]
    args = build_parser().parse_args(command)  # exits (SystemExit) on an unknown command
    assert callable(args.func)


@pytest.mark.parametrize("name", sorted(HEARTH_SERVICES))
def test_each_hearth_service_has_what_it_needs(services: dict[str, Any], name: str) -> None:
    service = services[name]
    assert service["build"] == "." and service["image"] == "hearth:latest"
    env = service["environment"]
    assert env["HEARTH_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert env["HEARTH_REDIS_URL"].startswith("redis://")
    depends = service["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    if name != "migrate":
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", ["postgres", "redis", "api", "worker-fast", "worker-slow"])
def test_long_running_services_have_health_checks(services: dict[str, Any], name: str) -> None:
    check = services[name]["healthcheck"]["test"]
    assert check[0] in ("CMD", "CMD-SHELL")
    if check[1] == "hearth":
        assert callable(build_parser().parse_args(check[2:]).func)


def test_the_image_runs_the_hearth_cli() -> None:
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["hearth"]' in dockerfile
    for folder in ("cognition", "db", "migrations", "service", "workers"):
        assert f"COPY {folder} {folder}" in dockerfile
