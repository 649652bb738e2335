import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# 429 and 503 are retried on urllib3's own back-off: the server's
# Retry-After is ignored, so the client may come back long before it can
# be served.
retry = Retry(
    total=5,
    backoff_factor=0.5,
    backoff_jitter=0.3,
    status_forcelist=[429, 503],
    respect_retry_after_header=False,
)
session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=retry))
