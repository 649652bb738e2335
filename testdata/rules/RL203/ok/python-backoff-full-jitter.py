import backoff
import requests


# backoff's default jitter is full jitter.
@backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=4)
def get_price(sku):
    return requests.get(f"http://pricing:8080/price/{sku}", timeout=2).json()
