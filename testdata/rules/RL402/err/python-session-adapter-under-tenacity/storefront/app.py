import requests
import tenacity
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# The adapter mounted on this session retries each GET once, and
# tenacity tries the whole call 3 times on top: up to 6 GETs.
session = requests.Session()
session.mount(
    "http://",
    HTTPAdapter(max_retries=Retry(total=1, backoff_factor=0.5, backoff_jitter=0.5, status_forcelist=[502, 503])),
)


@tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random_exponential(multiplier=0.5, max=10),
    retry=tenacity.retry_if_exception_type(requests.ConnectionError),
)
def get_stock(sku):
    return session.get(f"http://inventory:8080/stock/{sku}", timeout=2)
