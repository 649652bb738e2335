# Shape of haystack's requests_utils.py (c7cb46c0): `raise_for_status()`
# runs only for the statuses worth retrying, so tenacity's
# `retry_if_exception_type(httpx.HTTPError)` goes round on 429 and 503
# alone; a 404 is returned to the caller at once.
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(multiplier=1, max=10),
    retry=retry_if_exception_type(httpx.HTTPError),
)
def run(client, url):
    res = client.get(url)
    if res.status_code in (429, 503):
        res.raise_for_status()
    return res
