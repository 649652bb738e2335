import requests
from tenacity import retry


@retry  # retrylint: ignore[RL205] the job runner kills it after 10 minutes
def poll():
    return requests.get("http://jobs:8080/status", timeout=2)
