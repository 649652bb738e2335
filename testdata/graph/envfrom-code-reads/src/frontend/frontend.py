import os

import requests


def contacts(user):
    url = "http://" + os.environ.get("CONTACTS_API_ADDR") + "/contacts/" + user
    return requests.get(url, timeout=3).json()


def login(user, password):
    url = "http://" + os.environ.get("USERSERVICE_API_ADDR") + "/login"
    return requests.get(url, params={"username": user, "password": password}, timeout=3)


def cluster_name():
    url = "http://metadata.google.internal/computeMetadata/v1/instance/attributes/cluster-name"
    return requests.get(url, headers={"Metadata-Flavor": "Google"}, timeout=3).text
