# CERTCC/Vultron #2302 (with #2315 and #2317), August 2026: an inner
# per-recipient retry with a backoff sleep that also retried 4xx, inside a
# drain loop that put a failed activity back at the end of the outbox with
# no total bound; a CI run logged thousands of timeouts. The inner count
# and first wait are not given in the write-up: 3 attempts from 0.5 s are
# this reconstruction's.
import time

import requests


class DeliveryError(Exception):
    pass


def _deliver_with_retry(activity):
    for attempt in range(3):
        try:
            r = requests.post(activity["inbox"], json=activity, timeout=5)
            r.raise_for_status()
            return
        except Exception:
            time.sleep(0.5 * 2 ** attempt)
    raise DeliveryError(activity["id"])


def drain(outbox):
    err_count = 0
    while outbox:
        activity = outbox.popleft()
        try:
            _deliver_with_retry(activity)
        except DeliveryError:
            outbox.append(activity)
            err_count += 1
            if err_count > 3:
                break
