"""HTTP routes, one module per noun. `ROUTERS` is what the app mounts, in this order."""

from fastapi import APIRouter

from service.routes import (
    agents,
    caller,
    chat,
    conversations,
    events,
    health,
    inner_voice,
    interview,
    memories,
    metrics,
    personas,
    places,
    plans,
    relationships,
    step,
    transfer,
    usage,
    worlds,
)

ROUTERS: list[APIRouter] = [
    health.router,
    caller.router,
    transfer.router,
    worlds.router,
    agents.router,
    memories.router,
    usage.router,
    plans.router,
    step.router,
    chat.router,
    conversations.router,
    relationships.router,
    interview.router,
    places.router,
    personas.router,
    inner_voice.router,
    events.router,
    metrics.router,
]
