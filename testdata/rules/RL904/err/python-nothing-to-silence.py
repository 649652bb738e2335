import requests
from tenacity import retry, stop_after_attempt, wait_random_exponential


# The retry is bounded now: the suppression silences nothing.
@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=5))  # retrylint: ignore[RL205] bounded by the job runner
def poll():
    return requests.get("http://jobs:8080/status", timeout=2)
