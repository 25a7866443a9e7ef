"""Conversation without a model: lines composed from facts, so they read as plain English.

A line is built from *moves*, each a sentence whose every slot is a name, a fact the speaker
knows (`knowledge`: an event, a candidacy, rendered by the fact itself) or an activity in the
progressive (`grammar.progressive`). Nothing the speaker remembers is pasted into a line, so a
line cannot quote another, nest quotes, or say "you are sleep".

    greeting       the speaker's first line: "Good morning, Tomas!", or to a stranger
                   "Hello! I don't think we've met. I'm Junie."
    reply          to the listener's last line: an invitation is accepted ("I'd love to come!
                   See you at the chapel at noon.") or, rarely, declined; news is welcomed
                   in the words of its kind or recognised; "how are you" and "what are you
                   up to" are answered with what the speaker is doing
    topic          something new, never raised before in this conversation: the most salient
                   news the speaker knows — its own first, as its kind pitches it ("My
                   wedding is at St. Brigid's chapel on May 12 at noon. Would you like to
                   come?"), then what it heard, with whom from ("Ines told me that the old
                   mill bridge is cracked and unsafe."), else the intent said aloud, a
                   question about the listener's day, or small talk
    closing        after LONG_CONVERSATION lines (one more when the speaker still has news
                   to tell, the closing line then answering it first), after a goodbye, or
                   when there is nothing left to say; it names the event when one was
                   agreed on

So news spreads without a model: an agent who heard of the party tells the next person it
talks to, and a guest who accepted says so — which the conversation's notes turn into plans.
Variety comes from the persona's style (`voice`) and a stable choice among phrasings keyed by
the two names and the turn (never Python's `hash`), so a town is the same on every run; a
line the speaker already said in this conversation, or that its memories hold it said lately,
is phrased again another way, and one that cannot be (said the same way every time) gives way
to a goodbye.

Interview answers work the same way (`cognition.offline.answers`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from cognition.grammar import is_progressive, progressive
from cognition.offline import knowledge
from cognition.offline.facts import spoken_days
from cognition.offline.knowledge import Fact
from cognition.offline.news import gathering, kind_of, report
from cognition.offline.text import NAME_WORD, first_name, mentions, same_person, stable_index, stems
from cognition.offline.voice import styled, vocative
from cognition.perception import UNAPPROACHABLE
from cognition.types import Persona, Utterance

LONG_CONVERSATION = 6
"""Lines after which the speaker wraps up, as people do when a chat has run its course."""
DECLINE_ONE_IN = 8
"""One invitation in this many is declined (chosen stably by names and event)."""
MAX_CITED = 3
REPHRASINGS = 4
"""Tries at a line the speaker has not said before (each shifts every stable choice)."""

GOODBYE = re.compile(
    r"\b(bye|goodbye|see you soon|see you later|see you around|take care|talk later|"
    r"have to go|get back to)\b",
    re.I,
)
INVITATION = re.compile(
    r"\b(would you like to come|will you come|you should come|want to come|hope you can come|"
    r"come along|join us|will you go|can you make it)\b",
    re.I,
)
ACCEPTED = re.compile(
    r"\b(i'd love to|i would love to|count me in|i'll be there|i will be there|wouldn't miss|"
    r"would not miss|see you there|see you at)\b",
    re.I,
)
DECLINED = re.compile(r"\b(can't make it|cannot make it|don't think i can|won't be able)\b", re.I)
HOW_ARE_YOU = re.compile(
    r"\b(how are you|how have you been|how's it going|how are things|how's your day|"
    r"how is your day|how's everything|how's life|how are you keeping)\b",
    re.I,
)
WHAT_DOING = re.compile(
    r"\b(what are you up to|what are you working on|what brings you|what have you been up to)\b",
    re.I,
)
INTENT_INVITE = re.compile(r"\binvite\b", re.I)
INTENT_TELL = re.compile(r"\b(tell|share|ask|chat|talk|say hello|say hi|greet|catch up)\b", re.I)
MORNING_END, AFTERNOON_END = 12, 18


@dataclass
class Talk:
    """One conversation as the speaker sees it when it is their turn."""

    me: Persona
    you: str
    intent: str
    history: Sequence[tuple[str, str]]
    known: list[Fact] = field(default_factory=list)
    """What the speaker knows, most salient first (own news before heard news)."""
    sources: dict[str, str] = field(default_factory=dict)
    """News key → who the speaker heard it from."""
    firsthand: set[str] = field(default_factory=set)
    """Keys of the news the speaker knew before anyone told them."""
    shared: set[str] = field(default_factory=set)
    """Topics (`topic_of`) the two already raised in an earlier conversation: told once is
    enough, or a host invites the same guest at every meeting."""
    acquainted: bool = True
    now: datetime | None = None
    status: str = ""
    """What the listener is doing."""
    doing: str = ""
    """What the speaker was doing before the conversation."""
    place: str = ""
    salt: int = 0
    """Shifts every stable choice: a line already said is phrased again another way."""

    @property
    def mine(self) -> list[str]:
        return [text for who, text in self.history if same_person(who, self.me.name)]

    @property
    def last_theirs(self) -> str:
        if self.history and not same_person(self.history[-1][0], self.me.name):
            return self.history[-1][1]
        return ""

    def key(self, *parts: object) -> str:
        """What a choice of words turns on: who speaks to whom, when (the same two meeting
        again another hour do not say the same things), and how far into the talk."""
        hour = f"{self.now:%Y-%m-%d %H}" if self.now is not None else ""
        turn = str(len(self.history))
        return "|".join([self.me.name, self.you, hour, turn, str(self.salt), *map(str, parts)])

    def choose(self, options: Sequence[str], *parts: object) -> str:
        return options[self.variant(len(options), *parts)]

    def variant(self, n: int, *parts: object) -> int:
        return stable_index(self.key(*parts), n)

    def news_of(self, text: str, speaker: str) -> list[Fact]:
        return knowledge.spoken_news(text, speaker=speaker, now=self.now)

    def raised(self, news: Fact) -> bool:
        """Whether either side already raised this news here, by its key or as another name
        for the same gathering ("the fish fry" and "the fry evening", same hall and hour)."""
        said = [n for who, text in self.history for n in self.news_of(text, who)]
        return any(n.key == news.key or gathering.same_occasion(n, news) for n in said)


def next_utterance(
    *,
    speaker: Persona,
    listener: str,
    intent: str,
    memories: Sequence[str],
    history: Sequence[tuple[str, str]],
    relationship: str = "",
    now: datetime | None = None,
    listener_status: str = "",
    speaker_status: str = "",
    place: str = "",
    known_by_world: bool = False,
) -> Utterance:
    """The speaker's next line by the moves of the module docstring, never one it already
    said in this conversation or that its memories hold it said lately. `known_by_world`: the
    world's record says the two have talked before (no introductions then)."""
    talk = Talk(
        me=speaker,
        you=listener,
        intent=intent,
        history=history,
        acquainted=True,
        now=now,
        status=_one_activity(listener_status),
        doing=_one_activity(speaker_status),
        place=place,
    )
    spoken_here = {text for _, text in history}
    earlier = [m for m in memories if (h := knowledge.said(m)) is None or h.text not in spoken_here]
    talk.acquainted = known_by_world or _acquainted(speaker, relationship, earlier, listener)
    talk.known, talk.sources, talk.firsthand = _known_news(speaker.name, earlier, now)
    talk.shared = shared_topics(speaker.name, listener, earlier, now=now)
    said_before = {*talk.mine, *_said_by(speaker.name, memories)}
    line = _line(talk)
    for salt in range(1, REPHRASINGS):
        if line.text not in said_before:
            return line
        line = _line(replace(talk, salt=salt))
    if line.text in said_before and talk.mine:  # nothing new to say in this talk: take leave
        style = talk.me.speaking_style
        line = Utterance(styled(_closing(talk), style, vocative=vocative(style)), True)
    return line


