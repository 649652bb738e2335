import random
import time

import requests


def fetch_profile(user_id):
    for attempt in range(3):
        try:
            return requests.get(f"http://profiles:8080/profiles/{user_id}", timeout=2).json()
        except requests.ConnectionError:
            time.sleep(random.uniform(0, 0.5 * 2 ** attempt))
    return None
