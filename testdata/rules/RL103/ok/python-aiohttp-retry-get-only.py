from aiohttp import ClientSession
from aiohttp_retry import JitterRetry, RetryClient

# Every method is retried by default, but this client only reads.
options = JitterRetry(attempts=3, start_timeout=0.5, max_timeout=5)


async def order(order_id):
    async with ClientSession() as session:
        client = RetryClient(client_session=session, retry_options=options)
        async with client.get(f"http://orders:8080/orders/{order_id}") as resp:
            return await resp.json()
