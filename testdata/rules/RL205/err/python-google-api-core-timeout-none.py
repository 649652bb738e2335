# google-api-core's Retry has no attempt limit: only its timeout (120 s by
# default) ends it. timeout=None takes that away, so a publish that keeps
# failing with 503 is retried for ever.
from google.api_core import retry
from google.cloud import pubsub_v1

publisher = pubsub_v1.PublisherClient()

FOREVER = retry.Retry(initial=0.5, maximum=30.0, multiplier=2.0, timeout=None)


def publish(topic, data):
    return publisher.publish(topic, data, retry=FOREVER).result()
