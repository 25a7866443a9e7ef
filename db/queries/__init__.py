"""Query functions by noun. They may flush, never commit: the edge owns the transaction."""
