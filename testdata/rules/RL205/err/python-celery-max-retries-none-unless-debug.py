# `max_retries` chosen by a setting: one retry on a developer's machine,
# `None` (Celery retries for ever) everywhere else. The production branch
# is the one that runs: an alert that can never be created is retried
# for ever, at the backoff's cap of 10 minutes.
import requests
from celery import shared_task
from django.conf import settings


@shared_task(
    autoretry_for=(requests.RequestException,),
    retry_backoff=True,
    max_retries=1 if settings.DEBUG else None,
)
def create_alert(channel_id, payload):
    requests.post(f"http://alerts/channels/{channel_id}", json=payload, timeout=5)
