import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# urllib3 retries read errors only for HEAD, GET, PUT, DELETE, OPTIONS and TRACE by default.
session = requests.Session()
session.mount("http://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, status_forcelist=[503])))


def charge(order_id, amount):
    return session.post("http://payments:8080/charges", json={"order": order_id, "amount": amount}, timeout=2)
