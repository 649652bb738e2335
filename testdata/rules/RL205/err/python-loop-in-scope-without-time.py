"""Scopes that set no time around a `while True` retry: an HTTP client's
`async with` and `asyncio.timeout(None)` (no deadline) end nothing, so
the loop retries until the call succeeds."""

import asyncio

import httpx


async def fetch(url):
    async with httpx.AsyncClient() as client:
        while True:
            try:
                return await client.get(url)
            except httpx.TransportError:
                await asyncio.sleep(1)


async def fetch_unlimited(client, url):
    async with asyncio.timeout(None):
        while True:
            try:
                return await client.get(url)
            except httpx.TransportError:
                await asyncio.sleep(1)
