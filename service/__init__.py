"""The HTTP edge (FastAPI) and the `hearth` command line."""
