"""Limits of the inventory client (synthetic)."""

MAX_RETRIES = 8
BACKOFF_SECONDS = 2