def _one_activity(action: str) -> str:
    """What someone is doing now, of an action that names two in turn ("buy groceries at the
    post office; then tend the flock again"): the first."""
    return re.split(r";\s*(?:then\s+)?", action.strip(), maxsplit=1)[0].strip()


def _line(talk: Talk) -> Utterance:
    composed = _composed(talk)
    line = replace(composed, text=_homes_as_said(composed.text, talk))
    if talk.now is None:
        return line
    return replace(line, text=spoken_days(line.text, talk.now))


_HOMES = "house|place|home|flat|farm|yard|garden"
"""What someone's home is called ("Marisol Yupanqui Ccori's house"): `_homes_as_said`."""


def _homes_as_said(text: str, talk: Talk) -> str:
    """A home named by its owner's name as the speaker says it to the listener: Marisol's
    "at Marisol Yupanqui Ccori's house" is "at my house", and said to her "at your house"
    (the news reads "my house" back as the speaker's, `gathering`)."""
    for name, word in ((talk.me.name, "my"), (talk.you, "your")):
        names = "|".join(re.escape(n) for n in sorted({name, first_name(name)}, key=len)[::-1])
        owner = re.compile(rf"(?P<start>^|(?<=[.!?] ))?\b(?:{names})['’]s (?=(?:{_HOMES})\b)")
        text = owner.sub(partial(_owned, word), text)
    return text


