"""Adapters to the outside world: model endpoints and local models behind the Mind and Embedder."""
