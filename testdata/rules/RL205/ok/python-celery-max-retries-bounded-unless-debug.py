# `max_retries` chosen by a setting, bounded on both branches: 1 retry
# when debugging, 5 elsewhere.
import requests
from celery import shared_task
from django.conf import settings


@shared_task(
    autoretry_for=(requests.RequestException,),
    retry_backoff=True,
    max_retries=1 if settings.DEBUG else 5,
)
def create_alert(channel_id, payload):
    requests.post(f"http://alerts/channels/{channel_id}", json=payload, timeout=5)
