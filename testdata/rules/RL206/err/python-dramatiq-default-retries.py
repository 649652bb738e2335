# A Dramatiq actor that sets its backoff and leaves max_retries at
# Dramatiq's default of 20: a failing dependency keeps every message in
# the queue for 21 attempts, and the retries pile the queue up.
import dramatiq
import httpx


@dramatiq.actor(queue_name="events", min_backoff=2_000)
def ingest_event(event_id):
    httpx.post("https://meters.internal/ingest", json={"id": event_id}, timeout=10).raise_for_status()
