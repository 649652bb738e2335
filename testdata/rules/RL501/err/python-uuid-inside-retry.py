import uuid

import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def charge(order_id, amount):
    # A new key on every attempt: the payment service cannot tell a retry from a new charge.
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    return requests.post("http://payments:8080/charges", json={"order": order_id, "amount": amount}, headers=headers, timeout=2)
