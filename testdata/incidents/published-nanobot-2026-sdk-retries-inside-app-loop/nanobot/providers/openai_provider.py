import asyncio

from openai import AsyncOpenAI, APIError

# Waits between the application's attempts: 3 retries, then a last try.
_CHAT_RETRY_DELAYS = (1, 2, 4)


class OpenAIProvider:
    """An LLM provider on an OpenAI-compatible API."""

    def __init__(self, api_key, api_base=None):
        # No max_retries: the client retries each request by itself.
        self._client = AsyncOpenAI(api_key=api_key, base_url=api_base)

    async def chat(self, model, messages):
        return await self._client.chat.completions.create(model=model, messages=messages)

    async def chat_with_retry(self, model, messages):
        for delay in _CHAT_RETRY_DELAYS:
            try:
                return await self.chat(model, messages)
            except APIError:
                await asyncio.sleep(delay)
        return await self.chat(model, messages)
