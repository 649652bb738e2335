import requests
from tenacity import retry


# A bare `@retry` retries for ever, at once, on every exception.
@retry
def get_user(user_id):
    return requests.get(f"http://users:8080/users/{user_id}", timeout=2).json()
