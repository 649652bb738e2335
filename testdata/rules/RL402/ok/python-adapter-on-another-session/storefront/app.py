import requests
import tenacity
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# The adapter is mounted on the reporting session only; the inventory
# session keeps requests' default adapter, which retries nothing.
reporting = requests.Session()
reporting.mount(
    "http://",
    HTTPAdapter(max_retries=Retry(total=1, backoff_factor=0.5, backoff_jitter=0.5, status_forcelist=[502, 503])),
)
inventory = requests.Session()


@tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random_exponential(multiplier=0.5, max=10),
    retry=tenacity.retry_if_exception_type(requests.ConnectionError),
)
def get_stock(sku):
    return inventory.get(f"http://inventory:8080/stock/{sku}", timeout=2)


def send_report(body):
    return reporting.post("http://reports:8080/daily", json=body, timeout=5)
