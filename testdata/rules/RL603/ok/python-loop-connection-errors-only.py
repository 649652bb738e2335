# A Python loop that retries only refused connections: timeouts leave.
import time

import requests


def popularity(track_id):
    for attempt in range(5):
        try:
            return requests.get(f"http://popcount.internal/{track_id}", timeout=2).json()
        except requests.ConnectionError:
            time.sleep(0.5 * 2 ** attempt)
    return None
