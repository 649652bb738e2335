# A Python loop that asks again whenever the call times out, waiting a
# little, with nothing limiting the retries as a whole.
import time

import requests


def popularity(track_id):
    for attempt in range(5):
        try:
            return requests.get(f"http://popcount.internal/{track_id}", timeout=2).json()
        except requests.Timeout:
            time.sleep(0.5 * 2 ** attempt)
    return None
