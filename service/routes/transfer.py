"""A world as one file: `GET …/export` streams it (JSON Lines), `POST /v1/worlds/import` makes a
new world from it, on this server or another (admin only; `db.world_transfer` says what the
file holds). The import is one transaction, committed only once the answer is made: a file cut
short, not from Hearth, or holding a value the API would refuse (`ExportedWorld` for the
world, `db.transfer_values` for rows) changes nothing and answers 422 naming its line and
field; a line longer than `HEARTH_IMPORT_MAX_LINE_BYTES` or more records than
`HEARTH_IMPORT_MAX_RECORDS` is a 413. Lines are parsed in a worker thread."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from db.models import World
from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from db.transfer_values import BadValue
from db.world_transfer import FORMAT, VERSION, BadRow, WorldImport, export_records
from service.deps import AdminDep, CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES, ApiError, errors
from service.routes.worlds import world_read
from service.schemas.common import MAX_NAME, NON_BLANK
from service.schemas.worlds import ExportedWorld, WorldCreated

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
    settings: Settings = request.app.state.settings
    limits = Limits(settings.import_max_line_bytes, settings.import_max_records)
    sessions: sessionmaker[Session] = request.app.state.sessions
    session = sessions()
    try:
        importer = WorldImport(session, name=name.strip() if name else None)
        await _feed(importer, _records(request.stream(), limits))
        return await run_in_threadpool(_finish, session, importer)
    finally:
        await run_in_threadpool(session.close)  # uncommitted: nothing of a failed import stays


@dataclass(frozen=True)
class Limits:
    line_bytes: int
    records: int


async def _feed(importer: WorldImport, records: AsyncIterator[tuple[int, Any]]) -> None:
    """Records in order, a table's rows in batches; any fault is a 422 naming its line."""
    number, table, end = 0, "", None
    batch: list[dict[str, Any]] = []
    lines: list[int] = []  # the line of each row in the batch
    async for number, record in records:
        try:
            if end is not None:
                raise ValueError("nothing may follow the end record")
            if number == 1:
                await run_in_threadpool(_start, importer, record)
            elif record.get("end") is True:
                end = record
            elif not isinstance(record.get("row"), dict) or not isinstance(
                record.get("table"), str
            ):
                raise ValueError('a record is {"table", "row"}, before the end record')
            else:
                if (record["table"] != table or len(batch) >= BATCH) and batch:
                    await _add(importer, table, batch, lines)
                    batch, lines = [], []
                table = record["table"]
                batch.append(record["row"])
                lines.append(number)
        except IMPORT_FAULTS as exc:
            raise _bad_line(number, exc) from None
    if batch:
        await _add(importer, table, batch, lines)
    if end is None:
        raise ApiError(
            422,
            "validation_error",
            "the file ends before its end record: it was cut short",
            field="body",
        )
    if end.get("rows") != importer.rows:
        message = f"the end record counts {end.get('rows')!r} rows; the file holds {importer.rows}"
        raise ApiError(422, "validation_error", message, field=f"body.{number}.rows")


async def _add(
    importer: WorldImport, table: str, batch: list[dict[str, Any]], lines: list[int]
) -> None:
    """A batch of one table's rows; a bad row is blamed on its own line."""
    try:
        await run_in_threadpool(importer.add, table, batch)
    except BadRow as exc:
        raise _bad_line(lines[exc.index], exc.cause) from None
    except IMPORT_FAULTS as exc:
        raise _bad_line(lines[-1], exc) from None


IMPORT_FAULTS = (ValueError, TypeError, KeyError, sa.exc.IntegrityError, sa.exc.DataError)
"""What a bad file raises while it is read and written (BadValue is a ValueError)."""


async def _records(
    body: AsyncIterator[bytes], limits: Limits
) -> AsyncIterator[tuple[int, dict[str, Any]]]:
    """Each line's record with its number; lines are parsed in a worker thread, a chunk's at a
    time, so a huge line never blocks the event loop; past a limit the answer is a 413."""
    buffer, number = b"", 0
    async for chunk in body:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        if len(buffer) > limits.line_bytes:
            raise _too_large(number + 1, f"a line is longer than {limits.line_bytes} bytes")
        lines = [line for line in lines if line.strip()]
        for line in lines:
            if len(line) > limits.line_bytes:
                raise _too_large(number + 1, f"a line is longer than {limits.line_bytes} bytes")
        if number + len(lines) > limits.records:
            raise _too_large(limits.records + 1, f"more than {limits.records} records")
        parsed = await run_in_threadpool(_parse_all, number, lines)
        for record in parsed:
            number += 1
            yield number, record
    if buffer.strip():
        if number + 1 > limits.records:
            raise _too_large(number + 1, f"more than {limits.records} records")
        yield number + 1, await run_in_threadpool(_parse, number + 1, buffer)


def _parse_all(before: int, lines: list[bytes]) -> list[dict[str, Any]]:
    return [_parse(before + i, line) for i, line in enumerate(lines, start=1)]


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
    theirs = header.get("embedding_space")
    if here and theirs and theirs != here:
        raise ValueError(
            f"the file's memories were embedded in {theirs}; "
            f"this server embeds in {here}: import where they match"
        )
    if here:
        importer.dimension = int(here[0]["dimension"])
    if not isinstance(header.get("world"), dict):
        raise ValueError("the header has no world")
    importer.start(_valid_world(header["world"]))


def _valid_world(world: dict[str, Any]) -> dict[str, Any]:
    """The header's world held to the rules of the API's own writes (`ExportedWorld`: its
    settings by their schema, its clock within game time and the rates the API allows)."""
    try:
        valid = ExportedWorld.model_validate(world)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise ApiError(
            422,
            "validation_error",
            f"line 1: world.{where}: {error['msg']}",
            field=f"body.1.world.{where}",
        ) from None
    settings = valid.settings.model_dump(exclude_unset=True, exclude_none=True)
    return {**world, "name": valid.name, "settings": settings}


def _finish(session: Session, importer: WorldImport) -> WorldCreated:
    try:
        world_id = importer.finish()
        key = generate_key("world")
        store_key(session, key, world_id=world_id, name="created by an import")
        session.flush()
        world = session.get_one(World, world_id)
        created = WorldCreated(**world_read(world).model_dump(), api_key=key)
    except IMPORT_FAULTS as exc:
        raise ApiError(422, "validation_error", str(exc)[:300], field="body") from None
    session.commit()  # only once the answer is made: a world that fails never stays
    return created


def _too_large(number: int, reason: str) -> ApiError:
    return ApiError(413, "payload_too_large", f"line {number}: {reason}", field=f"body.{number}")


def _bad_line(number: int, exc: BaseException) -> ApiError:
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0][:300]
    field = f"body.{number}"
    if isinstance(exc, BadValue):
        field += f".row.{exc.column.split('.', 1)[1]}"
    return ApiError(422, "validation_error", f"line {number}: {reason}", field=field)
