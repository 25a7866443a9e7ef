"""Alembic environment and revisions; analyst views and the read-only role are created here."""
