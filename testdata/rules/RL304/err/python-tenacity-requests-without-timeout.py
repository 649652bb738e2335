import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


# No `timeout=` on the call and no `stop_after_delay`: nothing bounds the retries.
@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def get_cart(cart_id):
    return requests.get(f"http://carts:8080/carts/{cart_id}").json()
