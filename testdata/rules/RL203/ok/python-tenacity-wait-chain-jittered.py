# The chain ends with a jittered wait, which every later retry uses.
import requests
from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_chain, wait_fixed, wait_random_exponential


@retry(
    stop=stop_after_delay(60),
    wait=wait_chain(wait_fixed(1), wait_random_exponential(multiplier=1, max=10)),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def fetch(url):
    return requests.get(url, timeout=2)
