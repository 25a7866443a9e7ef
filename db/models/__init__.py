"""Typed SQLAlchemy 2.0 models, one module per noun; importing this registers them all."""

from db.models.agent import Agent
from db.models.api_key import ApiKey
from db.models.audit import LlmCall
from db.models.base import Base
from db.models.budget import BudgetSpend
from db.models.dialogue import Conversation, Relationship, Utterance
from db.models.events import Event, IdempotencyKey
from db.models.memory import EmbeddingSpace, Memory, MemoryEvidence, ReflectionRun
from db.models.outbox import OutboxJob
from db.models.place import AgentPlace, Place
from db.models.plan import Plan
from db.models.reaction import ReactionDecision
from db.models.world import World

__all__ = [
    "Agent",
    "AgentPlace",
    "ApiKey",
    "Base",
    "BudgetSpend",
    "Conversation",
    "EmbeddingSpace",
    "Event",
    "IdempotencyKey",
    "LlmCall",
    "Memory",
    "MemoryEvidence",
    "OutboxJob",
    "Place",
    "Plan",
    "ReactionDecision",
    "ReflectionRun",
    "Relationship",
    "Utterance",
    "World",
]
