from os import getenv

from celery import Task

from .constants import DEFAULT_RETRY_BACKOFF, DEFAULT_RETRY_LIMIT


class TaskWithRetry(Task):
    autoretry_for = (ConnectionError, TimeoutError)
    max_retries = int(getenv("CELERY_RETRY_LIMIT", DEFAULT_RETRY_LIMIT))
    retry_kwargs = {"max_retries": max_retries}
    retry_backoff = int(getenv("CELERY_RETRY_BACKOFF", DEFAULT_RETRY_BACKOFF))