def _owned(word: str, match: re.Match[str]) -> str:
    return f"{word.title() if match['start'] is not None else word} "


def _composed(talk: Talk) -> Utterance:
    style = talk.me.speaking_style
    lines = len(talk.history)
    if lines >= LONG_CONVERSATION + 1 and not GOODBYE.search(talk.last_theirs):
        # a chat kept going for news: answer it, then take leave
        said = [p for p in (_reply(talk), _closing(talk)) if p]
        return Utterance(styled(" ".join(said), style, vocative=vocative(style)), True)
    if GOODBYE.search(talk.last_theirs) or (lines >= LONG_CONVERSATION and not _news_left(talk)):
        return Utterance(styled(_closing(talk), style, vocative=vocative(style)), True)
    parts = [_greeting(talk)] if not talk.mine else []
    reply = _reply(talk)
    topic = _topic(talk)
    if talk.mine and not topic and not reply:
        return Utterance(styled(_closing(talk), style, vocative=vocative(style)), True)
    said = [p for p in (*parts, reply, topic) if p]
    return Utterance(styled(" ".join(said), style), False)


def _news_left(talk: Talk) -> bool:
    """The speaker still knows news worth telling that neither side has raised: a chat runs
    one line past its usual length for it, as people linger over gossip."""
    return any(
        not talk.raised(n) and _worth_telling(n, talk) and _tell(talk, n) for n in talk.known
    )


def _said_by(name: str, memories: Sequence[str]) -> set[str]:
    """Lines the memories hold that `name` said (the retrieved ones: its latest with this
    listener among them)."""
    return {
        heard.text
        for memory in memories
        if (heard := knowledge.said(memory)) is not None and same_person(heard.speaker, name)
    }


def _greeting(talk: Talk) -> str:
    you = first_name(talk.you)
    if not talk.acquainted:
        me = first_name(talk.me.name)
        introduced = _introduction(talk.last_theirs)
        if introduced:
            return talk.choose(
                [f"Nice to meet you, {introduced}. I'm {me}.", f"Lovely to meet you! I'm {me}."],
                "met",
            )
        if mentions(talk.last_theirs, me):  # they know me: no flat "we've never met"
            return f"Hello! I'm sorry, have we met? I'm {me}."
        return talk.choose(
            [
                f"Hello! I don't think we've met. I'm {me}.",
                f"Hi there! I'm {me}. I don't think we've been introduced.",
            ],
            "stranger",
        )
    hour = talk.now.hour if talk.now else MORNING_END
    daypart = (
        "morning" if hour < MORNING_END else "afternoon" if hour < AFTERNOON_END else "evening"
    )
    return talk.choose(
        [
            f"Good {daypart}, {you}!",
            f"Hi {you}!",
            f"Hello, {you}!",
            f"Hey, {you}!",
            f"Oh, hello {you}!",
            f"Good to see you, {you}!",
        ],
        "greet",
    )


