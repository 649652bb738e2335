# Exponential backoff from 1 s (retry_backoff=True) over 5 retries: the
# retries span minutes (1 + 2 + 4 + 8 + 16 s) before the task fails.
from celery import Celery
import requests

app = Celery("hooks")


@app.task(autoretry_for=(requests.ConnectionError,), max_retries=5, retry_backoff=True)
def deliver(url, payload):
    requests.post(url, json=payload, timeout=5)
