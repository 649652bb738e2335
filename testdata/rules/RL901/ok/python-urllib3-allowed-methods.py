from urllib3.util.retry import Retry

RETRY = Retry(total=3, backoff_factor=0.5, backoff_max=10, allowed_methods=frozenset(["GET"]))
