# A Dramatiq actor whose `retry_when` decides which failures go round: only
# a connection error is retried, five times at most; everything else fails
# the message at once.
import dramatiq
import httpx


def should_retry(retries, exc):
    return retries < 5 and isinstance(exc, httpx.ConnectError)


@dramatiq.actor(retry_when=should_retry, min_backoff=1_000)
def push_order(payload):
    httpx.post("https://erp.example.com/orders", json=payload, timeout=10).raise_for_status()
