import dramatiq
import httpx


@dramatiq.actor(queue_name="default", min_backoff=2_000)
def event_ingested(event_id):
    # Retried with Dramatiq's default max_retries (20) from a 2 s backoff:
    # a failing dependency piles the queue up with retries.
    httpx.post("https://meters.internal/ingest", json={"id": event_id}, timeout=10).raise_for_status()
