import requests
from tenacity import retry, stop_after_attempt, wait_fixed

from .config import BACKOFF_SECONDS, MAX_RETRIES as ATTEMPTS


@retry(stop=stop_after_attempt(ATTEMPTS), wait=wait_fixed(BACKOFF_SECONDS))
def stock(sku):
    return requests.get(f"http://inventory/stock/{sku}", timeout=5)
