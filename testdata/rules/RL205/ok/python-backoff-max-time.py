import backoff
import requests


@backoff.on_exception(backoff.expo, requests.ConnectionError, max_time=30)
def get_user(user_id):
    return requests.get(f"http://users:8080/users/{user_id}", timeout=2).json()
