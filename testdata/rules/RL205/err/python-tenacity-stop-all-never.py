from tenacity import retry, stop_after_attempt, stop_all, stop_never, wait_random_exponential

import requests

# stop_all stops only when every condition holds: with stop_never in it,
# never.
@retry(
    stop=stop_all(stop_after_attempt(5), stop_never),
    wait=wait_random_exponential(multiplier=0.5, max=10),
)
def fetch_orders():
    return requests.get("http://orders:8080/orders", timeout=2).json()
