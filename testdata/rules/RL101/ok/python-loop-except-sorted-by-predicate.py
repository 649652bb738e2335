# The `except` hands the error to a predicate and gives up unless it says
# so (5xx only): `raise_for_status()`'s 4xx are not retried.
import asyncio

import aiohttp
from aiohttp import ClientResponseError


class Hook:
    retry_limit = 3
    retry_delay = 1.0

    async def run(self, url):
        attempt_num = 1
        async with aiohttp.ClientSession() as session:
            while True:
                response = await session.get(url, timeout=aiohttp.ClientTimeout(total=10))
                try:
                    response.raise_for_status()
                    return await response.json()
                except ClientResponseError as e:
                    if not self._retryable_error(e) or attempt_num == self.retry_limit:
                        raise
                attempt_num += 1
                await asyncio.sleep(self.retry_delay)

    @staticmethod
    def _retryable_error(exception: ClientResponseError) -> bool:
        return exception.status >= 500
