# Shape of haystack's link_content.py (c7cb46c0): tenacity retries
# `httpx.HTTPStatusError`, which `raise_for_status()` raises for every
# 4xx and 5xx answer, so a 404 is fetched again like a timeout.
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential


@retry(
    reraise=True,
    stop=stop_after_attempt(3),
    wait=wait_exponential(multiplier=1, min=2, max=10),
    retry=retry_if_exception_type((httpx.HTTPStatusError, httpx.RequestError)),
)
def get_response(client, url):
    response = client.get(url)
    response.raise_for_status()
    return response


@retry(
    stop=stop_after_attempt(5),
    wait=wait_exponential(multiplier=1, min=2, max=10),
    retry=retry_if_exception_type(httpx.HTTPStatusError),
)
def request(client, url):
    # A 429 is raised on its own first, then every other failure status
    # too: a 404 is asked again five times.
    response = client.get(url)
    if response.status_code == 429:
        response.raise_for_status()
    response.raise_for_status()
    return response.json()
