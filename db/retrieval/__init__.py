"""Retrieval: an agent's top k by the paper's score, exactly `cognition.retrieval.rank`.

The map, from the entry point down:

- `top_k`: `search` (which path answers), `touch`, `brute_force` (the reference), `load_memories`.
- `in_process`: the answer from the process's copy of the agent's rows (`vector_cache`), the
  default path; `vector_cache` keeps that copy current by transaction-id marks; `shortlist`
  picks the rows `rank` must see, from int8 estimates (`quantized`) and then float32 ones.
- `in_sql`: the answer from PostgreSQL when the agent is not cached: `probe` (what the stats
  and probe statement tells: exact extremes, the query, how relevance may be estimated, the
  search's `Givens`), `statements` (the SQL), `cuts` (what the pass captures, repair
  windows), `candidates` (what has been seen, the k-th best bound, survivors).
- `bounds`: the error bounds both fast paths prune with; `trace`: what a search did.
"""

from db.retrieval.top_k import brute_force, load_memories, search, touch
from db.retrieval.trace import SearchTrace

__all__ = ["SearchTrace", "brute_force", "load_memories", "search", "touch"]
