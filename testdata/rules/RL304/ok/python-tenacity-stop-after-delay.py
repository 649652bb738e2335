import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, stop_after_delay, wait_random_exponential


@retry(
    stop=stop_after_attempt(3) | stop_after_delay(10),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def get_cart(cart_id):
    return requests.get(f"http://carts:8080/carts/{cart_id}", timeout=2).json()
