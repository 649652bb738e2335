import random
import time

import requests

RETRY_DELAYS = (1, 2, 4)


def fetch_quote(symbol):
    for delay in RETRY_DELAYS:
        try:
            return requests.get(f"https://quotes.example.com/{symbol}", timeout=5)
        except requests.ConnectionError:
            time.sleep(random.uniform(0, delay))
    return requests.get(f"https://quotes.example.com/{symbol}", timeout=5)
