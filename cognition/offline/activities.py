"""Activity templates: the 5–15 minute steps that make up everyday activities.

The paper decomposes "wake up and complete the morning routine" into "waking up and stretching
(5 min), brushing teeth (5 min), …". Offline, each template lists such steps with a typical
duration; a plan item picks the template whose keywords it mentions. A step may contain
"{task}", replaced by the item's own description, so a directive ("invite everyone to the
party") survives into the actions instead of dissolving into generic busywork.
"""

from __future__ import annotations

from dataclasses import dataclass

from cognition.offline.news.gathering import names_in
from cognition.offline.text import stems


@dataclass(frozen=True)
class Step:
    """One action of a template and its typical length in minutes (5–15)."""

    description: str
    minutes: int


@dataclass(frozen=True)
class Template:
    """Steps for an activity, chosen when an item mentions one of the keywords."""

    name: str
    keywords: frozenset[str]
    steps: tuple[Step, ...]
    repeat_from: int = 0
    """Where the steps start over when the item outlasts them (one wakes up only once)."""

    def step(self, index: int) -> Step:
        """The index-th step, cycling over the repeatable tail once the steps run out."""
        if index < len(self.steps):
            return self.steps[index]
        tail = self.steps[self.repeat_from :]
        return tail[(index - len(self.steps)) % len(tail)]


def _template(name: str, keywords: str, *steps: tuple[str, int], repeat_from: int = 0) -> Template:
    steps_ = tuple(Step(d, m) for d, m in steps)
    return Template(name, frozenset(stems(keywords)), steps_, repeat_from)


SLEEP = _template("sleep", "sleep sleeping bed asleep nap", ("sleeping", 15))
"""Sleep is decomposed like everything else, into 15-minute "sleeping" actions."""

GENERIC = _template(
    "generic",
    "",
    ("get ready to {task}", 5),
    ("{task}", 15),
    ("take a short break", 5),
    ("{task}", 15),
    ("tidy up", 10),
    repeat_from=1,
)
"""Used when no keyword matches: the item's own words carry the meaning. It opens with
getting ready, so even a short item's actions break it down rather than repeat it."""

