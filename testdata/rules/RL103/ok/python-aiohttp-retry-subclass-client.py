import aiohttp
from aiohttp_retry import ExponentialRetry

from .retry import ReadOnlyRetryClient


# The options go to a RetryClient subclass of another module (dvc-http's
# ReadOnlyRetryClient sends POST and PUT with attempts=1 options): which
# methods it retries is not known here.
async def get_client(**kwargs):
    kwargs["retry_options"] = ExponentialRetry(
        attempts=5,
        factor=2,
        max_timeout=60,
        exceptions={aiohttp.ClientError},
    )
    return ReadOnlyRetryClient(**kwargs)
