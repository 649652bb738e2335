# The `except` gives up with a `return` once the attempts reach the
# hook's limit: the loop is bounded by `retry_limit`, whose value is set
# elsewhere.
import asyncio

import aiohttp
from aiohttp import ClientResponseError


class LivyHook:
    def __init__(self, retry_limit, retry_delay=1.0):
        self.retry_limit = retry_limit
        self.retry_delay = retry_delay

    async def call(self, url):
        attempt_num = 1
        async with aiohttp.ClientSession() as session:
            while True:
                response = await session.get(url, timeout=aiohttp.ClientTimeout(total=10))
                try:
                    response.raise_for_status()
                    return await response.json()
                except ClientResponseError as e:
                    if attempt_num == self.retry_limit:
                        return {"Response": e.message, "Status Code": e.status, "status": "error"}
                attempt_num += 1
                await asyncio.sleep(self.retry_delay)