def _introduction(line: str) -> str | None:
    """The name a stranger just gave ("I'm Junie.")."""
    match = re.search(rf"\bI'm ({NAME_WORD})\b", line)
    return match[1] if match else None


def _reply(talk: Talk) -> str:
    """The response to the listener's last line (module docstring); "" when there is none."""
    theirs = talk.last_theirs
    if not theirs:
        return ""
    own = _own_news_told(talk)
    if own is not None:  # told of (or invited to) one's own news: it is one's own
        return kind_of(own).own_reply(own)
    event = _invited_to(talk)
    if event is not None:
        return _answer_invitation(talk, event)
    raised = {topic_of(n) for who, text in talk.history[:-1] for n in talk.news_of(text, who)}
    told = [n for n in talk.news_of(theirs, _their_name(talk)) if topic_of(n) not in raised]
    new = [n for n in told if not _mine(n, talk)]
    if new:
        return kind_of(new[0]).welcome(new[0], listener=talk.you, variant=talk.variant(8, "new"))
    if told:
        return talk.choose(
            ["Yes, I heard about that.", "Yes, I know!", "I'd heard, yes.", "So I've heard."],
            "known",
        )
    if HOW_ARE_YOU.search(theirs):
        return _how_i_am(talk)
    if WHAT_DOING.search(theirs):
        doing = _doing(talk)
        return f"I'm {doing}." if doing else "Not much, to be honest."
    if ACCEPTED.search(theirs):
        return talk.choose(["Wonderful, I'm so glad!", "That's great!", "Lovely!"], "accepted")
    if DECLINED.search(theirs):
        return talk.choose(["No worries, I understand.", "That's a shame, but I understand."], "no")
    if theirs.rstrip().endswith("?"):
        return talk.choose(["I'm not sure, to be honest.", "Hard to say, really."], "unsure")
    return ""


def _own_news_told(talk: Talk) -> Fact | None:
    """The speaker's own news that the listener's last line tells them of (someone who heard
    of a party without its host tells the host)."""
    own = {topic_of(n): n for n in talk.known if n.about(talk.me.name)}
    told = talk.news_of(talk.last_theirs, _their_name(talk))
    return next((own[topic_of(n)] for n in told if topic_of(n) in own), None)


def _invited_to(talk: Talk) -> Fact | None:
    """The gathering the listener's last line invites the speaker to, if it does."""
    if not INVITATION.search(talk.last_theirs):
        return None
    for who, text in reversed(talk.history):
        events = [n for n in talk.news_of(text, who) if n.kind == gathering.NAME]
        if events:
            return None if gathering.is_over(events[0], talk.now) else events[0]
    return None


def _answer_invitation(talk: Talk, event: Fact) -> str:
    """Accept (most of the time) and confirm where and when; or decline kindly."""
    if stable_index(f"{talk.me.name}|{event.key}", DECLINE_ONE_IN) == 0:
        return "I'm sorry, I don't think I can make it, but thank you for asking."
    when = f" at {knowledge.clock_text(event.start_min)}" if event.start_min is not None else ""
    where = f" at {event.place}" if event.place else ""
    return talk.choose(
        [
            f"I'd love to come! I'll see you{where}{when}.",
            f"Count me in! See you{where}{when}.",
            f"I wouldn't miss it. I'll be there{when}.",
        ],
        "accept",
    )


