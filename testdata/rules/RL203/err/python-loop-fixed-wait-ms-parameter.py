# A fixed wait in milliseconds from a parameter's default: 250 ms between
# attempts, the same for every client (no wait was read before issue 28).
import time


def call_with_retry(fn, attempts=4, wait_ms=250):
    for _ in range(attempts):
        try:
            return fn()
        except ConnectionError:
            time.sleep(wait_ms / 1000)
    return fn()
