import backoff
import requests


# Neither `max_tries` nor `max_time`: backoff never gives up.
@backoff.on_exception(backoff.expo, requests.ConnectionError)
def get_user(user_id):
    return requests.get(f"http://users:8080/users/{user_id}", timeout=2).json()
