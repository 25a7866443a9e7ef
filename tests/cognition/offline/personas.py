"""Seed personas for the offline mind's tests: four original townsfolk of Fernbrook.

Each writes its lifestyle differently, so the wake/bed parser is exercised on real prose.
"""

from __future__ import annotations

from datetime import datetime

from cognition.types import Persona

NOW = datetime(2024, 2, 13, 5, 30)
"""The morning before Valentine's Day, before anyone is up."""

ROSA = Persona(
    name="Rosa Delgado",
    age=41,
    innate="warm, sociable, organised",
    background="Rosa Delgado owns Juniper Cafe and knows most of the regulars by name.",
    currently=(
        "Rosa Delgado is planning a Valentine's Day party at Juniper Cafe on February 14th "
        "and wants to invite as many people as possible"
    ),
    lifestyle="Rosa goes to bed around 11pm, awakes up around 6am",
    living_area="Fernbrook: Rosa's flat: bedroom",
    daily_plan_requirement="Rosa opens Juniper Cafe at 8am and works at the counter until 7pm",
    speaking_style="warm and cheerful",
)

TOMAS = Persona(
    name="Tomas Okafor",
    age=20,
    innate="curious, shy, earnest",
    background="Tomas Okafor studies chemistry at Brookside College.",
    currently=(
        "Tomas Okafor is preparing for his chemistry exam; he has a secret crush on Lena Ward "
        "and has told no one"
    ),
    lifestyle="Tomas wakes up at 7:30 am and sleeps at midnight",
    living_area="Fernbrook: Brookside College dorm: Tomas's room",
    daily_plan_requirement="Tomas attends classes at Brookside College and studies in the library",
    speaking_style="shy",
)

HELEN = Persona(
    name="Helen Park",
    age=56,
    innate="precise, patient, dry humour",
    background="Helen Park has run Willow Pharmacy for twenty years.",
    currently="Helen Park is training a new assistant at Willow Pharmacy",
    lifestyle="Helen wakes up at 6 a.m. and goes to bed at 10pm",
    living_area="Fernbrook: Park house: kitchen",
    daily_plan_requirement="Helen fills prescriptions at Willow Pharmacy",
    speaking_style="formal and terse",
)

IVO = Persona(
    name="Ivo Marsh",
    age=33,
    innate="dreamy, stubborn, generous",
    background="Ivo Marsh is a painter who sells landscapes at the Saturday market.",
    currently="Ivo Marsh is painting a series of river landscapes for an exhibition",
    lifestyle="Ivo sleeps from 1am until 9am",
    living_area="Fernbrook: Ivo's studio: easel",
    daily_plan_requirement="Ivo paints in his studio and takes a walk along the river",
    speaking_style="casual",
)

PERSONAS: tuple[Persona, ...] = (ROSA, TOMAS, HELEN, IVO)

KNOWN_PLACES: tuple[str, ...] = (
    "Fernbrook: Rosa's flat: bedroom: bed",
    "Fernbrook: Rosa's flat: kitchen: stove",
    "Fernbrook: Rosa's flat: bathroom: sink",
    "Fernbrook: Juniper Cafe: counter: coffee machine",
    "Fernbrook: Juniper Cafe: kitchen: oven",
    "Fernbrook: Juniper Cafe: seating: table",
    "Fernbrook: Brookside College: library: desk",
    "Fernbrook: Willow Pharmacy: counter: register",
    "Fernbrook: Ivo's studio: easel",
    "Fernbrook: River Park: bench",
)
