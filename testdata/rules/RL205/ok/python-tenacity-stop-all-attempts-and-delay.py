from tenacity import retry, stop_after_attempt, stop_after_delay, wait_random_exponential

import requests

# Both must hold: at least 5 attempts and 30 s, a finite number of tries.
@retry(
    stop=stop_after_attempt(5) & stop_after_delay(30),
    wait=wait_random_exponential(multiplier=0.5, max=10),
)
def fetch_orders():
    return requests.get("http://orders:8080/orders", timeout=2).json()
