import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# The server's Retry-After is not honoured: the jittered backoff applies.
retry = Retry(
    total=4,
    backoff_factor=0.5,
    backoff_jitter=0.5,
    status_forcelist=[429, 502, 503, 504],
    respect_retry_after_header=False,
)
session = requests.Session()
session.mount("http://", HTTPAdapter(max_retries=retry))


def get_prices():
    return session.get("http://pricing:8080/prices", timeout=3)