def _how_i_am(talk: Talk) -> str:
    doing = _doing(talk)
    if doing:
        return talk.choose(
            [
                f"I'm well, thanks. I've been busy {doing}.",
                f"Not bad at all! I've been {doing}.",
                f"Pretty good, thanks. Just {doing}.",
            ],
            "well",
        )
    return talk.choose(["I'm well, thanks.", "Not bad, thank you!", "Can't complain."], "well")


def _doing(talk: Talk) -> str:
    """What the speaker was doing, in the progressive ("working at the counter")."""
    for candidate in (talk.doing, talk.intent):
        text = candidate.strip()
        if not text or INTENT_INVITE.search(text) or INTENT_TELL.search(text):
            continue
        if UNAPPROACHABLE.search(text):  # "busy taking a shower" is not small talk
            continue
        said = _in_first_person(progressive(text))
        if said and not said.startswith("busy with"):
            return said
    return ""


INTENT_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\binvite \w+ to (?P<x>.+)", re.I), "Would you like to come to {x}?"),
    (re.compile(r"\bask \w+ to (?P<x>.+)", re.I), "Would you {x}?"),
    (re.compile(r"\btell \w+ about (?P<x>.+)", re.I), "I wanted to tell you about {x}."),
)
"""An opener's intent said aloud when it knows no fact to carry it ({x} is the intent's own
noun or verb phrase, so the sentence around it stays whole)."""


def _topic(talk: Talk) -> str:
    """Something new to say (module docstring), or "": no small talk straight after hearing
    news ("Really? I hadn't heard that. Most days I'm growing early strawberries.")."""
    if not talk.mine and not any(n.about(talk.me.name) for n in talk.known):
        for pattern, template in INTENT_LINES:
            match = pattern.search(talk.intent)
            if match is not None:
                return template.format(x=match["x"].strip().rstrip("."))
    for news in talk.known:
        if talk.raised(news) or not _worth_telling(news, talk):
            continue
        told = _tell(talk, news)
        if told:
            return told
    if not talk.mine and talk.acquainted:
        return talk.choose(
            [
                "How have you been?",
                "What are you up to today?",
                "How's your day going?",
                "How are things with you?",
                "How's everything?",
                "How are you keeping?",
                "What have you been up to?",
                "How's life treating you?",
            ],
            "ask",
        )
    if talk.news_of(talk.last_theirs, _their_name(talk)):
        return ""
    return _small_talk(talk)


_THEIR_DAYS = re.compile(
    r"\b(?:These days I(?:'m| am)|Lately I(?:'ve| have) been|I(?:'ve| have) been [^.!?]+ lately)\b"
)
"""The other side's own small talk: what they are up to these days."""
ANSWERS_TO_THEIR_DAYS = (
    "That sounds like a lot of work.",
    "Good luck with it!",
    "That must keep you busy.",
    "Sounds worthwhile.",
    "I'd like to hear how that goes.",
    "Well, good for you.",
)
"""What one says to what the other is up to these days, once a conversation."""


def _small_talk(talk: Talk) -> str:
    """Once in a conversation each: a word on what the other said they are up to these days
    (answered, not mirrored with one's own), what the speaker is up to these days (its
    `currently`), then a word about what the listener is doing."""
    said = " ".join(talk.mine)
    these_days = _these_days(talk.me)
    if _done(these_days, talk):  # "preparing the annual meeting", the day after it
        these_days = ""
    raised = {topic_of(n) for who, text in talk.history for n in talk.news_of(text, who)}
    retold = {topic_of(n) for n in talk.news_of(f"I'm {these_days}", talk.me.name)} & raised
    about_you = mentions(these_days, talk.you)  # "keeping an eye on Jade", said to Jade
    answered = any(line in said for line in ANSWERS_TO_THEIR_DAYS)
    if _THEIR_DAYS.search(talk.last_theirs) and not answered:  # answer theirs, not mirror it
        return talk.choose(ANSWERS_TO_THEIR_DAYS, "their days")
    if these_days and these_days not in said and not retold and not about_you:
        return talk.choose(
            [
                f"These days I'm {these_days}.",
                f"I've been {these_days} lately.",
                f"Lately I've been {these_days}.",
            ],
            "days",
        )
    status = _yours(progressive(talk.status)) if _about_oneself(talk.status, talk) else ""
    seen = status and status in said
    if status and not status.startswith("busy with") and not seen:
        return talk.choose(  # half open with the doing itself, so no opening is a habit
            [
                f"I see you're {status}.",
                f"Looks like you're {status}.",
                f"You're {status}, I see.",
                f"{status[:1].upper()}{status[1:]}, by the look of it.",
                f"Busy {status}, I see.",
                f"{status[:1].upper()}{status[1:]}, I see.",
            ],
            "seen",
        )
    return ""


