from aiohttp_retry import JitterRetry, RetryClient

client = RetryClient(retry_options=JitterRetry(attempts=5, statuses={429}))


async def quote(symbol):
    async with client.get(f"http://quotes:8080/quotes/{symbol}") as resp:
        return await resp.json()
