"""A generated town of any size for `bench.scale`, the same for the same seed.

Households of one to four people live in houses along the town's streets; everyone works at a
workplace of a kind the offline mind knows (cafes, pharmacies, the college, pubs, shops,
gardens, or at home as a writer or painter) and knows their household, a few colleagues and
the places of their day. The map is laid on a grid, so every place has coordinates a game
would report as positions. A thousand residents make about 420 houses and 50 workplaces,
some 3,400 places: the size of a small town, inside the map limit of 5,000.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FIRST_NAMES = _words("""
Ada Alma Amir Ana Arlo Asha Ben Bea Cal Cleo Dara Dev Eli Ella Emil Esme Finn Faye Gus Gia
Hana Hugo Ian Iris Jack Jade Kai Kira Leo Lena Liam Lila Luca Mae Max Mila Nate Nia Noah Nora
Omar Opal Otto Pia Quin Rae Raj Rosa Rui Sam Sana Seth Tara Theo Uma Vera Wade Wren Yara Zane
""")
SURNAMES = _words("""
Abbott Alvarez Bauer Becker Brennan Castillo Chen Dalton Dubois Ekwueme Farrell Fischer
Garcia Haddad Hartley Ibsen Ivanova Jensen Kaur Kowalski Larsen Lindqvist Mendez Moreau
Nakamura Novak Okafor Oliveira Petrov Quinlan Ramos Rossi Sato Schmidt Tanaka Torres Ueda
Varga Walsh Weber Xu Yilmaz Zielinski
""")
STREETS = _words("Elm Oak Birch Maple Cedar Willow Ash Linden Poplar Alder Hazel Rowan")
TRAITS = _words("""
friendly outgoing curious patient stubborn cheerful thoughtful shy generous practical
witty kind organised impulsive calm ambitious gentle talkative careful warm
""")
LEISURE = [
    "loves reading books in the evening",
    "likes an evening walk in the park",
    "plays the guitar for friends",
    "enjoys cooking for the household",
    "spends evenings with friends",
    "plays games after work",
    "",
]
DAY_HOURS = ((6, 22), (6, 23), (7, 23), (7, 22), (6, 21))
LATE_HOURS = ((9, 1), (10, 1), (8, 0))
"""(wake, bed) pairs; 0 and 1 are midnight and 1am. Evening workers keep late hours."""


@dataclass(frozen=True)
class Kind:
    """A kind of workplace: its name pattern, rooms and the job of the people there."""

    pattern: str
    rooms: dict[str, tuple[str, ...]]
    job: str
    hours: str
    staff: int
    """About how many residents work at one."""
    evening: bool = False


KINDS: tuple[Kind, ...] = (
    Kind(
        "{} Cafe",
        {
            "counter": ("coffee machine", "cash register"),
            "kitchen": ("stove",),
            "dining area": ("table",),
        },
        "is a barista at {place}",
        "works at {place} from 7am to 3pm",
        12,
    ),
    Kind(
        "{} Pharmacy",
        {"counter": ("register",), "storeroom": ("shelf",)},
        "is a pharmacist filling prescriptions at {place}",
        "works at {place} from 9am to 5pm",
        10,
    ),
    Kind(
        "{} Supply Store",
        {"shop floor": ("shelf", "register"), "storeroom": ("crate",)},
        "is a shopkeeper at {place}",
        "works at {place} from 8am to 6pm",
        16,
    ),
    Kind(
        "{} Pub",
        {"bar": ("bar counter", "tap"), "back room": ("piano",)},
        "is a bartender at {place}",
        "works at {place} from 4pm to midnight",
        10,
        evening=True,
    ),
    Kind(
        "{} Garden",
        {"beds": ("flower bed", "vegetable patch"), "shed": ("tools",)},
        "is a gardener at {place}",
        "works at {place} from 7am to 3pm",
        10,
    ),
    Kind(
        "{} College",
        {
            "classroom": ("desk", "blackboard"),
            "library": ("bookshelf",),
            "lecture hall": ("podium",),
        },
        "is a student taking classes at {place}",
        "attends classes at {place}",
        60,
    ),
)
AT_HOME = (
    ("is a writer working on a novel", "writes at home"),
    ("is a painter working on a canvas", "paints in the home studio"),
)
PARKS = ("Riverside Park", "Hilltop Park", "Town Square")


@dataclass
class Town:
    """A persona pack (map + personas) and each place's grid coordinates."""

    map: list[dict[str, Any]]
    personas: list[dict[str, Any]]
    coordinates: dict[str, tuple[int, int]] = field(default_factory=dict)

    def pack(self, start: int, stop: int, *, with_map: bool, relationships: bool) -> dict[str, Any]:
        """A slice of the personas as a persona pack (imports stay under 1000 personas; a
        relationship names someone already imported, so they come in a second pass)."""
        personas = self.personas[start:stop]
        if not relationships:
            personas = [{**p, "relationships": []} for p in personas]
        body: dict[str, Any] = {"personas": personas}
        if with_map:
            body["map"] = {"children": self.map}
        return body


