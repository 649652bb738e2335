import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# urllib3 sleeps a 429's or 503's Retry-After as it is (respect_retry_after_header
# is True by default): backoff_max does not bound it and nothing jitters it.
retry = Retry(total=5, backoff_factor=0.5, backoff_jitter=0.3, status_forcelist=[429, 502, 503])
session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=retry))
