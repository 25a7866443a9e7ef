"""Task shells: ids in, open a session, call one cognition function, commit."""
