# google-api-core's default predicate, if_transient_error, retries 500, 429,
# 503 and connection errors only; a predicate listing transient exceptions
# is as narrow.
from google.api_core import exceptions, retry

DEFAULT = retry.Retry(timeout=30.0)
NARROW = retry.Retry(
    predicate=retry.if_exception_type(
        exceptions.ServiceUnavailable, exceptions.DeadlineExceeded
    ),
    timeout=30.0,
)
