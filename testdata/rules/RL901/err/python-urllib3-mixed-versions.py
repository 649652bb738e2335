from urllib3.util.retry import Retry

# method_whitelist is urllib3 1.x's, backoff_max urllib3 2.x's: no
# release takes both.
RETRY = Retry(total=3, backoff_factor=0.5, backoff_max=10, method_whitelist=frozenset(["GET"]))
