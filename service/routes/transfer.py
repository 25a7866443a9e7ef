"""A world as one file: `GET …/export` streams it (JSON Lines), `POST /v1/worlds/import` makes a
new world from it, on this server or another (admin only; `db.world_transfer` says what the
file holds). The import is one transaction: a file cut short or not from Hearth changes
nothing and answers 422 naming its line."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from db.models import World
from db.queries.api_keys import generate_key, store_key
from db.world_transfer import FORMAT, VERSION, WorldImport, export_records
from service.deps import AdminDep, CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES, ApiError, errors
from service.routes.worlds import world_read
from service.schemas.common import MAX_NAME, NON_BLANK
from service.schemas.worlds import WorldCreated

MEDIA_TYPE = "application/x-ndjson"
BATCH = 1000
"""Rows of one table written per round trip into the import's transaction."""
STRING = {"type": "string"}
FILE_DOC = (
    "JSON Lines: a header (`format`, `version`, `world`, `embedding_space`), one "
    '`{"table", "row"}` per row, and `{"end": true, "rows": N}`'
)

router = APIRouter(prefix="/v1/worlds", tags=["worlds"], responses=ERROR_RESPONSES)


@router.get(
    "/{world_id}/export",
    response_class=StreamingResponse,
    responses={200: {"description": FILE_DOC, "content": {MEDIA_TYPE: {"schema": STRING}}}},
    summary="Export a world as one streamed file (admin)",
)
def export(world: CurrentWorld, caller: AdminDep, session: SessionDep, request: Request) -> Any:
    """Everything the world holds, read in one snapshot while it keeps running."""
    world_id = world.id
    session.close()  # the stream reads on its own connection, however long it takes
    return StreamingResponse(
        _lines(request.app.state.sessions, world_id),
        media_type=MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="world-{world_id}.jsonl"'},
    )


def _lines(sessions: sessionmaker[Session], world_id: uuid.UUID) -> Iterator[bytes]:
    with sessions() as session:
        for record in export_records(session, world_id):
            yield (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


@router.post(
    "/import",
    status_code=201,
    response_model=WorldCreated,
    responses=errors(413, 422),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": FILE_DOC,
            "content": {MEDIA_TYPE: {"schema": {"type": "string"}}},
        }
    },
    summary="Import a world from an export: a new world with new ids, and its key (admin)",
)
async def import_world(
    request: Request,
    caller: AdminDep,
    name: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=MAX_NAME,
            pattern=NON_BLANK,
            description="the new world's name (default: the exported world's)",
        ),
    ] = None,
) -> WorldCreated:
    sessions: sessionmaker[Session] = request.app.state.sessions
    session = sessions()
    try:
        importer = WorldImport(session, name=name.strip() if name else None)
        await _feed(importer, request.stream())
        return await run_in_threadpool(_finish, session, importer)
    finally:
        await run_in_threadpool(session.close)


async def _feed(importer: WorldImport, body: AsyncIterator[bytes]) -> None:
    """Records in order, a table's rows in batches; any fault is a 422 naming its line."""
    number, table, ended = 0, "", False
    batch: list[dict[str, Any]] = []
    async for number, record in _records(body):
        try:
            if number == 1:
                await run_in_threadpool(_start, importer, record)
            elif record.get("end") is True:
                ended = True
            elif ended or not isinstance(record.get("row"), dict):
                raise ValueError('a record is {"table", "row"}, before the end record')
            else:
                if (record["table"] != table or len(batch) >= BATCH) and batch:
                    await run_in_threadpool(importer.add, table, batch)
                    batch = []
                table = str(record["table"])
                batch.append(record["row"])
        except (ValueError, TypeError, KeyError, sa.exc.IntegrityError, sa.exc.DataError) as exc:
            raise _bad_line(number, exc) from None
    try:
        if batch:
            await run_in_threadpool(importer.add, table, batch)
    except (ValueError, sa.exc.IntegrityError, sa.exc.DataError) as exc:
        raise _bad_line(number, exc) from None
    if not ended:
        raise ApiError(
            422,
            "validation_error",
            "the file ends before its end record: it was cut short",
            field="body",
        )


async def _records(body: AsyncIterator[bytes]) -> AsyncIterator[tuple[int, dict[str, Any]]]:
    buffer, number = b"", 0
    async for chunk in body:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if line.strip():
                number += 1
                yield number, _parse(number, line)
    if buffer.strip():
        yield number + 1, _parse(number + 1, buffer)


def _parse(number: int, line: bytes) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise _bad_line(number, exc) from None
    if not isinstance(record, dict):
        raise _bad_line(number, ValueError("each line is a JSON object"))
    return record


def _start(importer: WorldImport, header: dict[str, Any]) -> None:
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ValueError(f"not a {FORMAT} file of version {VERSION}")
    here = [
        dict(r)
        for r in importer.session.execute(
            sa.text("SELECT provider, model, dimension FROM embedding_spaces")
        ).mappings()
    ]
    if here and header.get("embedding_space") and header["embedding_space"] != here:
        raise ValueError(
            f"the file's memories were embedded in {header['embedding_space']}; "
            f"this server embeds in {here}: import where they match"
        )
    if not isinstance(header.get("world"), dict):
        raise ValueError("the header has no world")
    importer.start(header["world"])


def _finish(session: Session, importer: WorldImport) -> WorldCreated:
    world_id = importer.finish()
    key = generate_key("world")
    store_key(session, key, world_id=world_id, name="created by an import")
    session.commit()
    world = session.get_one(World, world_id)
    return WorldCreated(**world_read(world).model_dump(), api_key=key)


def _bad_line(number: int, exc: BaseException) -> ApiError:
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:300]
    return ApiError(422, "validation_error", f"line {number}: {reason}", field=f"body.{number}")
