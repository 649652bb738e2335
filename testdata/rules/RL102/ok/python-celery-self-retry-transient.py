# The task retries itself only on connection errors and timeouts; other
# errors fail the task at once.
import requests
from celery import shared_task


@shared_task(bind=True, max_retries=5)
def sync_ledger(self, account_id):
    try:
        r = requests.post("http://ledger/sync", json={"id": account_id}, timeout=5)
        r.raise_for_status()
    except (requests.ConnectionError, requests.Timeout) as exc:
        raise self.retry(exc=exc, countdown=int(random.uniform(2, 4) ** self.request.retries))
