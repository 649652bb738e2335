# `while True` inside a cancel scope: `asyncio.timeout(30)` cancels the
# loop when 30 seconds have passed, as `anyio.move_on_after(..)` and
# `anyio.fail_after(..)` do.
import asyncio

import aiohttp


async def fetch_when_ready(session: aiohttp.ClientSession, url: str):
    async with asyncio.timeout(30):
        while True:
            try:
                async with session.get(url) as response:
                    response.raise_for_status()
                    return await response.json()
            except aiohttp.ClientError:
                await asyncio.sleep(2)
