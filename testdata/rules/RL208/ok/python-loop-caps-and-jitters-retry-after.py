import random
import time

import requests


def get_invoices():
    for attempt in range(5):
        try:
            resp = requests.get("http://billing:9000/invoices", timeout=2)
            if resp.status_code != 429:
                return resp.json()
            wait = min(int(resp.headers["Retry-After"]), 30)
            time.sleep(wait + random.uniform(0, wait / 2))
        except requests.ConnectionError:
            time.sleep(1)
    return None
