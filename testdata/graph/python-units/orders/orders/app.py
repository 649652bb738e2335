import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=2),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def pay(order_id):
    return requests.get(f"http://payments:8080/pay/{order_id}", timeout=2).json()
