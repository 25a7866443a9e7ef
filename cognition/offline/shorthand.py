"""Casual and formal shorthand written out, so one reader reads a text message and a notice.

People text "quiz night at the legion fri 7ish!!", "corn boil tmrw @ the park", and notices
say "Sept. 18th, from 9:00 a.m. until 12:00 noon". The news readers know weekdays and months
by their capitalised names and times by "at 7" or "7 pm"; this writes the shorthand out
first ("Friday", "tomorrow", "at", "around 7", "September 18th", "noon"), leaving every other
word as it was. An abbreviated weekday that is also a word ("sat", "sun", "wed") is read as a
day only beside a time or after "on", "this", "next", "till" or "until".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cognition.offline.text import folded

_DAYS = {
    "mon": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "wed": "Wednesday",
    "weds": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "fri": "Friday",
    "sat": "Saturday",
    "sun": "Sunday",
}
_FULL_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = {
    "jan": "January",
    "feb": "February",
    "mar": "March",
    "apr": "April",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "sept": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
_FULL_MONTHS = (
    "january february april june july august september october november december".split()  # noqa: SIM905
)
"""Month names written in lower case that are no other word ("may" and "march" are)."""
_ABBREVIATED_DAY = "|".join(sorted(_DAYS, key=len, reverse=True))
_DAY_AFTER_WORD = re.compile(
    rf"\b(on|this|next|till|until|from|by)\s+({_ABBREVIATED_DAY})\b\.?", re.I
)
_DAY_BEFORE_TIME = re.compile(
    rf"\b({_ABBREVIATED_DAY})\b\.?(?=,?\s*(?:(?:around|about|at|from)\s+\d|\d|noon\b|midday\b|night\b|morning\b|"
    r"afternoon\b|evening\b))",
    re.I,
)

_HOURS = "one two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905
_HOUR_WORDS = "|".join(_HOURS)


def _half_past(match: re.Match[str]) -> str:
    hour = match[1].lower()
    return f"at {_HOURS.index(hour) + 1 if hour in _HOURS else hour}:30"


_REWRITES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # a label before a notice ("NOTICE:", "Reminder:", "FYI -")
    (
        re.compile(
            r"^\s*(?:notice|reminder|fyi|psa|update|heads up|announcement|please note)"
            r"\s*[:\-–—!]+\s*",
            re.I,
        ),
        "",
    ),
    # "Re:" before what a circular is about
    (re.compile(r"(?:^|(?<=[.!?]\s))(?:re|RE|Re)\s*:\s*"), ""),
    # a greeting before a text ("hey", "hiya all,")
    (
        re.compile(
            r"^\s*(?:hey|hi|hiya|oi|yo|hello)(?: (?:all|everyone|folks|guys|you))?\b[!,.]*\s+", re.I
        ),
        "",
    ),
    # a filler before a text ("ok so", "so", "alright,")
    (
        re.compile(
            r"^\s*(?:(?:ok|okay|alright|um+|uh+)\b[ ,!.]*(?:so\b[ ,]*)?|(?:so|well|right),\s*)"
            r"(?=\S)",
            re.I,
        ),
        "",
    ),
    (re.compile(r"\b(?:tmrw|tmw|tmrrw|tomoz|2moro|2morrow|tomorow)\b", re.I), "tomorrow"),
    (re.compile(r"\b(?:tonite|2nite)\b", re.I), "tonight"),
    (re.compile(r"\bthis arvo\b", re.I), "this afternoon"),
    (re.compile(r"\barvo\b", re.I), "afternoon"),
    (re.compile(r"(?<=\w) ?@ ?(?=[\w'’])|(?<=\s)@ ?(?=[\w'’])"), " at "),
    # "St." written in lower case
    (re.compile(r"\bst\.(?= [a-z])"), "St."),
    # "12:00 noon", "12 noon", "12 midnight": the word alone
    (re.compile(r"\b12(?::00)?\s*(?:p\.?m\.?\s*)?\(?(noon|midday)\)?", re.I), r"\1"),
    (re.compile(r"\b12(?::00)?\s*(?:a\.?m\.?\s*)?\(?(midnight)\)?", re.I), r"\1"),
    # "7ish", "7-ish", "7.30ish": around that hour
    (
        re.compile(r"\b(?:at\s+|around\s+|about\s+)?(\d{1,2}(?:[:.]\d{2})?)\s*-?ish\b", re.I),
        r"around \1",
    ),
    # "a.m." and "p.m.": no full stops to be read as a sentence's end, unless one ends there
    (re.compile(r"\b([aApP])\.\s?[mM]\.(?=\s+[A-Z]|\s*$)"), r"\1m."),
    (re.compile(r"\b([ap])\.\s?m\.?(?!\w)", re.I), r"\1m"),
    # "half 6", "half seven start" said alone: half past
    (
        re.compile(
            rf"(?<=\s)half ({_HOUR_WORDS}|\d{{1,2}})\b(?=\s*(?:$|[!.,;?)]|[ap]m\b|tonight|"
            r"tomorrow|on\b|at\b|in\b|then\b|till\b|until\b|to\b|start\b|-|–))",
            re.I,
        ),
        _half_past,
    ),
    # "first thing, about seven": seven in the morning
    (
        re.compile(
            r"\bfirst thing(?: in the morning)?,?\s+(?:about|around|at)\s+"
            rf"({_HOUR_WORDS}|\d{{1,2}})\b",
            re.I,
        ),
        lambda m: f"around {_HOURS.index(m[1].lower()) + 1 if m[1].lower() in _HOURS else m[1]} am",
    ),
    # "8 till late": from 8
    (
        re.compile(r"\b(\d{1,2}(?::\d{2})?)\s*(?:till|til|until|to|-|–)\s*late\b", re.I),
        r"from \1",
    ),
    # "6.30pm", "6.30 p.m.", "6.30 start", "7.30-10am", "at 6.30": a clock time with a dot
    (re.compile(r"\b(\d{1,2})\.(\d{2})\s*(?=[ap]\.?\s?m\b)", re.I), r"\1:\2 "),
    (
        re.compile(
            r"(?<![$£€\d.])\b(\d{1,2})\.([0-5]\d)\b(?=\s*(?:-|–|to\b|till\b|until\b|start\b|"
            r"at\b|$|[,;!]|\.(?:\s|$)))",
            re.I,
        ),
        r"\1:\2",
    ),
    (re.compile(r"(?<=\b(?:at|to|by) )(\d{1,2})\.([0-5]\d)\b"), r"\1:\2"),
    (re.compile(r"(?<=\b(?:from|till) )(\d{1,2})\.([0-5]\d)\b"), r"\1:\2"),
    (re.compile(r"(?<=\buntil )(\d{1,2})\.([0-5]\d)\b"), r"\1:\2"),
)


def written_out(text: str) -> str:
    """The text with its shorthand for days, dates and times written out (module docstring)."""
    text = _LOAN_DAY.sub(_loan_day, text)
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    text = _CAPITALS.sub(_uncapitalised, text)
    text = _MONTH_ABBREVIATION.sub(lambda m: _MONTHS[m[1].lower()], text)
    text = _FULL_MONTH.sub(lambda m: m[0].capitalize(), text)
    text = _FULL_DAY.sub(lambda m: m[0].capitalize(), text)
    text = _DAY_AFTER_WORD.sub(lambda m: f"{m[1]} {_DAYS[m[2].lower()]}", text)
    text = _PLAIN_DAY.sub(lambda m: _DAYS[(m[1] or m[2]).lower()], text)
    text = _SPAN_MERIDIEM.sub(_span_meridiem, text)
    text = _DAY_BEFORE_TIME.sub(lambda m: _DAYS[m[1].lower()], text)
    return _DOTTED_AFTER_DAY.sub(r"\1:\2", text)


_LOAN_DAYS = {
    **dict.fromkeys(("manana", "demain", "domani", "amanha"), "tomorrow"),
    **dict.fromkeys(("hoy", "aujourd'hui", "oggi", "hoje"), "today"),
    **dict.fromkeys(("esta noche", "ce soir", "stasera", "hoje a noite"), "tonight"),
    **dict.fromkeys(("lunes", "lundi", "lunedi", "segunda-feira"), "Monday"),
    **dict.fromkeys(("martes", "mardi", "martedi", "terca-feira"), "Tuesday"),
    **dict.fromkeys(("miercoles", "mercredi", "mercoledi", "quarta-feira"), "Wednesday"),
    **dict.fromkeys(("jueves", "jeudi", "giovedi", "quinta-feira"), "Thursday"),
    **dict.fromkeys(("viernes", "vendredi", "venerdi", "sexta-feira"), "Friday"),
    **dict.fromkeys(("sabado", "samedi"), "Saturday"),
    **dict.fromkeys(("dimanche", "domenica"), "Sunday"),
}
"""Days said in Spanish, French, Italian or Portuguese inside English ("Mañana sábado, we're
doing …"), as towns where English is not the first language say them. "Domingo" and "Sabato"
are left out, and a capitalised word without its accent is kept (`_loan_day`): they are also
names."""
_LOAN_DAY = re.compile(
    r"(?<![\w'’])(?:"
    + "|".join(
        sorted(
            {
                *(re.escape(k) for k in _LOAN_DAYS),
                "ma[nñ]ana",
                "mi[eé]rcoles",
                "s[aá]bado",
                "luned[iì]",
                "marted[iì]",
                "mercoled[iì]",
                "gioved[iì]",
                "venerd[iì]",
                "amanh[aã]",
                "ter[cç]a-feira",
                "hoje [aà] noite",
            },
            key=len,
            reverse=True,
        )
    )
    + r")(?![\w'’])",
    re.I,
)


def _loan_day(match: re.Match[str]) -> str:
    """A loan word for a day in English, unless it is capitalised without its accent: a
    name ("Manana Kaldani" is a Georgian woman, "Mañana sábado" is tomorrow, Saturday)."""
    word = match[0]
    if word[:1].isupper() and word.isascii():
        return word
    return _LOAN_DAYS[folded(word)]


_PLAIN_DAY = re.compile(
    r"\b(tues?|thu|thur|thurs|fri|weds)\b\.?"
    r"|\b(sat|sun|mon|wed)\.(?=,?\s+(?:\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)))",
    re.I,
)
"""Abbreviated weekdays that are no other word ("fri", "thurs"), and those that are ("sat",
"sun") when a full stop marks them as shortened before a date ("Sat. Oct. 11")."""
_SPAN_MERIDIEM = re.compile(
    r"\b(\d{1,2})(:\d{2})?(\s*(?:-|–|to|till|until)\s*)(\d{1,2})(:\d{2})?\s*([ap]m)\b", re.I
)


def _span_meridiem(match: re.Match[str]) -> str:
    """ "7:30-10am" is 7:30 am to 10 am: a span's start takes its end's am or pm when it
    comes before it on the same half of the clock ("11-2pm" is left as it is)."""
    start, end = int(match[1]) % 12, int(match[4]) % 12
    meridiem = f" {match[6]}" if start <= end else ""
    return f"{match[1]}{match[2] or ''}{meridiem}{match[3]}{match[4]}{match[5] or ''} {match[6]}"


_CAPITALS = re.compile(r"\b[A-Z][A-Z'’-]*[A-Z](?:[ \t]+[A-Z][A-Z'’-]*[A-Z])*\b")
"""Words in capitals: shouted in a text ("carrom FINAL tonight") or a notice's title."""
_SMALL_WORDS = frozenset("at the of on in and for to a an by".split())  # noqa: SIM905


def _uncapitalised(match: re.Match[str]) -> str:
    """A shouted word in lower case ("FINAL" → "final"), a title in capitals in title case
    ("FENWICK STREET BLOCK ASSOCIATION"); acronyms of three letters or fewer ("BBQ", "RSL",
    "CWA") stay as they are."""
    found = match[0].split()
    if len(found) == 1:
        return found[0].lower() if len(found[0]) >= 5 else found[0]
    return " ".join(
        w.lower() if w.lower() in _SMALL_WORDS else w.capitalize() if len(w) >= 4 else w
        for w in found
    )


_DOTTED_AFTER_DAY = re.compile(r"(?<=day )(\d{1,2})\.([0-5]\d)\b")
"""A clock time with a dot after its day ("Thursday 6.30")."""


_MONTH_ABBREVIATION = re.compile(
    rf"\b({'|'.join(_MONTHS)})\.?(?=\s+\d{{1,2}}(?:st|nd|rd|th)?\b)", re.I
)
"""A month shortened before its day ("Sept. 18th", "oct 9")."""
_FULL_MONTH = re.compile(rf"\b(?:{'|'.join(_FULL_MONTHS)})\b")
_FULL_DAY = re.compile(rf"\b(?:{'|'.join(_FULL_DAYS)})\b")
