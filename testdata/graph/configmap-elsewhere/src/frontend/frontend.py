import os

import requests


def contacts(user):
    url = "http://" + os.environ.get("CONTACTS_API_ADDR") + "/contacts/" + user
    return requests.get(url, timeout=3).json()
