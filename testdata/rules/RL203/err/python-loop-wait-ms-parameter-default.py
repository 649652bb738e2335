# A shared retry helper whose wait is written in milliseconds from a
# parameter's default: `base_ms * 2 ** i / 1000` waits 100 ms, then 200 ms
# (issue 28, codesculptor 2026: read as `1s` before).
import time


def with_retry(fn, attempts=3, base_ms=100):
    last_err = None
    for i in range(attempts):
        try:
            return fn()
        except ConnectionError as err:
            last_err = err
            time.sleep(base_ms * 2 ** i / 1000)
    raise last_err
