"""Reflection without a model: salient questions from frequent subjects, insights from repetition.

The paper reflects in two steps: ask "what are the most salient high-level questions about
these records?", then, for each question, "what high-level insights can you infer, citing the
statements?". Offline, salience is frequency and insight is aggregation:

- questions: the subjects mentioned in the most records (people first, then places, then
  recurring nouns) each become a question, shaped by what co-occurs with them: another
  person → "What is A's relationship with B?"; emotion words → "How does A feel about X?";
  otherwise "What is A's relationship with X?" or a variant chosen by a SHA-256 of the subject.
- insights: a *fact* is a content word (or name) shared by two or more statements; each fact
  groups the statements containing it. Groups are ranked by size plus a bonus when the fact is
  a keyword of the question; identical groups are reported once. The text generalises the most
  central statement of the group ("Klaus is working on…" → "Klaus is often working on…"), and
  `cited_indices` are exactly the 1-based indices of the group — never an index out of range,
  and every cited statement contains the fact the insight names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cognition.offline.importance import EMOTION_WORDS
from cognition.offline.text import (
    as_clause,
    content_words,
    is_place,
    mentions,
    people,
    possessive,
    proper_nouns,
    stable_index,
    stem,
    stems,
    unique,
    word_set,
    words,
)
from cognition.types import Insight

MIN_GROUP = 2
"""A fact seen once is a memory, not an insight: aggregation needs at least two statements."""
OFTEN_GROUP = 3
"""From this many supporting statements the insight says "often" rather than "repeatedly"."""
QUESTION_MATCH_BONUS = 3
"""A fact the question asks about outranks a merely frequent one."""
AUX_SEARCH_WINDOW = 6
"""How far into a statement to look for the verb ("is", "has") before the adverb goes in."""

QUESTION_FILLER: frozenset[str] = frozenset(
    stem(w) for w in word_set("relationship feel significance mean involved lately happen usual")
)
GENERIC_FACTS: frozenset[str] = frozenset(
    stem(w)
    for w in word_set(
        """
    said say saw see thought think know want need feel felt lot good new one two told tell
    asked ask also seem seems like well back way
    """
    )
)
"""Words too common in any stream to count as a shared fact."""
AUXILIARIES: frozenset[str] = word_set("is are was were has have had keeps")
PREPOSITIONS: frozenset[str] = word_set(
    "at in on with for to from near after before during by about into"
)

PERSON_TEMPLATES: tuple[str, ...] = (
    "What is {owner} relationship with {topic}?",
    "Why does {subject} care so much about {topic}?",
    "What does {topic} mean to {subject}?",
)


def reflection_questions(records: Sequence[str], n: int) -> list[str]:
    """Up to n questions about the most frequent subjects of the records (fewer if thin)."""
    if n <= 0:
        return []
    questions: list[str] = []
    for subject in _ranked_subjects(records):
        question = _question(subject, records)
        if question not in questions:
            questions.append(question)
        if len(questions) == n:
            break
    return questions


def _ranked_subjects(records: Sequence[str]) -> list[str]:
    """People, then places, then recurring nouns, each by how many records mention them.

    Nouns that occur in exactly the same records ("research" and "paper") are one subject.
    """
    names = Counter(n for r in records for n in unique(proper_nouns(r)))
    order = {name: i for i, name in enumerate(unique(n for r in records for n in proper_nouns(r)))}
    ranked = sorted(names, key=lambda s: (is_place(s), -names[s], order[s]))
    name_stems = {stem(w) for name in names for w in words(name)}
    keywords = _keyword_counts(records, exclude=name_stems)
    seen_sets: set[tuple[int, ...]] = set()
    for keyword, count in keywords.most_common():
        where = tuple(i for i, r in enumerate(records) if stem(keyword) in stems(r))
        if count >= MIN_GROUP and where not in seen_sets:
            seen_sets.add(where)
            ranked.append(keyword)
    return ranked


def _keyword_counts(records: Sequence[str], *, exclude: set[str]) -> Counter[str]:
    """Document frequency of each noun-ish content word, keyed by its first surface form."""
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for record in records:
        for word in unique(content_words(record)):
            key = stem(word)
            if key in exclude or key in GENERIC_FACTS or key in EMOTION_WORDS:
                continue
            counts[surface.setdefault(key, word)] += 1
    return counts


def _question(subject: str, records: Sequence[str]) -> str:
    """One question about the subject, shaped by what co-occurs with it."""
    related = [r for r in records if _mentions_subject(r, subject)]
    if is_place(subject):
        return f"What usually happens at {subject}, and who is there?"
    if not proper_nouns(subject):
        return f"Why does {subject} keep coming up lately?"
    partners = Counter(p for r in related for p in people(r) if not _same_person(p, subject))
    topic = _topic(subject, related)
    partner, together = partners.most_common(1)[0] if partners else (None, 0)
    topic_count = sum(1 for r in related if topic and stem(topic) in stems(r))
    if partner and together >= topic_count:
        return f"What is {possessive(subject)} relationship with {partner}?"
    if topic is None:
        return f"What has {subject} been doing lately?"
    if any(stem(w) in EMOTION_WORDS for r in related for w in words(r)):
        return f"How does {subject} feel about {topic}?"
    template = PERSON_TEMPLATES[stable_index(f"{subject}|{topic}", len(PERSON_TEMPLATES))]
    return template.format(owner=possessive(subject), subject=subject, topic=topic)


def _topic(subject: str, related: Sequence[str]) -> str | None:
    """The content word that most often accompanies the subject."""
    exclude = {stem(w) for name in proper_nouns(" ".join(related)) for w in words(name)}
    exclude |= {stem(w) for w in words(subject)}
    counts = _keyword_counts(related, exclude=exclude)
    nouns = [w for w, _ in counts.most_common() if not w.endswith(("ing", "ed"))]
    return nouns[0] if nouns else None


def _mentions_subject(record: str, subject: str) -> bool:
    if proper_nouns(subject):
        return mentions(record, subject)
    return stem(subject) in stems(record)


def _same_person(a: str, b: str) -> bool:
    return a == b or a.split()[0] == b.split()[0]


def insights(question: str, statements: Sequence[str], n: int) -> list[Insight]:
    """Up to n insights, each aggregating the statements that share one fact."""
    if n <= 0:
        return []
    subject = next(iter(people(question)), None)
    excluded = {stem(w) for w in words(subject)} if subject else set()
    wanted = stems(question) - QUESTION_FILLER - excluded
    groups = _fact_groups(statements, exclude=excluded)
    ranked = sorted(
        groups.items(),
        key=lambda kv: (
            -(len(kv[1]) + QUESTION_MATCH_BONUS * (kv[0] in wanted)),
            _person_named(kv[0], [statements[i - 1] for i in kv[1]]) is not None,
            kv[1],
            kv[0],
        ),
    )
    found: list[Insight] = []
    seen: set[tuple[int, ...]] = set()
    used_central: set[str] = set()
    for fact, cited in ranked:
        group = [statements[i - 1] for i in cited]
        central = _central(group)
        if cited in seen or central in used_central:
            continue  # the same evidence or the same gist: one insight is enough
        seen.add(cited)
        used_central.add(central)
        found.append(Insight(_phrase(fact, len(cited), group, central, subject), cited))
        if len(found) == n:
            break
    return found


def _fact_groups(statements: Sequence[str], *, exclude: set[str]) -> dict[str, tuple[int, ...]]:
    """Stemmed fact → 1-based indices of the statements containing it (two or more)."""
    where: dict[str, list[int]] = {}
    for index, statement in enumerate(statements, start=1):
        for fact in sorted(stems(statement) - exclude - GENERIC_FACTS):
            where.setdefault(fact, []).append(index)
    return {f: tuple(ix) for f, ix in where.items() if len(ix) >= MIN_GROUP}


def _central(group: Sequence[str]) -> str:
    """The statement that best stands for its group: generalisable, sharing the most words."""
    return max(
        group,
        key=lambda s: (
            _insert_adverb(s, "") is not None,
            _centrality(s, group),
            -group.index(s),
        ),
    )


def _phrase(
    fact: str, support: int, group: Sequence[str], central: str, subject: str | None
) -> str:
    """Generalise the group's central statement, or name the shared fact when it cannot."""
    person = _person_named(fact, group)
    if person is not None:
        if (
            subject
            and not _same_person(person, subject)
            and all(mentions(s, subject) for s in group)
        ):
            return f"{subject} and {person} keep crossing paths"
        return f"{person} keeps coming up"
    adverb = "often" if support >= OFTEN_GROUP else "repeatedly"
    generalised = _insert_adverb(_shared_part(central, group), adverb)
    if generalised is not None:
        return generalised
    surface = _surface(fact, group)
    who = subject if subject and all(mentions(s, subject) for s in group) else None
    if who:
        return f"{who} keeps coming back to {surface}"
    return f"{surface[:1].upper()}{surface[1:]} keeps coming up"


