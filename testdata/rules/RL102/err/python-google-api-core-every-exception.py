# A google-api-core Retry whose predicate accepts every exception: a 400
# (InvalidArgument) or a bug in the caller is retried like an outage.
from google.api_core import exceptions, retry

EVERYTHING = retry.Retry(predicate=retry.if_exception_type(Exception), timeout=30.0)
