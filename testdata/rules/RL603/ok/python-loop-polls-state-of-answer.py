# A wait for a state: the loop leaves only when the answer's content says
# the state was reached (`status == expected`), and asks at its own pace
# whether the last request failed or not. A timed-out request adds no load,
# so this is a poll, not a retry of the timeouts it swallows (the shape of
# neon's wait_for_compute_status).
import time

import requests


def until_status(port, expected, timeout_seconds=10):
    start = time.time()
    while time.time() - start < timeout_seconds:
        try:
            response = requests.get(f"http://localhost:{port}/status", timeout=0.5)
            if response.status_code == 200:
                body = response.json()
                if body.get("status") == expected:
                    return
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.5)
    raise RuntimeError(f"never reached {expected}")
