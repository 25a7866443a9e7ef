"""A Smallville-like town for benches: up to 25 residents with occupations, routines and
acquaintances, their homes, and the shared places where they meet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PUBLIC: list[dict[str, Any]] = [
    {
        "name": "Hobbs Cafe",
        "children": [
            {"name": "kitchen", "children": [{"name": "stove"}, {"name": "coffee machine"}]},
            {"name": "counter", "children": [{"name": "cash register"}]},
            {"name": "dining area", "children": [{"name": "table"}]},
        ],
    },
    {
        "name": "Oak Hill College",
        "children": [
            {"name": "classroom", "children": [{"name": "desk"}, {"name": "blackboard"}]},
            {"name": "library", "children": [{"name": "bookshelf"}, {"name": "reading table"}]},
        ],
    },
    {
        "name": "Harvey Oak Supply Store",
        "children": [{"name": "shop floor", "children": [{"name": "shelf"}, {"name": "register"}]}],
    },
    {
        "name": "Johnson Park",
        "children": [
            {"name": "lawn", "children": [{"name": "bench"}]},
            {"name": "garden", "children": [{"name": "flower bed"}]},
        ],
    },
    {
        "name": "The Rose and Crown Pub",
        "children": [{"name": "bar", "children": [{"name": "bar counter"}]}],
    },
    {"name": "Town Hall", "children": [{"name": "office", "children": [{"name": "desk"}]}]},
]


@dataclass(frozen=True)
class Resident:
    name: str
    age: int
    innate: str
    currently: str
    lifestyle: str
    daily_plan_requirement: str
    knows: tuple[str, ...]

    @property
    def home(self) -> str:
        return f"{self.name.split()[0]}'s house"

    def persona(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "age": self.age,
            "innate": self.innate,
            "currently": self.currently,
            "lifestyle": self.lifestyle,
            "daily_plan_requirement": self.daily_plan_requirement,
            "living_area": f"{self.home}: bedroom",
        }


def _r(
    name: str, age: int, innate: str, currently: str, hours: str, work: str, *knows: str
) -> Resident:
    return Resident(name, age, innate, currently, hours, work, knows)


RESIDENTS = [
    _r(
        "Isabella Rodriguez",
        34,
        "friendly, outgoing, hospitable",
        "runs Hobbs Cafe and is planning a Valentine's Day party",
        "wakes at 6am, sleeps at 11pm",
        "works at Hobbs Cafe from 8am to 8pm",
        "Klaus Mueller",
        "Maria Lopez",
        "Tom Moreno",
    ),
    _r(
        "Klaus Mueller",
        20,
        "kind, inquisitive, passionate",
        "is a sociology student at Oak Hill College writing a research paper on gentrification",
        "wakes at 7am, sleeps at 11pm",
        "studies at the Oak Hill College library",
        "Maria Lopez",
        "Isabella Rodriguez",
    ),
    _r(
        "Maria Lopez",
        21,
        "energetic, enthusiastic, inquisitive",
        "studies physics at Oak Hill College and streams games",
        "wakes at 8am, sleeps at midnight",
        "attends classes at Oak Hill College",
        "Klaus Mueller",
        "Isabella Rodriguez",
    ),
    _r(
        "Tom Moreno",
        50,
        "hardworking, opinionated",
        "runs Harvey Oak Supply Store",
        "wakes at 6am, sleeps at 10pm",
        "works at Harvey Oak Supply Store from 8am to 6pm",
        "Isabella Rodriguez",
        "Sam Moore",
        "Yuriko Yamamoto",
    ),
    _r(
        "Sam Moore",
        65,
        "wise, resourceful",
        "is running for mayor of the town",
        "wakes at 7am, sleeps at 10pm",
        "campaigns at Town Hall",
        "Tom Moreno",
        "Jennifer Moore",
    ),
    _r(
        "Jennifer Moore",
        62,
        "curious, kind",
        "paints watercolours of the town",
        "wakes at 7am, sleeps at 10pm",
        "paints in Johnson Park",
        "Sam Moore",
        "Latoya Williams",
    ),
    _r(
        "Yuriko Yamamoto",
        45,
        "organised, thoughtful",
        "is a tax lawyer",
        "wakes at 6am, sleeps at 10pm",
        "works at her office in Town Hall",
        "Tom Moreno",
        "Adam Smith",
    ),
    _r(
        "Adam Smith",
        57,
        "philosophical, calm",
        "is a philosopher writing a book",
        "wakes at 7am, sleeps at 11pm",
        "writes at the Oak Hill College library",
        "Yuriko Yamamoto",
        "Klaus Mueller",
    ),
    _r(
        "Latoya Williams",
        27,
        "creative, warm",
        "is a photographer",
        "wakes at 8am, sleeps at midnight",
        "takes photos in Johnson Park",
        "Jennifer Moore",
        "Rajiv Patel",
    ),
    _r(
        "Rajiv Patel",
        30,
        "artistic, relaxed",
        "is a painter",
        "wakes at 9am, sleeps at 1am",
        "paints at home",
        "Latoya Williams",
        "Abigail Chen",
    ),
    _r(
        "Abigail Chen",
        25,
        "creative, detail-oriented",
        "is a digital artist and animator",
        "wakes at 8am, sleeps at midnight",
        "animates at home",
        "Rajiv Patel",
        "Francisco Lopez",
    ),
    _r(
        "Francisco Lopez",
        40,
        "funny, sociable",
        "is a comedian",
        "wakes at 9am, sleeps at 1am",
        "writes jokes at The Rose and Crown Pub",
        "Abigail Chen",
        "Hailey Johnson",
    ),
    _r(
        "Hailey Johnson",
        28,
        "imaginative, driven",
        "is a writer working on a novel",
        "wakes at 7am, sleeps at 11pm",
        "writes at Hobbs Cafe",
        "Francisco Lopez",
        "Isabella Rodriguez",
    ),
    _r(
        "Arthur Burton",
        42,
        "friendly, patient",
        "is the bartender of The Rose and Crown Pub",
        "wakes at 10am, sleeps at 2am",
        "works at The Rose and Crown Pub from 2pm to midnight",
        "Francisco Lopez",
        "Ryan Park",
    ),
    _r(
        "Ryan Park",
        33,
        "smart, private",
        "is a software engineer",
        "wakes at 8am, sleeps at midnight",
        "works from the Oak Hill College library",
        "Arthur Burton",
        "Carmen Ortiz",
    ),
    _r(
        "Carmen Ortiz",
        46,
        "hardworking, caring",
        "runs the supply store register",
        "wakes at 6am, sleeps at 10pm",
        "works at Harvey Oak Supply Store",
        "Ryan Park",
        "Tom Moreno",
    ),
    _r(
        "Wolfgang Schulz",
        21,
        "disciplined, focused",
        "is a chemistry student and athlete",
        "wakes at 6am, sleeps at 10pm",
        "studies at Oak Hill College",
        "Klaus Mueller",
        "Maria Lopez",
    ),
    _r(
        "Mei Lin",
        44,
        "caring, diligent",
        "is a professor of philosophy",
        "wakes at 7am, sleeps at 11pm",
        "teaches at Oak Hill College",
        "Adam Smith",
        "Eddy Lin",
    ),
    _r(
        "John Lin",
        45,
        "patient, kind",
        "is a pharmacy shopkeeper",
        "wakes at 7am, sleeps at 10pm",
        "works at Harvey Oak Supply Store",
        "Mei Lin",
        "Tom Moreno",
    ),
    _r(
        "Eddy Lin",
        19,
        "curious, musical",
        "is a music student composing a piece",
        "wakes at 8am, sleeps at midnight",
        "studies at Oak Hill College",
        "John Lin",
        "Wolfgang Schulz",
    ),
    _r(
        "Tamara Taylor",
        40,
        "caring, organised",
        "is a children's book author",
        "wakes at 7am, sleeps at 11pm",
        "writes at Hobbs Cafe",
        "Carmen Ortiz",
        "Hailey Johnson",
    ),
    _r(
        "Giorgio Rossi",
        36,
        "analytical, cheerful",
        "is a mathematician",
        "wakes at 8am, sleeps at midnight",
        "works at the Oak Hill College library",
        "Ryan Park",
        "Mei Lin",
    ),
    _r(
        "Ayesha Khan",
        22,
        "witty, curious",
        "is a literature student writing her thesis",
        "wakes at 8am, sleeps at midnight",
        "studies at the Oak Hill College library",
        "Wolfgang Schulz",
        "Maria Lopez",
    ),
    _r(
        "Jane Moreno",
        48,
        "warm, practical",
        "is a homemaker who volunteers at Town Hall",
        "wakes at 6am, sleeps at 10pm",
        "volunteers at Town Hall",
        "Tom Moreno",
        "Yuriko Yamamoto",
    ),
    _r(
        "Carlos Gomez",
        38,
        "passionate, generous",
        "is a poet",
        "wakes at 9am, sleeps at 1am",
        "writes poems in Johnson Park",
        "Jennifer Moore",
        "Latoya Williams",
    ),
]


def town_map(residents: list[Resident]) -> list[dict[str, Any]]:
    """Each resident's house, then the public places."""
    homes = [
        {
            "name": r.home,
            "children": [
                {"name": "bedroom", "children": [{"name": "bed"}, {"name": "desk"}]},
                {"name": "kitchen", "children": [{"name": "stove"}, {"name": "refrigerator"}]},
                {"name": "bathroom", "children": [{"name": "shower"}]},
            ],
        }
        for r in residents
    ]
    return homes + PUBLIC


def seed_memories(resident: Resident, residents: list[Resident]) -> list[str]:
    """What a resident remembers on day one: who they are and whom they know."""
    present = {r.name for r in residents}
    known = [name for name in resident.knows if name in present]
    first = resident.name.split()[0]
    return [
        f"{resident.name} {resident.currently}",
        f"{first} lives in {resident.home}",
        *(f"{first} knows {name} well and likes talking with them" for name in known),
    ]