_THIRD_PERSON_OWN = re.compile(r"\b(?:his|her|their) (?=[a-z])")


def _yours(status: str) -> str:
    """What the listener is doing, said to them: "working in her studio" is "working in
    your studio"."""
    return _THIRD_PERSON_OWN.sub("your ", re.sub(r"\b(?:him|her|them)self\b", "yourself", status))


def _about_oneself(status: str, talk: Talk) -> bool:
    """A status worth remarking on: an activity of its own, not this very meeting."""
    text = status.strip()
    social = INTENT_INVITE.search(text) or INTENT_TELL.search(text) or _TALKING.search(text)
    private = _PRIVATE.search(text)
    return bool(text) and not social and not private and not mentions(text, talk.me.name)


_TALKING = re.compile(
    r"\b(?:meet|chat\w*|talk\w*|greet\w*|convers\w*|say(?:ing)? (?:hello|hi))\b", re.I
)
"""A status that is talk: the listener "chatting with the other guests" is talking to the
speaker now, so remarking on it reads as if the speaker had not noticed."""

_PRIVATE = re.compile(
    r"\b(?:shower\w*|bath(?:e|es|ing)?|bathroom|toilet|getting (?:un)?dressed|sleep\w*|"
    r"asleep|nap(?:s|ping)?|(?:to|in|for) bed)\b",
    re.I,
)
"""A status nobody remarks on to one's face: "Busy taking a shower, I see" was said across a
kitchen at 7 am."""


def _these_days(persona: Persona) -> str:
    """The first clause of `currently` as an activity of the speaker's, when it reads
    "<name> is …" ("Tomas is practising a new song" → "practising a new song"); "" otherwise."""
    clause = re.split(r";|\. | and (?:is |has )", persona.currently.strip())[0].strip().rstrip(".")
    match = re.match(
        rf"^(?:{re.escape(persona.name)}|{re.escape(first_name(persona.name))}) is (.+)$", clause
    )
    if match is None or '"' in clause:
        return ""
    rest = _first_activity(match[1])
    if not is_progressive(rest.split()[0] if rest.split() else ""):
        return ""
    return _in_first_person(rest)


def _done(activity: str, talk: Talk) -> bool:
    """Whether an activity works towards an occasion the speaker knows has begun."""
    words = stems(activity)
    return any(
        f.kind == gathering.NAME and gathering.is_over(f, talk.now) and stems(f.what) <= words
        for f in talk.known
    )


_HER_AS_OBJECT = re.compile(
    r"\bher\b(?=\s+(?:before|after|for|to|at|in|on|with|by|from|and|or|but|when|if|so|until|"
    r"because|about|back|again|out|up|down|around|over)\b|\s*[,.;!?]|\s*$)"
)
""""Her" as whom something is done to, not whose it is ("what people owe her before …")."""


