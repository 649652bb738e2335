# Five retries from 30 s: the actor's retries are bounded and spread out.
import dramatiq
import httpx


@dramatiq.actor(queue_name="events", max_retries=4, min_backoff=30_000)
def ingest_event(event_id):
    httpx.post("https://meters.internal/ingest", json={"id": event_id}, timeout=10).raise_for_status()
