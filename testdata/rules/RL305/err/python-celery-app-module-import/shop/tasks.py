# The tasks module imports the project's own app module (`celery_init`),
# not celery itself: its four-hour countdown is still a Celery retry, past
# the Redis broker's one-hour visibility timeout.
import requests

from shop.celery_init import app


@app.task(bind=True, max_retries=3)
def sync_order(self, order_id):
    try:
        requests.post("https://erp.internal/orders", json={"id": order_id}, timeout=10)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, countdown=4 * 3600)
