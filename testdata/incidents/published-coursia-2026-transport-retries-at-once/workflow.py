# jsboige/CoursIA PR #5873 (July 2026), incident L2636: the LLM provider was
# down for 601 s and the prover burned ~20 hops in 1.5 s: transport errors
# were retried TRANSIENT_RETRY_MAX = 2 times at once, with no backoff.
import requests

TRANSIENT_RETRY_MAX = 2


def call_provider(prompt):
    last = None
    for attempt in range(TRANSIENT_RETRY_MAX + 1):
        try:
            r = requests.post("https://openrouter.ai/api/v1/chat/completions", json={"prompt": prompt}, timeout=60)
            r.raise_for_status()
            return r.json()
        except (requests.ConnectionError, requests.Timeout) as e:
            last = e
            continue
    raise last
