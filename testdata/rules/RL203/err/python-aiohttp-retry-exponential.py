from aiohttp_retry import ExponentialRetry, RetryClient

# ExponentialRetry waits 0.2 s, 0.4 s ... with no random part: every
# client that failed together retries together.
client = RetryClient(retry_options=ExponentialRetry(attempts=5, statuses={429}))


async def quote(symbol):
    async with client.get(f"http://quotes:8080/quotes/{symbol}") as resp:
        return await resp.json()
