import uuid

import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


def charge(order_id, amount):
    idempotency_key = str(uuid.uuid4())
    return _post_charge(order_id, amount, idempotency_key)


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def _post_charge(order_id, amount, key):
    headers = {"Idempotency-Key": key}
    return requests.post("http://payments:8080/charges", json={"order": order_id, "amount": amount}, headers=headers, timeout=2)
