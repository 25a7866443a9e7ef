"""The map between the API's nested trees and the database's flat place rows."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TypeVar

from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.places import MAX_MAP_NODES, PlaceSpec, flatten_map
from db.models import Place
from db.queries.places import apply_map
from service.errors import ApiError
from service.schemas.places import MapSpec, MapSummary

Node = TypeVar("Node")


def flatten(spec: MapSpec, *, field: str) -> list[PlaceSpec]:
    """Validated flat specs; faults are named under `field` (e.g. `body.children.2.name`)."""
    try:
        specs = flatten_map([child.model_dump() for child in spec.children])
    except InvalidInput as exc:
        raise InvalidInput(str(exc), field=f"{field}.{exc.field}") from None
    if len(specs) > MAX_MAP_NODES:
        raise ApiError(
            413,
            "payload_too_large",
            f"the map has {len(specs)} places; at most {MAX_MAP_NODES}",
            field=f"{field}.children",
        )
    return specs


def put_map(session: Session, *, world_id: uuid.UUID, spec: MapSpec, field: str) -> MapSummary:
    """Validate and apply a map; the summary says what changed."""
    change = apply_map(session, world_id=world_id, specs=flatten(spec, field=field))
    return MapSummary(
        places=change.places, created=change.created, updated=change.updated, removed=change.removed
    )


def nest(places: Sequence[Place], make: Callable[[Place, list[Node]], Node]) -> list[Node]:
    """Rows ordered parents-first → the top-level nodes, each built by `make(place, children)`.

    Children keep the rows' order (creation order within a parent).
    """
    children: dict[int | None, list[Place]] = {}
    for place in places:
        children.setdefault(place.parent_id, []).append(place)
    present = {place.id for place in places}

    def build(place: Place) -> Node:
        return make(place, [build(child) for child in children.get(place.id, [])])

    roots = [p for p in places if p.parent_id is None or p.parent_id not in present]
    return [build(place) for place in roots]
