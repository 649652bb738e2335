import time

import requests


def make_request(url, max_retries=3):
    # Shape of prowler's MongoDB Atlas client: raise_for_status() raises an
    # HTTPError, a RequestException, which the except clause retries: a 404
    # is asked again like a timeout.
    retry_delay = 1
    for attempt in range(max_retries + 1):
        try:
            response = requests.get(url, timeout=30)
            if response.status_code == 429:
                if attempt < max_retries:
                    time.sleep(retry_delay)
                    retry_delay *= 2
                    continue
                raise RuntimeError("rate limited")
            response.raise_for_status()
            return response.json()
        except requests.exceptions.RequestException:
            if attempt < max_retries:
                time.sleep(retry_delay)
                retry_delay *= 2
                continue
            else:
                raise
