"""The offline mind: deterministic heuristics standing in for a language model.

THIS IS NOT AN LLM. `OfflineMind` implements every operation of `cognition.mind.Mind` with
word-level rules, so a town keeps living — remembering, reflecting, planning, moving, talking —
when no model is configured or the configured one fails. It is labelled "offline-heuristic"
in the audit. Same inputs give the same outputs: there is no randomness, and any choice among
equals is derived from a SHA-256 of the input text.

The rules, one module each:

- `importance` — poignancy 1–10 from vocabulary: grave/major/notable events up, routine down,
  other people, emotion words and exclamations up.
- `reflection` — questions about the most frequently mentioned subjects; insights aggregate
  statements sharing a fact and cite exactly those statements.
- `planning` (+ `clock`, `occupations`) — wake and bed times from the lifestyle; a routine of
  morning routine, work, lunch, work, dinner, free time and sleep; directives at their stated
  times; 5–8 contiguous items from wake-up.
- `decomposition` (+ `activities`) — hour chunks and 5–15 minute actions tiling a plan item
  exactly, worded from activity templates.
- `places` — location by word overlap with place paths (with synonyms, deeper preferred),
  object states and emoji from keyword tables.
- `reacting` — deal with alarming object states; greet known people not talked to lately.
- `relationships` — sentiment from polar words around neutral 5; a summary quoting statements.
- `dialogue` (+ `voice`) — greeting, a retold memory, the intent in words, a closing line;
  interview answers retell the memories most related to the question, citing them.
- `summary` — the paper's five-line agent summary from the core/occupation/feeling retrievals.
"""

from cognition.offline.mind import OFFLINE_MODEL, OfflineMind

__all__ = ["OFFLINE_MODEL", "OfflineMind"]
