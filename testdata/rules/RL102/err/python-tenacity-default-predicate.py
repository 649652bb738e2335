import requests
from tenacity import retry, stop_after_attempt, wait_random_exponential


# No `retry=`: tenacity retries every exception, a KeyError from a bug included.
@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(multiplier=0.5, max=10))
def get_order(order_id):
    return requests.get(f"http://orders:8080/orders/{order_id}", timeout=2).json()
