"""What plain news is about, from `data/topics.txt`: a question that shares no word with a piece
of news may still ask after it by its topic ("people falling sick" and "a fish trader … with the
rice-water stool, vomiting" are both illness).

The topics are a small lexicon of what happens in a place — illness, theft, damage, a death —
rather than a thesaurus: a synonym dictionary (WordNet) would need its data fetched at run time,
and word vectors (the WordLlama embedder's) rank "thief" and "burglar" no closer than unrelated
words, so a question's topic could not be trusted from them.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from cognition.offline.text import stem, words

TOPICS_FILE = "topics.txt"

Entry = tuple[str, ...]
"""The stems of one lexicon entry, in order ("broke into" → ("broke", "into"))."""


@lru_cache(maxsize=1)
def lexicon() -> dict[str, tuple[Entry, ...]]:
    """Each topic with its entries, from the data file."""
    text = resources.files("cognition.offline").joinpath("data", TOPICS_FILE).read_text("utf-8")
    found: dict[str, tuple[Entry, ...]] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        topic, _, entries = line.partition(":")
        found[topic.strip()] = tuple(
            tuple(stem(w) for w in words(entry)) for entry in entries.split(",") if words(entry)
        )
    return found


def topics_of(text: str) -> frozenset[str]:
    """The topics a text speaks of: those with an entry whose words it has, in a row."""
    stemmed = [stem(w) for w in words(text)]
    return frozenset(
        topic
        for topic, entries in lexicon().items()
        if any(_has(stemmed, entry) for entry in entries)
    )


def _has(stemmed: list[str], entry: Entry) -> bool:
    width = len(entry)
    return any(tuple(stemmed[i : i + width]) == entry for i in range(len(stemmed) - width + 1))