TEMPLATES: tuple[Template, ...] = (
    SLEEP,
    _template(
        "morning routine",
        "wake routine",
        ("waking up and stretching", 5),
        ("using the bathroom and brushing teeth", 10),
        ("taking a shower", 10),
        ("getting dressed", 5),
        ("making breakfast", 10),
        ("eating breakfast", 15),
        ("checking the plans for the day", 5),
        ("tidying the room", 10),
        ("reading the news", 10),
        repeat_from=7,
    ),
    _template(
        "party",
        "party invite invitation celebration gathering guests host",
        ("greeting people as they arrive", 10),
        ("{task}", 15),
        ("chatting with guests", 15),
        ("refilling drinks and snacks", 10),
        ("{task}", 15),
        ("thanking people for coming", 5),
        repeat_from=1,
    ),
    _template(
        "party guest",
        "",
        ("arriving and saying hello to the host", 5),
        ("chatting with the other guests", 15),
        ("getting a drink and something to eat", 10),
        ("talking and laughing with friends", 15),
        ("dancing to the music", 10),
        repeat_from=1,
    ),
    _template(
        "coffee out",
        "",
        ("ordering a coffee at the counter", 5),
        ("drinking coffee and reading the paper", 15),
        ("chatting with other customers", 10),
        ("drinking coffee by the window", 15),
        repeat_from=1,
    ),
    _template(
        "drink out",
        "",
        ("ordering a drink at the bar", 5),
        ("having a drink", 15),
        ("chatting with the regulars", 15),
        repeat_from=1,
    ),
    _template(
        "groceries",
        "",
        ("picking up a basket", 5),
        ("choosing groceries from the shelves", 15),
        ("paying at the counter", 5),
        ("chatting with the shopkeeper", 10),
        repeat_from=1,
    ),
    _template(
        "notices",
        "",
        ("reading the notices on the board", 10),
        ("sitting by the fountain", 15),
        ("watching people pass by", 10),
        repeat_from=1,
    ),
    _template(
        "eating out",
        "",
        ("looking at the menu and ordering", 5),
        ("eating", 15),
        ("chatting over the meal", 10),
        ("finishing up and paying", 5),
        repeat_from=1,
    ),
    _template(
        "meal",
        "lunch dinner breakfast meal eat cook supper",
        ("preparing ingredients", 10),
        ("cooking", 15),
        ("setting the table", 5),
        ("eating", 15),
        ("washing the dishes", 10),
        ("wiping down the kitchen", 5),
        repeat_from=3,
    ),
    _template(
        "cafe",
        "cafe coffee counter barista customers serve",
        ("opening the register and checking supplies", 10),
        ("brewing coffee", 10),
        ("serving customers at the counter", 15),
        ("wiping down the counter and tables", 10),
        ("restocking cups and pastries", 10),
        ("chatting with regular customers", 10),
        repeat_from=1,
    ),
    _template(
        "pharmacy",
        "pharmacy pharmacist prescription medicine medication",
        ("checking incoming prescriptions", 10),
        ("filling prescriptions", 15),
        ("advising a customer about their medication", 10),
        ("restocking the shelves", 10),
        ("updating patient records", 10),
    ),
    _template(
        "study",
        "studies class classes college lecture homework exam student course",
        ("reviewing lecture notes", 15),
        ("reading the textbook", 15),
        ("taking notes", 10),
        ("working through practice problems", 15),
        ("taking a short break", 5),
    ),
    _template(
        "research",
        "research paper thesis article writing write draft",
        ("reading sources", 15),
        ("taking notes on the sources", 10),
        ("drafting a section", 15),
        ("revising the draft", 15),
        ("stretching and refilling the tea", 5),
    ),
    _template(
        "painting",
        "paint painting painter canvas easel art artist sketch studio",
        ("setting up the easel and paints", 10),
        ("sketching the composition", 15),
        ("mixing colours", 5),
        ("painting", 15),
        ("painting the details", 15),
        ("stepping back to look at the canvas", 5),
        ("cleaning the brushes", 5),
        repeat_from=1,
    ),
    _template(
        "bar",
        "bar bartender pub drinks tavern",
        ("checking the taps and glasses", 10),
        ("pouring drinks for customers", 15),
        ("chatting with patrons at the bar", 15),
        ("washing glasses", 10),
        repeat_from=1,
    ),
    _template(
        "shop",
        "shop store market supply sell hardware grocer grocery ironmonger chandlery newsagent "
        "boutique bookshop butcher bakery baker stall",
        ("opening the shop", 5),
        ("helping customers", 15),
        ("restocking the shelves", 10),
        ("ringing up purchases", 10),
        ("tidying the displays", 10),
        repeat_from=1,
    ),
    _template(
        "walk",
        "walk stroll park jog run",
        ("putting on shoes", 5),
        ("walking", 15),
        ("stopping to look around", 5),
        ("walking back", 15),
        repeat_from=1,
    ),
    _template(
        "leisure",
        "relax leisure unwind read book music rest free evening",
        ("reading a book", 15),
        ("listening to music", 15),
        ("making a cup of tea", 5),
        ("writing in a journal", 10),
        ("getting ready for bed", 10),
    ),
)
"""Checked in order; the first template sharing a keyword with the item wins."""


MEAL_WORDS: frozenset[str] = frozenset(stems("lunch dinner breakfast meal eat supper"))


OUTINGS: tuple[tuple[str, str], ...] = (
    ("have a coffee", "coffee out"),
    ("have a drink", "drink out"),
    ("buy groceries", "groceries"),
    ("read the notices", "notices"),
)
"""A customer's outing (the planner's errands) is not the job done at the same place."""


HOST_LEADS = ("hold ", "host ", "get ready for ")
"""How an organiser's plan names its own gathering (`cognition.offline.news.gathering`)."""
OCCUPATIONS = frozenset({"cafe", "pharmacy", "study", "research", "painting", "bar", "shop"})
"""Templates that are someone's job: used for an agent's work only when its own occupation
names them (a fisherman does not check the taps and glasses on the quay)."""
GUEST_LEADS = ("go to ", "attend ", "join ", "stop by ", "drop by ", "come to ", "head to ")
"""How a guest's plan names a party it goes to; the host's says host, invite, prepare…"""


def template_for(text: str, *, away: bool = False) -> Template | None:
    """The first template whose keywords the text mentions, or None; a meal `away` from home
    is eaten out (no one cooks at a cafe table), an outing is a customer's, and a party one
    goes to is a guest's (the host greets people as they arrive)."""
    lowered = text.lower()
    outing = next((name for lead, name in OUTINGS if lowered.startswith(lead)), None)
    mentioned = stems(text)
    party = next(t for t in TEMPLATES if t.name == "party")
    occasion = bool(party.keywords & mentioned) or bool(names_in(text))
    if lowered.startswith(GUEST_LEADS) and occasion:
        outing = "party guest"
    elif occasion and lowered.startswith(HOST_LEADS):
        outing = "party"
    if away and mentioned & MEAL_WORDS:
        outing = "eating out"
    if outing is not None:
        return next(t for t in TEMPLATES if t.name == outing)
    return next((t for t in TEMPLATES if t.keywords & mentioned), None)
