import random
import time

from openai import OpenAI, RateLimitError

# Built without max_retries: the client itself makes 3 attempts per call.
client = OpenAI()


def summarize(text):
    # 4 attempts here x 3 in the client = 12 requests on a 429.
    for attempt in range(4):
        try:
            return client.chat.completions.create(
                model="gpt-4o-mini",
                messages=[{"role": "user", "content": text}],
            )
        except RateLimitError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError("rate limited")
