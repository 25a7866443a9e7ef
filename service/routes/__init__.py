"""HTTP routes, one module per noun. `ROUTERS` is what the app mounts, in this order."""

from fastapi import APIRouter

from service.routes import agents, health, plans, step, usage, worlds

ROUTERS: list[APIRouter] = [
    health.router,
    worlds.router,
    agents.router,
    usage.router,
    plans.router,
    step.router,
]
