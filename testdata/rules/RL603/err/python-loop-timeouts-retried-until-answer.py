# The loop leaves as soon as the call answers 200 (a test of the status,
# not of the answer's content): a retry of the timeouts it catches, with
# nothing limiting the retries as a whole.
import time

import requests


def fetch_profile(user_id):
    while True:
        try:
            response = requests.get(f"http://profiles/{user_id}", timeout=0.5)
            if response.status_code == 200:
                return response.json()
        except requests.Timeout:
            pass
        time.sleep(0.5)
