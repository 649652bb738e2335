# The countdown doubles from 2^6 = 64 s (the exponent is offset by six),
# with no random part: every task that failed together retries together.
from celery import Celery
import requests

app = Celery("crm")


@app.task(bind=True, max_retries=4)
def push_contact(self, contact):
    try:
        requests.post("https://crm.internal/contacts", json=contact, timeout=10)
    except requests.ConnectionError as exc:
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 6))
