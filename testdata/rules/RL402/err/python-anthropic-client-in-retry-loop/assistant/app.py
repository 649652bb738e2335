import random
import time

import anthropic


class Drafts:
    def __init__(self):
        # No max_retries: 3 attempts per request.
        self._client = anthropic.Anthropic()

    def _ask(self, prompt):
        return self._client.messages.create(
            model="claude-sonnet-4-5",
            max_tokens=512,
            messages=[{"role": "user", "content": prompt}],
        )

    def draft(self, prompt):
        # 2 attempts here x 3 in the client = 6 requests.
        for attempt in range(2):
            try:
                return self._ask(prompt)
            except anthropic.APIConnectionError:
                time.sleep(random.uniform(0, 1))
        raise RuntimeError("no draft")