def _in_first_person(activity: str) -> str:
    """An activity of the speaker's as the speaker says it ("selling his catch" → "selling
    my catch", "opening his shop at Harbour Hall" too); "" when a pronoun may mean someone
    named before it ("helping Priya Raman with her essay")."""
    rest = activity
    pronoun = re.search(r"\b(?:his|her|their|him|them|himself|herself|themselves)\b", rest)
    before = rest[: pronoun.start()] if pronoun else rest
    if not re.search(rf"\b(?:Mr|Mrs|Ms|Dr)\.? |{NAME_WORD} {NAME_WORD}", before):
        rest = re.sub(_HER_AS_OBJECT, "me", rest)  # "collect what people owe her before …"
        rest = re.sub(r"\b(?:his|her|their)\b", "my", rest)
        rest = re.sub(r"\b(?:him|her|them)$", "me", rest)
        rest = re.sub(r"\b(?:himself|herself|themselves)\b", "myself", rest)
    if re.search(r"\b(?:he|she|him|his|her|they|them|himself|herself)\b", rest):
        return ""  # whom a pronoun means is not known here: better unsaid than wrong
    return rest


def _first_activity(text: str) -> str:
    """The progressive activities at the head of `text`, stopping at a clause whose verb is
    not progressive ("building a website and wants to show it" → "building a website")."""
    parts = re.split(r"\s+and\s+", text)
    kept = [parts[0]]
    for part in parts[1:]:
        head = part.split()[0] if part.split() else ""
        if not is_progressive(head):
            break
        kept.append(part)
    return " and ".join(kept)


def _worth_telling(news: Fact, talk: Talk) -> bool:
    """Not news about the listener themselves (they know their own party, and what they are
    named saying: "Dai Pritchard says the museum must move", said to Dai), nor news heard
    from them ("Carys told me that …", said to Carys), nor a gathering that is over, nor news
    the two already raised in an earlier conversation."""
    about_them = news.about(talk.you) or mentions(news.what, talk.you)
    from_them = same_person(talk.sources.get(news.key, ""), talk.you)
    over = gathering.is_over(news, talk.now)
    return not about_them and not from_them and not over and topic_of(news) not in talk.shared


def topic_of(news: Fact) -> str:
    """What makes two mentions the same topic between two people: a gathering by its name
    (a guest's "see you at the party" names no host), other news by its key."""
    return f"gathering|{news.what.casefold()}" if news.kind == gathering.NAME else news.key


def shared_topics(
    name: str, other: str, memories: Sequence[str], *, now: datetime | None = None
) -> set[str]:
    """Topics raised in lines between `name` and `other` among the memories, either way."""
    topics: set[str] = set()
    for memory in memories:
        heard = knowledge.said(memory)
        if heard is None:
            continue
        pair = (same_person(heard.speaker, name) and same_person(heard.listener, other)) or (
            same_person(heard.speaker, other) and same_person(heard.listener, name)
        )
        if pair:
            topics |= {topic_of(n) for n in knowledge.news_in(memory, now=now)}
    return topics


def _tell(talk: Talk, news: Fact) -> str:
    """Share a piece of news: one's own as its kind pitches it, others' as gossip with its
    source."""
    kind = kind_of(news)
    if news.about(talk.me.name):
        return kind.pitch(news, listener=talk.you)
    line = kind.retell(
        news,
        source=talk.sources.get(news.key),
        variant=talk.variant(36, "tell"),
        firsthand=news.key in talk.firsthand,
    )
    return report.in_own_words(line, talk.me.name)


def _closing(talk: Talk) -> str:
    you = first_name(talk.you)
    agreed = _agreed_event(talk)
    if agreed is not None:
        return talk.choose(
            [f"See you at the {agreed.what}, {you}!", f"Until the {agreed.what} then, {you}!"],
            "agreed",
        )
    return talk.choose(
        [
            f"It was good to see you, {you}. Take care!",
            f"I should get back to it. See you soon, {you}!",
            f"Lovely talking with you, {you}. Bye for now!",
            f"Well, I'd better get going. Take care, {you}!",
            f"Nice chatting, {you}. See you around!",
        ],
        "bye",
    )


