from urllib3.util.retry import Retry
import urllib3

# total=0: nothing is retried, so no Retry-After is waited for.
http = urllib3.PoolManager(retries=Retry(total=0))
