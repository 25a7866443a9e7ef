"""Pydantic request/response schemas, one module per noun; the OpenAPI contract is built here."""
