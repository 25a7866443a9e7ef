"""A persona's daily rhythm read from its own prose: when it works, where, and what else.

`daily_plan_requirement` is written by a designer as a sentence of clauses:

    "Junie opens The Copper Kettle at 7am and works at the counter until late afternoon"
    "Eleanor teaches her history seminar at 10am, holds office hours after lunch, and writes
     at home in the evening"
    "Grace teaches a pottery class at Wren College on Wednesday afternoons"

Each clause becomes a `Duty`: a bare verb phrase ("open The Copper Kettle"), the place words it
names, and a span read from its time words:

    at 7am / from 1pm to 5pm / until 9pm     the stated times ("works from 1pm" is a start)
    in the morning                           from the end of the morning routine to noon
    in the late morning                      10:00–12:00
    in the afternoon / after lunch           13:00–17:00 (after lunch: 13:00–15:00)
    in the early afternoon                   13:00–15:00
    until late afternoon                     ends at 17:00
    in the evening / at night                after dinner until bedtime
    at first light / at dawn                 from the end of the morning routine
    most of the day / during the day         from the morning to 17:00
    on Wednesdays / on Friday nights         only on that weekday

A clause's verb is any English verb right after the persona ("Nino milks", from lemminflect's
lexicon), a time said first is read as if said last ("Afternoons he sits …", "At first light
Segundo rows out …"), hours may be words ("until half past four") and a bare hour comes after
the hours said before it ("serves lunches to four, and shuts the doors at eight" is 8 pm).
A sentence that opens with someone else ("The company boat collects Matías …, and he works …")
starts at the persona's own subject.

A clause with a start and no end followed by one with an end and no start is one stretch of
work ("opens … at 7am and works … until late afternoon" is 7:00–17:00). A clause with no time
word at all is not a duty (it is a habit, "visits the library more often than he needs to").
"with lunch at home" / "a long lunch at home" set where and how long lunch is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from cognition.grammar import bare, base_form, verb_lemma
from cognition.offline.clock import (
    EVENING_START,
    MINUTES_PER_DAY,
    MINUTES_PER_HOUR,
    find_times,
    numeric_times,
)
from cognition.offline.text import NAME_WORD, sentences

MORNING_END = 12 * MINUTES_PER_HOUR
AFTERNOON_START = 13 * MINUTES_PER_HOUR
LATE_AFTERNOON = EVENING_START
LATE_MORNING = 10 * MINUTES_PER_HOUR
EARLY_AFTERNOON_END = 15 * MINUTES_PER_HOUR
DINNER_TIME = 18 * MINUTES_PER_HOUR
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
EVENING = "evening"
"""A span marker resolved by the planner: after dinner until bedtime."""
MORNING = "morning"
"""A span marker resolved by the planner: after the morning routine until noon."""

_SPANS: tuple[tuple[re.Pattern[str], object, object], ...] = tuple(
    (re.compile(pattern, re.I), start, end)
    for pattern, start, end in (
        (r"\b(?:in the )?late morning\b", LATE_MORNING, MORNING_END),
        (r"\b(?-i:first light|dawn|daybreak|sunrise)\b", MORNING, None),
        (r"\b(?:in the |every |each )?mornings?\b", MORNING, MORNING_END),
        (r"\b(?:in the )?early afternoon\b", AFTERNOON_START, EARLY_AFTERNOON_END),
        (r"\buntil late afternoon\b", None, LATE_AFTERNOON),
        (r"\bafter lunch\b", AFTERNOON_START, EARLY_AFTERNOON_END),
        (r"\b(?:in the |every |each )?afternoons?\b", AFTERNOON_START, LATE_AFTERNOON),
        (r"\b(?:in the |every |each |most |on \w+ )?(?:evenings?|nights?)\b", EVENING, EVENING),
        (r"\b(?:most of|during) the day\b", MORNING, LATE_AFTERNOON),
    )
)
"""Time words → (start, end): minutes, a marker the planner resolves, or None (unstated)."""
_WEEKDAY = re.compile(r"\bon ((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b", re.I)
_LONG_LUNCH = re.compile(r"\b(long|late) lunch\b", re.I)
_LUNCH_AT_HOME = re.compile(r"\blunch at home\b", re.I)
_TIME_WORDS = re.compile(
    r"\s*\b(?:(?:at|around|from|until|till|through to|through|to|by|before|after)\s+)?"
    r"(?:(?:about|around)\s+)?"
    r"(?:\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?|noon|midnight)\b"
    r"|\s*\b(?:at|around|about|from|until|till|by|before|after) midday\b"
    r"|\s*\b(?:(?:at|from|by|before|after|until|till) )?(?-i:first light|dawn|daybreak|sunrise)\b"
    r"|\s*\b(?:mornings|afternoons|evenings)\b"
    r"|\s*\b(?:in the |every |each |most |some |on \w+ |at )(?:late |early )?"
    r"(?:mornings?|afternoons?|evenings?|nights?)\b"
    r"|\s*\buntil the evening\b"
    r"|\s*\b(?:until|till) late afternoon\b|\s*\bafter lunch\b|\s*\b(?:most of|during) the day\b"
    r"|\s*\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days?\b"
    r"|\s*,?\s*with (?:a )?(?:long |late )?lunch at home\b",
    re.I,
)
_BREAK = re.compile(r"\s*,?\s*\bwith (?:a|an|one) (?:\w+ )?(?:break|pause|rest|stop)\b.*$", re.I)
"""A pause inside a duty, said with it: no part of what the duty is or where it happens."""


def _without_break(text: str) -> str:
    """`text` without a pause said inside it ("works on the old tower from 9 until four with a
    break for lunch at Chartolani House"); a clause that is only the pause ("…, with a lunch
    break at The Copper Kettle from 12pm") is left whole: it is the meal's own duty."""
    found = _BREAK.search(text)
    if found is None or len(text[: found.start()].split()) < BREAK_AFTER_WORDS:
        return text
    return text[: found.start()]


BREAK_AFTER_WORDS = 3
"""Words before "with a break" that make a duty of their own (more than subject and verb)."""
_SUBJECT = re.compile(rf"^(?:[Hh]e|[Ss]he|[Tt]hey|{NAME_WORD}(?:\s+{NAME_WORD}(?=\s+[a-z]))?)\s+")
_CLAUSE_SPLIT = re.compile(r";|,\s*(?:and\s+)?|\s+and\s+")


@dataclass(frozen=True)
class Duty:
    """Something the persona does at a stated time of day (or, `flexible`, sometime by day)."""

    activity: str
    """A bare verb phrase: "open The Copper Kettle and work at the counter"."""
    start: int | str | None
    """Minutes after midnight, MORNING / EVENING (the planner resolves them), or None."""
    end: int | str | None
    weekday: int | None = None
    """0 = Monday; None = every day."""
    context: str = ""
    """The clause with its asides ("this month mostly in the Wren College library"): where
    the duty happens is read from it."""

    @property
    def flexible(self) -> bool:
        """No stated time: done in whatever daytime the stated duties leave."""
        return self.start is None and self.end is None

    def applies_on(self, weekday: int) -> bool:
        return self.weekday is None or self.weekday == weekday


@dataclass(frozen=True)
class Rhythm:
    """The duties of a persona and how it takes lunch."""

    duties: tuple[Duty, ...]
    lunch_at_home: bool = False
    long_lunch: bool = False


@dataclass
class _Clause:
    text: str
    context: str
    opening: str = ""
    """What the sentence said before the persona's own clauses ("On Tuesdays nobody goes to
    sea, so he …"): its weekday holds for them."""


def rhythm(requirement: str) -> Rhythm:
    """The persona's duties from its `daily_plan_requirement` (module docstring)."""
    duties: list[Duty] = []
    for sentence in _sentences(_PARENTHESIS.sub(" ", requirement)):
        latest: int | None = None  # "… serves lunches to four, and shuts the doors at eight"
        for clause in _clauses(sentence.rstrip(".;")):
            duty = _duty(clause, after=latest)
            if duty is not None:
                duties.append(duty)
                latest = max(
                    (t for t in (duty.start, duty.end, latest) if isinstance(t, int)), default=None
                )
    duties = _joined(duties)
    return Rhythm(
        duties=tuple(duties),
        lunch_at_home=bool(_LUNCH_AT_HOME.search(requirement)),
        long_lunch=bool(_LONG_LUNCH.search(requirement)),
    )


def _sentences(text: str) -> list[str]:
    """The text's sentences and semicolon-parts; an initial's stop ends none ("L.P. School")."""
    parts: list[str] = []
    for part in sentences(text, at_semicolons=True):
        if parts and re.search(r"\b[A-Z]\.$", parts[-1]):
            parts[-1] += f" {part}"
        else:
            parts.append(part)
    return parts


def _clauses(sentence: str) -> list[_Clause]:
    """The sentence's clauses, each starting with a verb (see `_piece`). A sentence that
    opens with what someone else does ("The company boat collects Matías at 7:15, and he
    works …") starts at the persona's own subject; one that never names it ("the Courier
    goes out on Fridays") has none."""
    clauses: list[_Clause] = []
    opening: list[str] = []
    sentence = ", ".join(_time_last(chunk) for chunk in _with_when(_COMMA.split(sentence)))
    for separator, said in _pieces(sentence):
        piece = _LINK.sub("", said)  # "…, then sits at the shed", "…, so he spends …"
        stated = _SUBJECT.match(piece) is not None
        words = _SUBJECT.sub("", piece).split()
        own_verb = bool(words) and _starts_with_verb(words, stated=stated)
        if own_verb and (clauses or stated):
            clauses.append(_Clause(piece, piece, " ".join(opening)))
        elif not clauses:
            opening.append(piece)  # not something the persona does
        elif _has_span(piece) and _has_span(clauses[-1].text):
            verb = _SUBJECT.sub("", clauses[-1].text).split()[0]
            clauses.append(_Clause(f"{verb} {piece}", f"{verb} {piece}"))  # "and at home …"
        elif separator == "and":
            clauses[-1].text += f" and {piece}"  # "lectures and lab sessions"
            clauses[-1].context += f" and {piece}"
        else:
            clauses[-1].context += f", {piece}"  # an aside: "where Noor works"
    return clauses


def _starts_with_verb(words: list[str], *, stated: bool) -> bool:
    """Whether a clause's first word is its verb: a verb of the grammar's own list, or any
    English verb in the third person right after the persona ("Nino milks", "Thay Duc
    chants") or before its object (", and bags the catch"); not a plural noun ("mends tools
    and walls at home")."""
    if base_form(words[0]) is not None:
        return True
    third_person = words[0].endswith("s") and verb_lemma(words[0]) is not None
    after = words[1].lower() if len(words) > 1 else ""
    return third_person and (stated or after in _OBJECT_STARTS)


_OBJECT_STARTS = frozenset(
    ["a", "an", "the", "his", "her", "their", "my", "our", "its", "some", "this", "that", "these"]
)
"""Words that open a verb's object: "… and lands the catch" is a verb, "tools and walls at
home" a noun."""


_LINK = re.compile(r"^(?:then|so)\s+")
_COMMA = re.compile(r"(?<=,)\s*")
_PARENTHESIS = re.compile(r"\s+[—–]\s+[^—–]*\s+[—–](?=\s)")
"""An aside between dashes ("… at the Iglesia — sweeping the nave, … — until about noon")."""


_FRONTED = re.compile(
    rf"^(?P<when>[^,—–]+?),?\s+(?P<rest>(?:[Hh]e|[Ss]he|[Tt]hey|{NAME_WORD}(?:\s+{NAME_WORD})?)"
    r"\s+[a-z].*)$"
)
_WHEN_WORDS = re.compile(
    r"\b(?:mornings?|afternoons?|evenings?|nights?|noon|midday|lunch|dinner|supper|breakfast"
    r"|dawn|dusk|daybreak|sunrise|sunset|first light|\d|o['’]clock|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|eleven|twelve|weekdays?|weekends?)\b",
    re.I,
)


def _with_when(chunks: list[str]) -> list[str]:
    """Comma-parts with a part that only says when joined to the next ("Mornings, Abelino
    is at the Iglesia …")."""
    joined: list[str] = []
    for chunk in chunks:
        if joined and _ONLY_WHEN.match(joined[-1]):
            joined[-1] = f"{joined[-1].rstrip(' ,')} {chunk}"
        else:
            joined.append(chunk)
    return joined


_ONLY_WHEN = re.compile(
    r"^(?:(?:in the|on|at|after|before|most|every|each|early|late)\s+)*"
    r"(?:mornings?|afternoons?|evenings?|nights?|weekdays|weekends|lunch|dawn|first light)\s*,$",
    re.I,
)


def _time_last(piece: str) -> str:
    """A clause that opens with when ("At first light Segundo rows out …", "Afternoons he
    sits …", "from about eleven until two he sorts …") said subject first, when last."""
    lead = re.match(r"^\s*(?:and|then|but|so)\s+", piece)
    opening, piece = (lead[0], piece[lead.end() :]) if lead else ("", piece)
    fronted = _FRONTED.match(piece)
    if fronted is None or not _WHEN_WORDS.search(fronted["when"]):
        return opening + piece
    rest, when = fronted["rest"].rstrip(" ,"), fronted["when"]
    verb = _SUBJECT.sub("", rest).split()
    if not verb or not _starts_with_verb(verb, stated=True):
        return opening + piece
    if any(verb_lemma(w) and w.endswith("s") for w in when.split()[1:]):
        return opening + piece  # "The company boat collects Matías …": someone else's
    ending = "," if fronted["rest"].rstrip().endswith(",") else ""
    return f"{opening}{rest} {when[0].lower()}{when[1:]}{ending}"


def _pieces(sentence: str) -> list[tuple[str, str]]:
    """(separator before it, piece) for the parts between commas and "and"s."""
    parts = re.split(r"(,\s*and\s+|,\s*|\s+and\s+)", sentence)
    pieces: list[tuple[str, str]] = []
    separator = ""
    for part in parts:
        if re.fullmatch(r",\s*and\s+|,\s*|\s+and\s+", part):
            separator = "comma" if part.strip().startswith(",") else "and"
        elif part.strip():
            pieces.append((separator, part.strip()))
    return pieces


def _has_span(text: str) -> bool:
    return _span(text) != (None, None)


def _duty(clause: _Clause, *, after: int | None = None) -> Duty | None:
    """One clause as a duty (flexible when it states no time); a bare hour is the first such
    hour after `after`, the latest time the sentence has said so far."""
    start, end = _span(clause.text, after=after)
    weekday = _WEEKDAY.search(clause.text) or _WEEKDAY.search(clause.opening)
    activity = _activity(clause.text)
    if not activity:
        return None
    day = WEEKDAYS.index(weekday[1].lower()) if weekday else None
    context = _without_break(clause.context)  # where the pause is, the duty is not
    return Duty(activity=activity, start=start, end=end, weekday=day, context=context)


def _span(clause: str, *, after: int | None = None) -> tuple[int | str | None, int | str | None]:
    """The clause's stated times, or its time words' span."""
    numeric = numeric_times(clause)  # "five in the afternoon" is 5 pm, not the afternoon
    times = find_times(numeric)
    lowered = clause.lower()
    if re.search(r"\buntil the evening\b", lowered):
        return _span_start(clause), DINNER_TIME
    if times:
        first = _daytime(times[0].minutes, times[0].ambiguous, after=after, later=True)
        if len(times) > 1:
            fixed_end = None if times[1].ambiguous else times[1].minutes
            if times[0].ambiguous and fixed_end is not None and first - 720 < fixed_end <= first:
                first -= 720  # "from 6 to noon": the morning's six
            return first, _daytime(times[1].minutes, times[1].ambiguous, after=first)
        if _UNTIL.search(lowered):  # "until about noon", perhaps after "Mornings"
            return next((_typed(a) for p, a, _ in _SPANS if p.search(numeric)), None), first
        return first, None
    for pattern, start, end in _SPANS:
        if pattern.search(clause):
            return _typed(start), _typed(end)
    return None, None


def _span_start(clause: str) -> int | str | None:
    """The start stated before an "until the evening" (else the morning)."""
    start, _ = _span(re.sub(r"\buntil the evening\b", "", clause, flags=re.I))
    return start if start is not None else MORNING


def _typed(value: object) -> int | str | None:
    return value if isinstance(value, (int, str)) else None


_UNTIL = re.compile(r"\b(?:until|till|by|through to)\s+\S+")


def _daytime(
    minutes: int, ambiguous: bool, after: int | str | None = None, *, later: bool = False
) -> int:
    """A bare hour in a working day: "until 5" is 5 pm; an end at or before its start is
    later the same day (a bare hour) or past midnight ("from 4pm to midnight"). With `later`,
    a bare hour before `after` is the evening's if that comes after it ("… to four, and shuts
    the doors at eight"), else as it is."""
    if ambiguous and minutes < 7 * MINUTES_PER_HOUR:
        minutes += 12 * MINUTES_PER_HOUR
    if later:
        evening = minutes + 720
        if ambiguous and isinstance(after, int) and minutes < after < evening < MINUTES_PER_DAY:
            return minutes + 720
        return minutes
    if isinstance(after, int) and minutes <= after:
        if ambiguous and minutes < 12 * MINUTES_PER_HOUR:
            return minutes + 12 * MINUTES_PER_HOUR
        return minutes + 24 * MINUTES_PER_HOUR
    return minutes


def _activity(clause: str) -> str:
    """The clause as a bare verb phrase without its subject and time words."""
    text = _SUBJECT.sub("", clause.strip())
    text = re.sub(r"\b(?:his|her|their) (morning|afternoon|evening)s\b", r"the \1", text)
    text = re.sub(r"\s+(?:whenever|if|when|as often as)\b.*$", "", text)
    text = _without_break(text)  # "works on the tower … with a break for lunch at home"
    text = _TIME_WORDS.sub("", numeric_times(text))
    text = re.sub(r"\s+,", ",", " ".join(text.split())).strip(" ,.")
    if not text or not _starts_with_verb(text.split(), stated=True):
        return ""
    words = text.split()
    for i, word in enumerate(words):  # verbs the grammar does not list: their base form
        first_or_joined = i == 0 or words[i - 1] == "and"
        verb_here = i == 0 or (i + 1 < len(words) and words[i + 1] in _OBJECT_STARTS)
        if first_or_joined and verb_here and base_form(word) is None and word.endswith("s"):
            words[i] = verb_lemma(word) or word  # "sorts and bags the catch"
    return bare(" ".join(words))


def _joined(duties: list[Duty]) -> list[Duty]:
    """A start-only duty followed by an end-only one is one stretch ("opens … and works …"); a
    bare verb with no time shares the object and hours of the duty after it ("sweeps and opens
    San Roque Chapel from 5:30am to 6:30am"); "there" is where the duty before it is ("… and
    leads the rosary there from 6pm")."""
    result: list[Duty] = []
    for duty in duties:
        previous = result[-1] if result else None
        if previous is not None and duty.activity.endswith(" there"):
            where = _where(previous.activity)
            if where is not None:
                duty = replace(duty, activity=f"{duty.activity[: -len(' there')]} at {where}")
        if (
            previous is not None
            and previous.start is None
            and previous.end is None
            and len(previous.activity.split()) == 1
            and duty.start is not None
            and previous.weekday == duty.weekday
        ):
            object_ = duty.activity.split(" ", 1)[1] if " " in duty.activity else ""
            both = f"{previous.activity} and {duty.activity.split(' ', 1)[0]} {object_}".strip()
            result[-1] = replace(duty, activity=both)
        elif (
            previous is not None
            and previous.end is None
            and duty.start is None
            and duty.end is not None
            and previous.weekday == duty.weekday
        ):
            result[-1] = replace(
                previous, activity=f"{previous.activity} and {duty.activity}", end=duty.end
            )
        else:
            result.append(duty)
    return result


_NAMED_PLACE = re.compile(
    r"\b[a-z]+ (?P<place>(?:the )?(?:[A-Z][\w'’-]*\s?)+)$"
    r"|\b(?:at|in) (?P<plain>the [a-z][\w'’ -]*)$"
)


def _where(activity: str) -> str | None:
    """The named place an activity is at or acts on ("open San Roque Chapel", "cook in the
    school kitchen at Ysgol Cwmdulas"), for a "there" after it."""
    found = _NAMED_PLACE.search(activity)
    return (found["place"] or found["plain"]).strip() if found else None
