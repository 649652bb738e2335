# A client that calls itself again on a 429 after the server's
# Retry-After, with no count: a server that keeps answering 429 is asked
# again and again until Python's recursion limit ends it.
from time import sleep
from urllib.parse import urljoin

import requests
from requests import HTTPError


def api_call(method: str, base_url: str, path: str, **kwargs) -> requests.Response:
    url = urljoin(base_url, path)
    response = requests.request(method, url, timeout=10, **kwargs)
    try:
        response.raise_for_status()
    except HTTPError as e:
        if e.response.status_code == 429:
            cooldown_seconds = int(e.response.headers.get("Retry-After", 0.2))
            sleep(cooldown_seconds)
            return api_call(method, base_url, path, **kwargs)
        raise
    return response
