"""A readiness wait for a server this process started: `while True`
with no count, but inside `anyio.move_on_after(20)`, a cancel scope that
ends the loop after 20 seconds (and `asyncio.timeout(..)` does the same
for the second)."""

import asyncio

import anyio
import httpx


async def wait_until_up(api_url):
    async with httpx.AsyncClient() as client:
        response = None
        with anyio.move_on_after(20):
            while True:
                try:
                    response = await client.get(api_url + "/health")
                except httpx.ConnectError:
                    pass
                else:
                    if response.status_code == 200:
                        break
                await anyio.sleep(0.1)
        if not response:
            raise RuntimeError("no server within 20 seconds")


async def fetch_when_ready(client, url, limit):
    async with asyncio.timeout(limit) as scope:
        while True:
            try:
                return await client.get(url)
            except httpx.TransportError:
                await asyncio.sleep(1)
