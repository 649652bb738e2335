# wait_chain waits 1 s, 1 s, then 5 s before every later retry: the last
# strategy has no random part, so through an outage every client comes
# back on the same 5 s beat.
import requests
from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_chain, wait_fixed


@retry(
    stop=stop_after_delay(60),
    wait=wait_chain(*[wait_fixed(1) for _ in range(2)] + [wait_fixed(5)]),
    retry=retry_if_exception_type(requests.ConnectionError),
)
def fetch(url):
    return requests.get(url, timeout=2)
