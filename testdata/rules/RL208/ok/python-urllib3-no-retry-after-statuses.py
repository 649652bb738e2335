import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# Only 500 and 502 are retried and the header is not read: no Retry-After
# to wait or to ignore.
retry = Retry(
    total=3,
    backoff_factor=0.5,
    backoff_jitter=0.3,
    status_forcelist=[500, 502],
    respect_retry_after_header=False,
)
session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=retry))
