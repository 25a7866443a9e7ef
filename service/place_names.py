"""One rule for every place a client names — an agent's start, home and known places, where a
step reports it, the object a state change or a perception is about: the place must be in the
world's map (422 naming the field), unless the request says `create_places: true`, when the
missing places are added to the map (with their ancestors, state "idle") and a `map_updated`
event says so. A path is compared in its canonical spelling (`cognition.places`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.places import MAX_MAP_DEPTH, MAX_MAP_NODES, ancestors, normalize_path
from db.models import Place
from db.queries.events import emit
from db.queries.places import add_places, paths_in_map, places_by_path, world_place_count
from service.errors import ApiError
from service.schemas.common import MAX_NAME

Named = tuple[str, str]
"""(the request field that names it, the path as sent)."""


def canonical(path: str, field: str) -> str:
    """The stored spelling of a path; a path that is not one is a 422 on `field`."""
    try:
        path = normalize_path(path)
    except InvalidInput as exc:
        raise ApiError(422, "validation_error", str(exc), field=field) from None
    if len(ancestors(path)) >= MAX_MAP_DEPTH:
        raise ApiError(
            422, "validation_error", f"{path!r} is deeper than {MAX_MAP_DEPTH} levels", field=field
        )
    if any(len(part) > MAX_NAME for part in path.split(": ")):
        raise ApiError(
            422, "validation_error", f"a place name is at most {MAX_NAME} characters", field=field
        )
    return path


def require_places(
    session: Session, *, world_id: uuid.UUID, named: Sequence[Named], create: bool
) -> None:
    """The rule above, for a caller that needs no rows back (a step): paths are checked
    without loading places, and only a request naming a missing one goes on to
    `resolve_places` (its 422, or the places created)."""
    paths = [canonical(path, field) for field, path in named]
    wanted = {p for path in paths for p in (*ancestors(path), path)}
    if wanted - paths_in_map(session, world_id=world_id, paths=wanted):
        resolve_places(session, world_id=world_id, named=named, create=create)


def resolve_places(
    session: Session, *, world_id: uuid.UUID, named: Sequence[Named], create: bool
) -> dict[str, Place]:
    """Every named place and its ancestors, by canonical path (the rule above)."""
    paths = [(field, canonical(path, field)) for field, path in named]
    wanted = {p for _, path in paths for p in (*ancestors(path), path)}
    found = places_by_path(session, world_id=world_id, paths=wanted)
    missing = wanted - found.keys()
    if not missing:
        return found
    if not create:
        field, path = next((f, p) for f, p in paths if p not in found)
        raise ApiError(
            422,
            "validation_error",
            f"no place {path!r} in this world's map (send `create_places: true` to add it)",
            field=field,
        )
    if world_place_count(session, world_id) + len(missing) > MAX_MAP_NODES:
        raise ApiError(
            413,
            "payload_too_large",
            f"the map would pass {MAX_MAP_NODES} places",
            field=paths[0][0],
        )
    found = add_places(session, world_id=world_id, paths=missing, found=found)
    emit(
        session,
        world_id=world_id,
        type="map_updated",
        payload={
            "places": world_place_count(session, world_id),
            "created": len(missing),
            "updated": 0,
            "removed": 0,
        },
    )
    return found
