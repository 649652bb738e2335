# A Celery task retried 3 times, 1 s apart, on connection errors, then
# failed for good: the webhook it delivers is lost when the receiver is
# down for more than three seconds (Celery raises MaxRetriesExceededError
# and acknowledges the message).
from celery import Celery
import requests

app = Celery("hooks")


@app.task(autoretry_for=(requests.ConnectionError,), max_retries=3, default_retry_delay=1)
def deliver(url, payload):
    requests.post(url, json=payload, timeout=5)
