import time

import requests

# One attempt per listed wait, then a last try: every client waits 1 s,
# 2 s and 4 s, all at the same moments.
RETRY_DELAYS = (1, 2, 4)


def fetch_quote(symbol):
    for delay in RETRY_DELAYS:
        try:
            return requests.get(f"https://quotes.example.com/{symbol}", timeout=5)
        except requests.ConnectionError:
            time.sleep(delay)
    return requests.get(f"https://quotes.example.com/{symbol}", timeout=5)
