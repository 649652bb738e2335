# google-api-core's Retry stops after its timeout: 120 s by default
# (`_DEFAULT_DEADLINE`), here 60 s. No attempt count is needed.
from google.api_core import retry
from google.api_core.retry import Retry

DEFAULT = retry.Retry()
BOUNDED = Retry(initial=0.5, maximum=10.0, timeout=60.0)
