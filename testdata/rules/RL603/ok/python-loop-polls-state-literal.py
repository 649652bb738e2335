# A wait for a state written as a literal (`"RUNNING"`): the job's state
# changes over time, and the loop asks at its own pace until it does. A
# poll, not a retry of the timeouts it swallows.
import time

import requests


def until_running(job_id):
    while True:
        try:
            response = requests.get(f"http://jobs/{job_id}", timeout=2)
            data = response.json()
            if data["status"] == "RUNNING":
                return
        except requests.Timeout:
            pass
        time.sleep(1)
