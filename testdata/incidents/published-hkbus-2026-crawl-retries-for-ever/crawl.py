import time

import requests


def emit_request(url, headers=None):
    # Retried until it works: 429, 502, 504 and 403 go round, a second apart.
    while True:
        r = requests.get(url, headers=headers, timeout=30)
        if r.status_code in (429, 502, 504, 403):
            time.sleep(1)
            continue
        return r
