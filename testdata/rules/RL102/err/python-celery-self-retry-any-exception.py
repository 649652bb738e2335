# A bound task that retries itself from `except Exception`: a 404 from the
# ledger, a bug in the task, anything is retried three more times.
import requests
from celery import shared_task


@shared_task(bind=True)
def sync_ledger(self, account_id):
    try:
        r = requests.post("http://ledger/sync", json={"id": account_id}, timeout=5)
        r.raise_for_status()
    except Exception as exc:
        raise self.retry(exc=exc, countdown=30)
