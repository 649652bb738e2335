# The clock test is stored in a name first (`elapsed`, then `expired`),
# and the `if` that leaves reads the name: the loop ends when the time is
# up, whatever the health check says.
import sys
import time

import requests


def wait_until_up(url, timeout):
    start = time.monotonic()
    while True:
        try:
            requests.get(url, timeout=2).raise_for_status()
            return
        except requests.RequestException as exc:
            error = exc
        elapsed = time.monotonic() - start
        expired = timeout > 0 and elapsed >= timeout
        if expired and error is not None:
            sys.exit(f"not up after {timeout} seconds: {error}")
        time.sleep(1)
