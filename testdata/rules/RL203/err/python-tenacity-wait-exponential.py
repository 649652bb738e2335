import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential


# `wait_exponential` has no jitter: every client retries at 1 s, 2 s, 4 s together.
@retry(
    stop=stop_after_attempt(4),
    wait=wait_exponential(multiplier=1, max=10),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def get_price(sku):
    return requests.get(f"http://pricing:8080/price/{sku}", timeout=2).json()
