"""PostgreSQL + pgvector persistence: typed models, sessions, queries, the embedded server, and
the store that implements cognition's protocol. Depends only on `cognition` types."""
