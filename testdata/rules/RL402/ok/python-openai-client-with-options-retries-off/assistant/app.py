import random
import time

import openai

client = openai.OpenAI()


def classify(text):
    # The loop is the one retry layer: this call's copy of the client
    # makes one attempt.
    for attempt in range(2):
        try:
            return client.with_options(max_retries=0).chat.completions.create(
                model="gpt-4o-mini",
                messages=[{"role": "user", "content": text}],
            )
        except openai.APIConnectionError:
            time.sleep(random.uniform(0, 1))
    raise RuntimeError("no answer")
