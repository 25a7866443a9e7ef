"""The `hearth` command line: every process of a deployment is one of these subcommands.

hearth up                  embedded databases + migrations + API + workers + beat
hearth api                 the HTTP API
hearth worker --queues Q   a Celery worker for fast, slow or both
hearth beat                the periodic world sweep
hearth db upgrade|check    migrations
hearth sql "SELECT …"      a query as the read-only analyst role (--csv, --json, --full)
hearth reembed             re-embed every memory with the configured embedder (resumable)
hearth demo [--keep]       the 25-agent demo town, driven through the API, then a report
hearth status              what is running and how much is stored
hearth openapi             the API's OpenAPI document (JSON), without starting anything
hearth model fetch|serve   a local model from PyPI, served on loopback (OpenAI-compatible)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import sqlalchemy as sa

from db import jobs, migrate
from db.logs import configure_logging
from db.metrics import use_directory
from db.reembed import DEFAULT_BATCH_SIZE
from db.settings import Settings, load_settings
from service.launcher import LaunchRefused, launched
from service.model_cli import add_model_parser
from service.reembed import MISMATCH_EXIT, check_space, run_reembed
from service.sql_console import analyst_url, render, run_query
from service.stack import Stack, running_stack
from workers.app import make_celery

Command = Callable[[argparse.Namespace, Settings], int]


def cmd_up(args: argparse.Namespace, settings: Settings) -> int:
    try:
        with launched(settings) as up:
            s, admin = up.stack.settings, up.admin
            print(
                f"hearth: data in {s.home} ({', '.join(up.stack.embedded) or 'external servers'})"
            )
            print(f"hearth: {_mind_line(s)}")
            print(
                f"hearth: API listening on {up.base_url}  (docs: {up.base_url}/docs, "
                f"inspector: {up.base_url}/inspector)"
            )
            if admin.generated_now:
                print(f"hearth: admin key (shown once, saved in {admin.path}): {admin.key}")
            elif admin.path is not None:
                print(f"hearth: admin key: {admin.key[:12]}… (in {admin.path})")
            else:
                print("hearth: admin key: from HEARTH_ADMIN_KEY")
            ready_s = up.supervisor.wait_ready(
                f"{up.base_url}/readyz", timeout_s=args.ready_timeout
            )
            if ready_s is None:
                print("hearth: the stack did not become ready; see the messages above", flush=True)
                return 1
            print(f"hearth: ready in {ready_s:.1f} s — Ctrl-C stops everything", flush=True)
            return up.supervisor.run_until_stopped()
    except LaunchRefused as refused:
        return refused.exit_code


def _mind_line(settings: Settings) -> str:
    if settings.llm_configured:
        return f"mind: {settings.llm_model} at {settings.llm_base_url or 'api.openai.com'}"
    return "mind: offline heuristic mind (not an LLM; set HEARTH_LLM_MODEL to use a model)"


def cmd_api(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from service.app import create_app

    _observe(settings)
    with running_stack(settings) as stack:
        if not check_space(stack.settings):
            return MISMATCH_EXIT
        s = stack.settings
        uvicorn.run(
            create_app(s),
            host=args.host or s.api_host,
            port=args.port or s.api_port,
            log_config=None,
            access_log=False,
        )
    return 0


def _observe(settings: Settings, level: str | None = None) -> None:
    """Logging as configured, and metrics in this host's shared folder (`db.metrics`)."""
    configure_logging(settings.log_format, level or settings.log_level)
    use_directory(settings.metrics_folder)


def cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    queues = ",".join(q.strip() for q in args.queues.split(",") if q.strip())
    _observe(settings, args.loglevel)
    with running_stack(settings) as stack:
        if not check_space(stack.settings):
            return MISMATCH_EXIT
        _export(stack)
        app = make_celery(
            redis_url=stack.redis_url, visibility_timeout_s=stack.settings.visibility_timeout_s
        )
        name = f"{queues.replace(',', '+')}@%h"
        app.worker_main(
            [
                "worker",
                "-Q",
                queues,
                "-c",
                str(args.concurrency),
                "-n",
                name,
                "--loglevel",
                args.loglevel or "WARNING",
            ]
        )
    return 0


def cmd_beat(args: argparse.Namespace, settings: Settings) -> int:
    configure_logging(settings.log_format, args.loglevel or settings.log_level)
    with running_stack(settings) as stack:
        _export(stack)
        app = make_celery(redis_url=stack.redis_url, sweep_interval_s=args.interval)
        schedule = stack.settings.home / "beat-schedule"
        schedule.parent.mkdir(parents=True, exist_ok=True)
        app.start(["beat", "-s", str(schedule), "--loglevel", args.loglevel or "WARNING"])
    return 0


def _export(stack: Stack) -> None:
    """Worker processes read settings from the environment after forking."""
    import os

    os.environ.update(stack.child_env())


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    with running_stack(settings, need_redis=False) as stack:
        if args.action == "upgrade":
            migrate.upgrade(stack.database_url, args.revision or "head")
            if stack.settings.analyst_password:
                migrate.set_analyst_password(stack.database_url, stack.settings.analyst_password)
            migrate.set_analyst_timeout(
                stack.database_url, stack.settings.analyst_statement_timeout_s
            )
        elif args.action == "downgrade":
            migrate.downgrade(stack.database_url, args.revision or "-1")
        else:
            migrate.check(stack.database_url)
    return 0