def _person_named(fact: str, group: Sequence[str]) -> str | None:
    """The full name of the person the fact word belongs to, if it is part of a name."""
    for statement in group:
        for person in people(statement):
            if fact in {stem(w) for w in words(person)}:
                return person
    return None


def _shared_part(central: str, group: Sequence[str]) -> str:
    """Drop a trailing prepositional phrase that the rest of the group does not share.

    "Klaus is working on his paper at the library" aggregated with two other statements about
    the paper becomes "Klaus is working on his paper": the library was seen only once.
    """
    common = set.intersection(*(stems(s) for s in group))
    tokens = as_clause(central).split()
    last = max((i for i, t in enumerate(tokens) if stem(_bare(t)) in common), default=-1)
    for i in range(last + 1, len(tokens)):
        if tokens[i].lower() in PREPOSITIONS:
            return " ".join(tokens[:i])
    return " ".join(tokens)


def _bare(token: str) -> str:
    return token.strip(".,;!?\"'()").removesuffix("'s").removesuffix("’s")


def _centrality(statement: str, group: Sequence[str]) -> int:
    """How many words a statement shares with the rest of its group."""
    own = stems(statement)
    return sum(len(own & stems(other)) for other in group if other is not statement)


def _insert_adverb(clause: str, adverb: str) -> str | None:
    """ "Klaus is working" → "Klaus is often working"; None when no early auxiliary verb."""
    tokens = clause.split()
    for position, token in enumerate(tokens[:AUX_SEARCH_WINDOW]):
        if position > 0 and token.lower() in AUXILIARIES:
            return " ".join([*tokens[: position + 1], adverb, *tokens[position + 1 :]])
    return None


def _surface(fact: str, group: Sequence[str]) -> str:
    """The fact as it is written in the statements (original case, unstemmed)."""
    for statement in group:
        for token in statement.replace(":", " ").split():
            word = _bare(token)
            if word and stem(word) == fact:
                return word
    return fact
