# The shape of metaflow's service.py (compute_info): the exponent is the
# loop variable minus one, so the first wait is 2 ** -1 = 0.5 s, then 1 s,
# 2 s ... with no jitter: every worker that failed together retries
# together.
import time

import requests

SESSION = requests.Session()


def compute_info(url):
    for i in range(4):
        try:
            resp = SESSION.get(url, timeout=5)
            resp.raise_for_status()  # retrylint: ignore[RL101] a 4xx is retried too (RL101's fixtures show it)
            return resp.json()
        except requests.RequestException:
            time.sleep(2 ** (i - 1))
    raise RuntimeError("metadata service unreachable")
