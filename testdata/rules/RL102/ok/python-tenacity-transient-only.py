import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(multiplier=0.5, max=10),
    retry=retry_if_exception_type((requests.ConnectionError, requests.Timeout)),
)
def get_order(order_id):
    return requests.get(f"http://orders:8080/orders/{order_id}", timeout=2).json()