def generate(agents: int, *, seed: int = 1) -> Town:
    """`agents` residents with homes, workplaces and acquaintances; deterministic in `seed`."""
    rng = random.Random(seed)
    names = _names(agents, rng)
    households = _households(names, rng)
    homes = [
        f"{10 + 2 * (i // len(STREETS))} {STREETS[i % len(STREETS)]} Street"
        for i in range(len(households))
    ]
    workplaces = _workplaces(agents, rng)
    town = Town(map=[], personas=[])
    for home, members in zip(homes, households, strict=True):
        town.map.append(_house(home))
        for name in members:
            town.personas.append(_persona(name, home, members, workplaces, rng))
    town.map += [_place(w.name, w.kind.rooms) for w in workplaces]
    town.map += [_place(p, {"lawn": ("bench",), "fountain": ()}) for p in PARKS]
    _colleagues(town.personas, rng)
    town.coordinates = _grid([area["name"] for area in town.map])
    return town


@dataclass(frozen=True)
class Workplace:
    name: str
    kind: Kind


def _names(count: int, rng: random.Random) -> list[str]:
    pool = [f"{first} {last}" for first in FIRST_NAMES for last in SURNAMES]
    if count > len(pool):
        raise ValueError(f"at most {len(pool)} residents")
    return rng.sample(pool, count)


def _households(names: list[str], rng: random.Random) -> list[list[str]]:
    households, at = [], 0
    while at < len(names):
        size = rng.choice((1, 2, 2, 3, 4))
        households.append(names[at : at + size])
        at += size
    return households


def _workplaces(agents: int, rng: random.Random) -> list[Workplace]:
    """Enough workplaces of each kind for its share of the town (at least one each)."""
    found: list[Workplace] = []
    words = list(SURNAMES)
    rng.shuffle(words)
    share = agents / len(KINDS)
    for kind in KINDS:
        for n in range(max(1, round(share / kind.staff))):
            found.append(Workplace(kind.pattern.format(words[n % len(words)]), kind))
    return found


def _house(name: str) -> dict[str, Any]:
    return _place(name, {"bedroom": ("bed", "desk"), "kitchen": ("stove", "refrigerator")})


def _place(name: str, rooms: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    return {
        "name": name,
        "children": [
            {"name": room, "children": [{"name": thing} for thing in things]}
            for room, things in rooms.items()
        ],
    }


def _persona(
    name: str, home: str, household: list[str], workplaces: list[Workplace], rng: random.Random
) -> dict[str, Any]:
    first = name.split()[0]
    if rng.random() < 0.08:
        currently, requirement = rng.choice(AT_HOME)
        work: str | None = None
        wake, bed = rng.choice(DAY_HOURS + LATE_HOURS)
    else:
        place = rng.choice(workplaces)
        currently = place.kind.job.format(place=place.name)
        requirement = place.kind.hours.format(place=place.name)
        work = place.name
        wake, bed = rng.choice(LATE_HOURS if place.kind.evening else DAY_HOURS)
    pastime = rng.choice(LEISURE)
    park = rng.choice(PARKS)
    known = [f"{home}: bedroom", f"{home}: kitchen", f"{park}: lawn"]
    if work is not None:
        known.append(work)
    others = [m for m in household if m != name]
    return {
        "name": name,
        "age": rng.randint(19, 75),
        "innate": ", ".join(rng.sample(TRAITS, 3)),
        "currently": f"{first} {currently}",
        "lifestyle": f"wakes at {_clock(wake)}, sleeps at {_clock(bed)}"
        + (f"; {pastime}" if pastime else ""),
        "living_area": f"{home}: bedroom",
        "daily_plan_requirement": f"{first} {requirement}",
        "start_place": f"{home}: bedroom",
        "known_places": known,
        "relationships": [
            {"other": other, "summary": f"{first} lives with {other}", "sentiment": 7}
            for other in others
        ],
        "_work": work,
    }


def _colleagues(personas: list[dict[str, Any]], rng: random.Random) -> None:
    """Each resident knows up to three people from work; the helper key is then dropped."""
    by_work: dict[str, list[dict[str, Any]]] = {}
    for persona in personas:
        work = persona.pop("_work")
        if work is not None:
            by_work.setdefault(work, []).append(persona)
    for staff in by_work.values():
        for persona in staff:
            mates = [p for p in staff if p is not persona]
            for mate in rng.sample(mates, min(3, len(mates))):
                persona["relationships"].append(
                    {
                        "other": mate["name"],
                        "sentiment": 6,
                        "summary": f"{persona['name'].split()[0]} works with {mate['name']}",
                    }
                )


def _grid(areas: list[str]) -> dict[str, tuple[int, int]]:
    """Areas on a square grid 40 m apart, in map order (houses first, then the town)."""
    side = max(1, int(len(areas) ** 0.5) + 1)
    return {name: (40 * (i % side), 40 * (i // side)) for i, name in enumerate(areas)}


def _clock(hour: int) -> str:
    if hour == 0:
        return "midnight"
    return f"{hour % 12 or 12}{'am' if hour < 12 else 'pm'}"
