import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

# urllib3 2.x removed method_whitelist: this raises TypeError at import.
retry = Retry(total=3, backoff_factor=0.5, method_whitelist=["GET", "PUT"])
session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=retry))
