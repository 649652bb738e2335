# A Redis broker at its one-hour default and a backoff capped at ten
# minutes (Celery's retry_backoff_max default): every countdown is due
# before the broker would deliver the task again.
from celery import Celery
import requests

app = Celery("hooks", broker="redis://redis:6379/0")


@app.task(autoretry_for=(requests.ConnectionError,), retry_backoff=True, max_retries=20)
def deliver(url, payload):
    requests.post(url, json=payload, timeout=5)
