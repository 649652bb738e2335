import requests
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


# The caller's order id is the idempotency key: every attempt sends the
# same key, so the payments service applies a repeated charge once.
@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type((requests.ConnectionError, requests.Timeout)),
)
def charge(order_id, amount):
    return requests.post(
        "http://payments:8080/charges",
        json={"order": order_id, "amount": amount},
        headers={"Idempotency-Key": f"charge-{order_id}"},
        timeout=2,
    )


# The key is the refund's own id, set in a headers dict built per call.
@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type((requests.ConnectionError, requests.Timeout)),
)
def refund(refund_id, amount):
    headers = {"Content-Type": "application/json", "X-Idempotency-Key": refund_id}
    return requests.post("http://payments:8080/refunds", json={"amount": amount}, headers=headers, timeout=2)