def cmd_sql(args: argparse.Namespace, settings: Settings) -> int:
    with running_stack(settings, need_redis=False) as stack:
        url = analyst_url(stack.database_url, stack.settings.analyst_database_url)
        try:
            columns, rows = run_query(
                url, args.query, timeout_s=stack.settings.analyst_statement_timeout_s
            )
        except sa.exc.DBAPIError as exc:
            message = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            print(f"hearth sql: {message}", file=sys.stderr)
            print(
                "hearth sql: the analyst role reads only the views memory_stream, "
                "reflection_evidence, plan_tree, dialogue, relationships_now, llm_usage",
                file=sys.stderr,
            )
            return 1
        print(render(columns, rows, fmt=args.format, full=args.full) if columns else "OK")
    return 0


def cmd_ping(args: argparse.Namespace, settings: Settings) -> int:
    """Exit 0 when a worker on the queue runs a ping task in time (a container health check)."""
    if settings.redis_url is None:
        print("hearth ping: needs HEARTH_REDIS_URL", file=sys.stderr)
        return 2
    app = make_celery(redis_url=settings.redis_url)
    try:
        answer = app.send_task(jobs.PING.name, queue=args.queue).get(timeout=args.timeout)
    except Exception as exc:  # timeout or broker error: either way, not healthy
        print(f"hearth ping: no worker on '{args.queue}' answered ({type(exc).__name__})")
        return 1
    print(f"hearth ping: {args.queue} answered from pid {answer['pid']} on {answer['host']}")
    return 0


def cmd_status(args: argparse.Namespace, settings: Settings) -> int:
    from service.status import collect_status

    with running_stack(settings) as stack:
        for line in collect_status(stack):
            print(line)
    return 0


def cmd_openapi(args: argparse.Namespace, settings: Settings) -> int:
    from service.openapi_export import openapi_text

    sys.stdout.write(openapi_text(settings))
    return 0


def cmd_reembed(args: argparse.Namespace, settings: Settings) -> int:
    with running_stack(settings, need_redis=False) as stack:
        return run_reembed(stack.settings, batch_size=args.batch_size)


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from hearth_client.demo.drive import DemoConfig

    from service.demo import demo

    config = DemoConfig(
        hours=args.hours, step_minutes=args.step_minutes, settle_s=args.settle, agents=args.agents
    )
    return demo(settings, config, keep=args.keep)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hearth", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="run the whole stack on this machine")
    up.add_argument("--ready-timeout", type=float, default=120.0)
    up.set_defaults(func=cmd_up)

    api = sub.add_parser("api", help="run the HTTP API")
    api.add_argument("--host")
    api.add_argument("--port", type=int)
    api.set_defaults(func=cmd_api)

    worker = sub.add_parser("worker", help="run a Celery worker")
    worker.add_argument("--queues", default="fast,slow", help="comma-separated: fast, slow")
    worker.add_argument("--concurrency", type=int, default=2)
    worker.add_argument("--loglevel", help="default: HEARTH_LOG_LEVEL")
    worker.set_defaults(func=cmd_worker)

    beat = sub.add_parser("beat", help="run the periodic world sweep")
    beat.add_argument("--interval", type=float, default=None, help="seconds between sweeps")
    beat.add_argument("--loglevel", help="default: HEARTH_LOG_LEVEL")
    beat.set_defaults(func=cmd_beat)

    db = sub.add_parser("db", help="database migrations")
    db.add_argument("action", choices=["upgrade", "downgrade", "check"])
    db.add_argument("revision", nargs="?")
    db.set_defaults(func=cmd_db)

    sql = sub.add_parser("sql", help="query the analyst views as hearth_analyst")
    sql.add_argument("query")
    shape = sql.add_mutually_exclusive_group()
    shape.add_argument(
        "--csv",
        dest="format",
        action="store_const",
        const="csv",
        help="print CSV (a header row, cells never cut)",
    )
    shape.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="print a JSON array of objects (cells never cut)",
    )
    sql.add_argument("--full", action="store_true", help="table cells are not cut")
    sql.set_defaults(format="table")
    sql.set_defaults(func=cmd_sql)

    ping = sub.add_parser("ping", help="check that a worker consumes a queue")
    ping.add_argument("--queue", choices=["fast", "slow"], default="fast")
    ping.add_argument("--timeout", type=float, default=5.0)
    ping.set_defaults(func=cmd_ping)

    reembed = sub.add_parser("reembed", help="re-embed every memory with the configured embedder")
    reembed.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        help="memories per transaction",
    )
    reembed.set_defaults(func=cmd_reembed)

    demo = sub.add_parser("demo", help="run the 25-agent demo town and report on it")
    demo.add_argument("--hours", type=float, default=12.0, help="game hours to run")
    demo.add_argument("--step-minutes", type=int, default=15, help="game minutes per step")
    demo.add_argument(
        "--settle", type=float, default=20.0, help="seconds a step may wait for the workers to plan"
    )
    demo.add_argument(
        "--agents",
        type=_positive,
        default=None,
        help="only the town's first N characters (default: all 25)",
    )
    demo.add_argument(
        "--keep", action="store_true", help="keep the stack serving after the report, until Ctrl-C"
    )
    demo.set_defaults(func=cmd_demo)

    status = sub.add_parser("status", help="what is running and stored")
    status.set_defaults(func=cmd_status)

    openapi = sub.add_parser(
        "openapi", help="print the OpenAPI document (clients are made from it)"
    )
    openapi.set_defaults(func=cmd_openapi)

    add_model_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = load_settings()
    func: Command = args.func
    return func(args, settings)


if __name__ == "__main__":
    sys.exit(main())
