import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# respect_retry_after_header=True by default: a 429 or 503 with a
# Retry-After is retried after exactly the server's wait, not capped by
# backoff_max and with no jitter (urllib3 2.7 caps it at 6 hours).
retry = Retry(total=4, backoff_factor=0.5, backoff_jitter=0.5, status_forcelist=[502, 504])
session = requests.Session()
session.mount("http://", HTTPAdapter(max_retries=retry))


def get_prices():
    return session.get("http://pricing:8080/prices", timeout=3)
