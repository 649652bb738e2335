# `time.sleep(min(30, 2 ** attempt))`: the loop variable is computed into
# the wait, not passed on as data; the wait starts at 1 s, doubles, is
# capped at 30 s, and has no jitter.
import time

import requests


def fetch(url):
    for attempt in range(6):
        try:
            return requests.get(url, timeout=5).json()
        except requests.ConnectionError:
            time.sleep(min(30, 2 ** attempt))
    raise RuntimeError("unreachable")
