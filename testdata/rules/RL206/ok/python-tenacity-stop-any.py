from tenacity import retry, stop_after_attempt, wait_random_exponential

import requests

# `a | b` stops when either holds: 3 attempts.
@retry(
    stop=stop_after_attempt(3) | stop_after_attempt(12),
    wait=wait_random_exponential(multiplier=0.5, max=10),
)
def fetch_orders():
    return requests.get("http://orders:8080/orders", timeout=2).json()
