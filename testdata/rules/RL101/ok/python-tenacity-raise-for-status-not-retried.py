# tenacity retries connection errors only: the `HTTPStatusError` that
# `raise_for_status()` raises for a 4xx is not retried, it reaches the
# caller at once.
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential


@retry(
    stop=stop_after_attempt(3),
    wait=wait_random_exponential(multiplier=1, max=10),
    retry=retry_if_exception_type(httpx.ConnectError),
)
def get_response(client, url):
    response = client.get(url)
    response.raise_for_status()
    return response
