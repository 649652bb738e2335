# The loop leaves when the answer's `status` field says the call succeeded
# (`data["status"] == "success"`): that field reports the outcome of this
# one call, not a state that changes over time, so the loop is a retry of
# the call (and of the timeouts it swallows), not a poll.
import time

import requests


def submit_report(report):
    while True:
        try:
            response = requests.get("http://reports/submit", params=report, timeout=2)
            data = response.json()
            if data["status"] == "success":
                return data
        except requests.Timeout:
            pass
        time.sleep(1)
