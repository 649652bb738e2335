import requests
from celery import shared_task
from django.conf import settings


@shared_task(
    bind=True,
    autoretry_for=(requests.ConnectionError,),
    max_retries=settings.ORDER_SYNC_RETRIES,
    retry_backoff=True,
)
def sync_order(self, order_id):
    requests.post("http://billing/orders", json={"id": order_id}, timeout=5)
