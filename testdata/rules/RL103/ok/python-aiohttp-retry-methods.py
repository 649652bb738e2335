from aiohttp_retry import JitterRetry, RetryClient

# Only idempotent methods are retried.
retry_client = RetryClient(
    retry_options=JitterRetry(attempts=3, methods={"GET", "PUT", "DELETE"})
)


async def charge(order):
    async with retry_client.post("http://payments:8080/charges", json=order) as resp:
        return await resp.json()
