# codesculptor.uk, "Why our retry budget was actually a load amplifier"
# (sanitized post-mortem, 2026-05-26): a shared retry helper (3 attempts,
# exponential backoff from 100 ms) used at ~70 call sites, including the
# synchronous read path to a downstream pricing API; a 1 s GC pause on one
# node became a 4 h brown-out. The write-up's helper is TypeScript; this is the
# same helper and one call site in Python.
import time

import requests


def with_retry(fn, attempts=3, base_ms=100):
    last_err = None
    for i in range(attempts):
        try:
            return fn()
        except Exception as err:
            last_err = err
            time.sleep(base_ms * 2 ** i / 1000)
    raise last_err


def price_of(sku):
    return with_retry(
        lambda: requests.get(f"http://pricing.internal/price/{sku}", timeout=1).json()
    )
