import dramatiq
import requests

from shop import broker  # noqa: F401  (sets the broker)


# Only the longest wait is the actor's own: the number of retries and the
# first wait are the broker's `Retries` middleware's.
@dramatiq.actor(max_backoff=60_000)
def notify(order_id):
    requests.post(
        "http://notifications:8080/orders", json={"id": order_id}, timeout=5
    )
