# The reports app names its own Redis broker and writes no transport
# options: kombu's one-hour visibility timeout holds, and the 45-minute
# retry stays within it. Billing's 30 minutes, in another app's folder,
# is not this broker's.
from celery import Celery
import requests

app = Celery("reports", broker="redis://redis:6379/0")


@app.task(bind=True, max_retries=3)
def export(self, report_id):
    try:
        requests.get(f"https://warehouse.internal/reports/{report_id}", timeout=30)
    except requests.ConnectionError as exc:
        raise self.retry(exc=exc, countdown=45 * 60)
