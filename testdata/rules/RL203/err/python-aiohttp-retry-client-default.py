from aiohttp_retry import RetryClient

# RetryClient() without options uses ExponentialRetry(): 3 attempts,
# 0.2 s then 0.4 s apart, no jitter.
client = RetryClient()


async def quote(symbol):
    async with client.get(f"http://quotes:8080/quotes/{symbol}") as resp:
        return await resp.json()
