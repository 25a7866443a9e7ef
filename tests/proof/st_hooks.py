"""Schemathesis hooks for the proof suite (loaded through SCHEMATHESIS_HOOKS): a world import's
body is JSON Lines text, sent as text."""

import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
