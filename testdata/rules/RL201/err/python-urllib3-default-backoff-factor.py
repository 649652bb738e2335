import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# urllib3's `backoff_factor` defaults to 0: the three retries go at once.
session = requests.Session()
session.mount("http://", HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[502, 503, 504])))


def get_stock(sku):
    return session.get(f"http://inventory:8080/stock/{sku}", timeout=2)
