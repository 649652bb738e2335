import requests
import tenacity
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def make_session():
    # Retries for https:// only: the inventory service is called over
    # plain http://, which keeps requests' default adapter (no retries).
    s = requests.Session()
    s.mount(
        "https://",
        HTTPAdapter(max_retries=Retry(total=1, backoff_factor=0.5, backoff_jitter=0.5, status_forcelist=[502, 503])),
    )
    return s


session = make_session()


@tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random_exponential(multiplier=0.5, max=10),
    retry=tenacity.retry_if_exception_type(requests.ConnectionError),
)
def get_stock(sku):
    return session.get(f"http://inventory:8080/stock/{sku}", timeout=2)
