import random
import time

from openai import OpenAI, RateLimitError

# The loop is the only retry layer: the client makes one attempt.
client = OpenAI(max_retries=0)


def summarize(text):
    # 4 attempts in all.
    for attempt in range(4):
        try:
            return client.chat.completions.create(
                model="gpt-4o-mini",
                messages=[{"role": "user", "content": text}],
            )
        except RateLimitError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError("rate limited")
