# `423 Locked` (RFC 4918 section 11.3): the resource is locked for now; the
# server sends `Retry-After` and the same request succeeds once the lock
# is let go. Retrying it is no retry of a client error.
import asyncio

import httpx


class Slots:
    def __init__(self, client):
        self._client = client

    async def take(self, name: str, timeout_seconds: float = 60):
        async with asyncio.timeout(timeout_seconds):
            while True:
                try:
                    return await self._client.take_slot(name=name)
                except httpx.HTTPStatusError as exc:
                    if not exc.response.status_code == 423:
                        raise
                    wait = min(float(exc.response.headers["Retry-After"]), 30.0)
                    await asyncio.sleep(wait)
