"""What a text costs in tokens when no tokenizer says: ceil(characters / 4), the usual rule of
thumb for English text with GPT-style tokenizers.

Three readers share it: retrieval's token budget (`retrieval.fit_budget`), the offline mind's
audit (what a model would have spent) and the LLM adapter when a server reports no usage. The
audit and the budget only need an order of magnitude.
"""

from __future__ import annotations

import math

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Tokens in `text`: ceil(characters / CHARS_PER_TOKEN)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)