def _agreed_event(talk: Talk) -> Fact | None:
    """The soonest gathering someone in this conversation agreed to come to: each acceptance
    answers the invitation just before it, and of a supper tonight and a concert tomorrow,
    both accepted, the parting names the supper."""
    agreed: list[Fact] = []
    for index, (_, text) in enumerate(talk.history):
        if ACCEPTED.search(text) and index > 0:
            who, invitation = talk.history[index - 1]
            agreed += [n for n in talk.news_of(invitation, who) if n.kind == gathering.NAME]
    return min(agreed, key=_when_sort_key, default=None)


def _when_sort_key(fact: Fact) -> tuple[int, int, int]:
    """Orders gatherings of known dates by date and hour; unknown parts come last."""
    unknown = 10_000
    return (
        fact.month if fact.month is not None else unknown,
        fact.day if fact.day is not None else unknown,
        fact.start_min if fact.start_min is not None else unknown,
    )


def _known_news(
    name: str, memories: Sequence[str], now: datetime | None
) -> tuple[list[Fact], dict[str, str], set[str]]:
    """What the speaker knows, each once: its own news first, then by importance; who told
    them each; and which they knew before anyone told them (`knowledge.firsthand`, the rule
    planning uses too: the one who knew first goes out to spread it and tells it as theirs)."""
    merged: dict[str, Fact] = {}
    sources: dict[str, str] = {}
    callers: dict[str, str] = {}  # who told news from outside the world ("Roin phoned: …")
    for memory in memories:
        heard = knowledge.said(memory)
        for news in knowledge.news_in(memory, now=now):
            if news.kind == report.NAME and news.weight < report.MIN_WEIGHT:
                continue
            same = next((k for k, m in merged.items() if gathering.same_occasion(m, news)), None)
            key = same or news.key
            merged[key] = merged[key].merged(news) if key in merged else news
            if heard is not None and not same_person(heard.speaker, name):
                sources.setdefault(key, heard.speaker)
            elif news.source and not same_person(news.source, name):
                sources.setdefault(key, news.source)
                callers.setdefault(key, news.source)
            elif news.who and not news.about(name) and news.kind == report.NAME:
                sources.setdefault(key, news.who)
    known_first = knowledge.firsthand(memories, name=name, now=now)
    undated = [f for at, f in knowledge.own_news(memories, name=name, now=now) if at is None]
    first = {key for key, fact in merged.items() if _among(fact, known_first)}
    ordered = sorted(merged.values(), key=lambda n: (not n.about(name), -n.weight))
    told = {  # news known first, or own of unknown time, is credited only to an outside caller
        merged[k].key: v
        for k, v in sources.items()
        if k in merged
        and (callers.get(k) == v or (k not in first and not _among(merged[k], undated)))
    }
    return ordered, told, {merged[k].key for k in first}


def _among(fact: Fact, facts: Sequence[Fact]) -> bool:
    return any(f.key == fact.key or gathering.same_occasion(f, fact) for f in facts)


def _mine(news: Fact, talk: Talk) -> bool:
    """Whether the speaker already knew this news."""
    return any(
        known.key == news.key or gathering.same_occasion(known, news) for known in talk.known
    )


def _their_name(talk: Talk) -> str:
    return talk.history[-1][0] if talk.history else talk.you


def _acquainted(
    speaker: Persona, relationship: str, memories: Sequence[str], listener: str
) -> bool:
    """Known when a relationship is on record, the persona's own story names them, a seed
    says the speaker knows them, or the two have talked before (having only seen someone
    about town is not having been introduced)."""
    if relationship.strip() and not re.search(r"\b(does not|doesn't) know\b", relationship):
        return True
    if mentions(f"{speaker.background} {speaker.currently}", first_name(listener)):
        return True
    knows = re.compile(rf"\bknows {re.escape(listener)}\b")
    if any(knows.search(m) for m in memories):
        return True
    return any(
        (heard := knowledge.said(m)) is not None
        and {first_name(heard.speaker), first_name(heard.listener)}
        == {first_name(speaker.name), first_name(listener)}
        for m in memories
    )
