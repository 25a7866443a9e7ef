"""Count tokens as the served model does, offline: its own tokenizer, read from its GGUF file.

`hearth model fetch` leaves the GGUF (Qwen2.5-Coder-1.5B-Instruct) in `$HEARTH_HOME/models`.
Its header holds the tokenizer: the byte-level BPE vocabulary and merges and the name of the
pre-tokenizer (`qwen2`). Rebuilt here with the `tokenizers` wheel already installed (nothing
is downloaded), it encodes "Hello world" as the model does ([9707, 1879]). The chat template
adds `CHAT_OVERHEAD` tokens to a system and a user message.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from tokenizers import Regex, Tokenizer, models, pre_tokenizers

QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
"""llama.cpp's `qwen2` pre-tokenizer: how text is split before the merges."""
CHAT_OVERHEAD = 13
"""Qwen's ChatML around a system and a user message and the assistant's turn:
`<|im_start|>` ×3 and `<|im_end|>` ×2, the three role names, five newlines."""
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q"}
_SCALARS[12] = "d"
_STRING, _ARRAY = 8, 9


def load(path: Path) -> Callable[[str], int]:
    """A token counter for text, from the GGUF at `path` (a gpt2-style BPE with the qwen2
    pre-tokenizer; anything else is refused rather than miscounted)."""
    meta = _tokenizer_metadata(path)
    if meta.get("tokenizer.ggml.model") != "gpt2" or meta.get("tokenizer.ggml.pre") != "qwen2":
        raise ValueError(f"{path}: not a qwen2 byte-level BPE tokenizer")
    tokens: list[str] = meta["tokenizer.ggml.tokens"]
    merges = [tuple(m.split(" ", 1)) for m in meta["tokenizer.ggml.merges"]]
    tokenizer = Tokenizer(models.BPE({t: i for i, t in enumerate(tokens)}, merges))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(QWEN2_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def _tokenizer_metadata(path: Path) -> dict[str, Any]:
    """The `tokenizer.*` keys of a GGUF header (format version 2 or 3)."""
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ValueError(f"{path}: not a GGUF file")
        _read(f, "I"), _read(f, "Q")  # version, tensor count
        found: dict[str, Any] = {}
        for _ in range(_read(f, "Q")):
            key = _string(f)
            value = _value(f, _read(f, "I"))
            if key.startswith("tokenizer.ggml."):
                found[key] = value
        return found


def _read(f: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize("<" + fmt)
    return struct.unpack("<" + fmt, f.read(size))[0]


def _string(f: BinaryIO) -> str:
    return f.read(_read(f, "Q")).decode("utf-8", "replace")


def _value(f: BinaryIO, kind: int) -> Any:
    if kind == _STRING:
        return _string(f)
    if kind == _ARRAY:
        inner, count = _read(f, "I"), _read(f, "Q")
        return [_value(f, inner) for _ in range(count)]
    return _read(f, _SCALARS[kind])
