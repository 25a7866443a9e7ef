"""Celery workers: the app, queue routing, the beat schedule and thin task shells."""
