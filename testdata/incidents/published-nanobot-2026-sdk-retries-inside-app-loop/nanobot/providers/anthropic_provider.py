import asyncio

import anthropic


class AnthropicProvider:
    def __init__(self, api_key):
        self._client = anthropic.AsyncAnthropic(api_key=api_key)

    async def chat_with_retry(self, model, messages):
        for attempt in range(4):
            try:
                return await self._client.messages.create(
                    model=model, max_tokens=1024, messages=messages
                )
            except anthropic.APIStatusError:
                if attempt == 3:
                    raise
                await asyncio.sleep(2 ** attempt)
