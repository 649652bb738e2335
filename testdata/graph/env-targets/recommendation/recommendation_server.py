import os

import grpc
import requests
from tenacity import retry, stop_after_attempt, wait_fixed


def must_map_env(key: str):
    value = os.environ.get(key)
    if value is None:
        raise Exception(f"{key} environment variable must be set")
    return value


@retry(stop=stop_after_attempt(4), wait=wait_fixed(1))
def get_cart(user_id):
    return requests.get(os.environ["CART_URL"] + "/cart/" + user_id, timeout=2)


def ask_agent(prompt):
    url = f"http://{os.getenv('AGENT_HOST', '0.0.0.0')}:8010/prompt"
    return requests.post(url, json={"prompt": prompt}, timeout=30)


def ask_unset():
    # Nothing sets ASSISTANT_HOST: listed as `env ASSISTANT_HOST`.
    return requests.get(f"http://{os.getenv('ASSISTANT_HOST')}/x", timeout=5)


if __name__ == "__main__":
    catalog_addr = must_map_env('PRODUCT_CATALOG_ADDR')
    channel = grpc.insecure_channel(catalog_addr)
